// Request body intake. uWS drops body bytes that arrive while no onData handler is set, so the
// reader is attached synchronously when the request arrives and queues chunks (copied: uWS
// neuters its ArrayBuffers on return) until the handler asks for them. Past `highWater`
// queued bytes it pauses the socket, so a handler that streams an upload slowly, or never reads,
// holds at most ~highWater bytes. Past `limit` received bytes it fails with 413 and drops the rest.
import type { HttpResponse } from 'uWebSockets.js';
import { ApiError, apiError } from '../errors.js';

export class ClientAbortedError extends Error {
  constructor() {
    super('client closed the connection');
    this.name = 'ClientAbortedError';
  }
}

export function tooLarge(limit: number): ApiError {
  return apiError('body_too_large', { limit });
}

export class BodyReader {
  private readonly chunks: Buffer[] = [];
  private queued = 0;
  private received = 0;
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private paused = false;
  private taken = false;
  /** Handler is done with the body: further bytes are dropped without queueing. */
  private discarding = false;

  constructor(
    private readonly res: HttpResponse,
    private readonly limit: number,
    private readonly highWater = 1 << 20,
  ) {
    res.onData((ab, isLast) => this.onData(ab, isLast));
  }

  /** The whole body arrived (or was refused); false while bytes may still come. */
  get complete(): boolean {
    return this.ended;
  }

  /** True once the body went past the limit: the connection cannot be reused safely. */
  get overLimit(): boolean {
    return this.failure instanceof ApiError;
  }

  private onData(ab: ArrayBuffer, isLast: boolean): void {
    if (isLast) this.ended = true;
    const n = ab.byteLength;
    this.received += n;
    if (this.failure || this.discarding) {
      this.signal();
      return;
    }
    if (this.received > this.limit) {
      this.failure = tooLarge(this.limit);
      this.chunks.length = 0;
      this.queued = 0;
    } else if (n > 0) {
      this.chunks.push(Buffer.from(ab.slice(0)));
      this.queued += n;
      if (this.queued > this.highWater && !this.paused && !isLast) {
        this.paused = true;
        this.res.pause();
      }
    }
    this.signal();
  }

  private signal(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  /** Client went away: pending reads fail. */
  abort(): void {
    if (!this.failure) this.failure = new ClientAbortedError();
    this.paused = false; // the socket is gone; nothing to resume
    this.signal();
  }

  /** The response is being sent: drop whatever is left and keep the socket flowing.
   *  Must run before res.end() (the response object is invalid afterwards). */
  release(): void {
    this.discarding = true;
    this.chunks.length = 0;
    this.queued = 0;
    if (this.paused) {
      this.paused = false;
      this.res.resume();
    }
  }

  private take(): void {
    if (this.taken) throw new Error('request body already consumed');
    this.taken = true;
  }

  async *chunksIterator(): AsyncGenerator<Uint8Array> {
    this.take();
    for (;;) {
      const c = this.chunks.shift();
      if (c) {
        this.queued -= c.byteLength;
        if (this.paused && this.queued <= this.highWater / 2) {
          this.paused = false;
          this.res.resume();
        }
        yield c;
        continue;
      }
      if (this.failure) throw this.failure;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** The whole body. Takes chunks as they come (no async iterator: a body is usually one chunk
   *  that is already here or arrives right after the handler starts). */
  async readAll(): Promise<Buffer> {
    this.take();
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      if (this.chunks.length) {
        for (const c of this.chunks) {
          parts.push(c);
          total += c.byteLength;
        }
        this.chunks.length = 0;
        this.queued = 0;
        if (this.paused) {
          this.paused = false;
          this.res.resume();
        }
      }
      if (this.failure) throw this.failure;
      if (this.ended) break;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
  }
}
