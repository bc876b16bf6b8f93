// An SSE response opened on its first event. Opening late lets a failure before any output still
// answer with a proper HTTP error status. If no event comes for a while (a long queue or prefill),
// the stream opens anyway with `: ping` comments, which both SDKs ignore, so that clients and
// proxies with idle timeouts keep the connection.
// Events sent in one synchronous run (one engine token: e.g. Anthropic's message_start, ping,
// content_block_start and first delta) are written together right after it, as one socket write;
// end() writes whatever is still held plus its closing events together with the end of the body.
// The SseWriter keeps writes in order and bounds what a slow client can make us hold.
import type { RequestContext, SseEvent, SseWriter } from './types.js';
import { microtask } from '../microtask.js';

export interface KeepAlive {
  /** Open the stream after this long without an event. */
  openAfterMs: number;
  /** Then send a comment this often until the stream ends. */
  pingEveryMs: number;
}

export const DEFAULT_KEEP_ALIVE: KeepAlive = { openAfterMs: 5_000, pingEveryMs: 15_000 };

const RESOLVED = Promise.resolve();

export class SseQueue {
  private sse: SseWriter | null = null;
  private last: Promise<void> = RESOLVED;
  private opener: NodeJS.Timeout | null = null;
  private pinger: NodeJS.Timeout | null = null;
  /** Events of the current synchronous run, written by the queued flush. */
  private held: SseEvent[] = [];
  private flushQueued = false;
  private ended = false;
  private readonly flushHeld = (): void => this.flush();

  constructor(
    private readonly ctx: RequestContext,
    keepAlive: KeepAlive | null = DEFAULT_KEEP_ALIVE,
  ) {
    if (!keepAlive) return;
    // The timer is armed after the current synchronous run: a route creates its queue right before
    // submitting to the engine, and a timer costs 10-25 µs that the first token need not wait for.
    microtask(() => {
      if (this.ended) return;
      this.opener = setTimeout(() => {
        this.opener = null;
        this.flush();
        if (!this.open()) return;
        this.ping();
        this.pinger = setInterval(() => this.ping(), keepAlive.pingEveryMs);
        this.pinger.unref();
      }, keepAlive.openAfterMs);
      this.opener.unref();
    });
  }

  /** True once an event was sent (or the stream opened): errors must now go in-band. */
  get started(): boolean {
    return this.sse !== null || this.held.length > 0;
  }

  /** True once the client went away. */
  get closed(): boolean {
    return this.sse?.closed ?? this.ctx.signal.aborted;
  }

  send(data: string | object, eventName?: string): void {
    if (this.ended || this.closed) return;
    this.held.push(eventName === undefined ? { data } : { data, event: eventName });
    if (!this.flushQueued) {
      this.flushQueued = true;
      microtask(this.flushHeld);
    }
  }

  /** Waits until what was sent was handed to the socket, then writes `last` (with anything still
   *  held) and ends the response. */
  async end(last: readonly SseEvent[] = []): Promise<void> {
    this.stopTimers();
    this.ended = true;
    const tail = this.held.length ? [...this.held, ...last] : last;
    this.held = [];
    await this.last;
    if (tail.length === 0) {
      this.sse?.end();
      return;
    }
    const sse = this.open();
    if (!sse || sse.closed) return;
    sse.end(tail);
  }

  private flush(): void {
    this.flushQueued = false;
    if (this.held.length === 0) return;
    const events = this.held;
    this.held = [];
    const sse = this.open();
    if (!sse || sse.closed) return;
    this.last = sse.sendBatch(events).catch(() => undefined);
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
