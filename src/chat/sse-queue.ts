// An SSE response opened on its first event. Opening late lets a failure before any output still
// answer with a proper HTTP error status. Writes go straight to the SseWriter, which keeps them in
// order and bounds what a slow client can make us hold.
import type { RequestContext, SseWriter } from '../http/types.js';

export class SseQueue {
  private sse: SseWriter | null = null;
  private last: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: RequestContext) {}

  get started(): boolean {
    return this.sse !== null;
  }

  /** True once the client went away. */
  get closed(): boolean {
    return this.sse?.closed ?? this.ctx.signal.aborted;
  }

  send(data: string | object, eventName?: string): void {
    if (!this.sse) {
      if (this.ctx.signal.aborted) return; // the client left before any output: nothing to open
      this.sse = this.ctx.sse();
    }
    if (this.sse.closed) return;
    this.last = this.sse.send(data, eventName).catch(() => undefined);
  }

  /** Waits until the last event was handed to the socket, then ends the response. */
  async end(): Promise<void> {
    await this.last;
    this.sse?.end();
  }
}
