// An SSE response opened on its first event, with writes kept in order. Opening late lets a
// failure before any output still answer with a proper HTTP error status.
import type { RequestContext, SseWriter } from '../http/types.js';

export class SseQueue {
  private sse: SseWriter | null = null;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: RequestContext) {}

  get started(): boolean {
    return this.sse !== null;
  }

  /** True once the client went away. */
  get closed(): boolean {
    return this.sse?.closed ?? this.ctx.signal.aborted;
  }

  send(data: string | object, eventName?: string): void {
    if (!this.sse) this.sse = this.ctx.sse();
    const sse = this.sse;
    this.chain = this.chain.then(() => (sse.closed ? undefined : sse.send(data, eventName))).catch(() => undefined);
  }

  /** Waits for queued writes, then ends the response. */
  async end(): Promise<void> {
    await this.chain;
    this.sse?.end();
  }
}
