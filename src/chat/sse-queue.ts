// An SSE response opened on its first event. Opening late lets a failure before any output still
// answer with a proper HTTP error status. If no event comes for a while (a long queue or prefill),
// the stream opens anyway with `: ping` comments, which both SDKs ignore, so that clients and
// proxies with idle timeouts keep the connection. Writes go straight to the SseWriter, which keeps
// them in order and bounds what a slow client can make us hold.
import type { RequestContext, SseWriter } from '../http/types.js';

export interface KeepAlive {
  /** Open the stream after this long without an event. */
  openAfterMs: number;
  /** Then send a comment this often until the stream ends. */
  pingEveryMs: number;
}

export const DEFAULT_KEEP_ALIVE: KeepAlive = { openAfterMs: 5_000, pingEveryMs: 15_000 };

export class SseQueue {
  private sse: SseWriter | null = null;
  private last: Promise<void> = Promise.resolve();
  private opener: NodeJS.Timeout | null = null;
  private pinger: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: RequestContext,
    keepAlive: KeepAlive | null = DEFAULT_KEEP_ALIVE,
  ) {
    if (!keepAlive) return;
    this.opener = setTimeout(() => {
      this.opener = null;
      if (!this.open()) return;
      this.ping();
      this.pinger = setInterval(() => this.ping(), keepAlive.pingEveryMs);
      this.pinger.unref();
    }, keepAlive.openAfterMs);
    this.opener.unref();
  }

  get started(): boolean {
    return this.sse !== null;
  }

  /** True once the client went away. */
  get closed(): boolean {
    return this.sse?.closed ?? this.ctx.signal.aborted;
  }

  send(data: string | object, eventName?: string): void {
    const sse = this.open();
    if (!sse || sse.closed) return;
    this.last = sse.send(data, eventName).catch(() => undefined);
  }

  /** Waits until the last event was handed to the socket, then ends the response. */
  async end(): Promise<void> {
    this.stopTimers();
    await this.last;
    this.sse?.end();
  }

  private open(): SseWriter | null {
    if (!this.sse) {
      if (this.ctx.signal.aborted) return null; // the client left before any output: nothing to open
      this.sse = this.ctx.sse();
    }
    return this.sse;
  }

  private ping(): void {
    const sse = this.sse;
    if (!sse || sse.closed) return this.stopTimers();
    this.last = sse.comment('ping').catch(() => undefined);
  }

  private stopTimers(): void {
    if (this.opener) clearTimeout(this.opener);
    if (this.pinger) clearInterval(this.pinger);
    this.opener = this.pinger = null;
  }
}
