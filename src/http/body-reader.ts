// Request body intake. uWS drops body bytes that arrive while no onData handler is set, so the
// reader is attached synchronously when the request arrives and queues chunks (copied: uWS
// neuters its ArrayBuffers on return) until the handler asks for them. Past `highWater`
// queued bytes it pauses the socket, so a handler that streams an upload slowly, or never reads,
// holds at most ~highWater bytes. Past `limit` received bytes it fails with 413 and drops the rest.
import type { HttpResponse } from 'uWebSockets.js';
import { ApiError, apiError } from '../errors.js';
import type { BodyPipe, BodySink } from './types.js';

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
  /** Set by pipeTo(): bytes go to it as they arrive instead of the queue. */
  private sink: BodySink | null = null;
  private sinkFull = false;

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
    } else if (this.sink) {
      if (n > 0 && !this.sink.write(new Uint8Array(ab))) this.sinkFull = true;
      if (this.sinkFull && !this.paused && !isLast) {
        this.paused = true;
        this.res.pause();
      }
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

  /** Hands the body to `sink` as it arrives, straight out of uWS's buffer (the sink copies what it
   *  keeps, into memory it reuses: no allocation per chunk here). */
  pipeTo(sink: BodySink): BodyPipe {
    this.take();
    this.sink = sink;
    // What arrived before the handler asked for it.
    for (const c of this.chunks.splice(0)) if (!sink.write(c)) this.sinkFull = true;
    this.queued = 0;
    // The queue may have paused the socket (a handler that starts late): from now on only the
    // sink decides. A paused socket stays paused until resumed, even when the client goes away.
    if (this.paused && !this.sinkFull && !this.discarding && !this.failure) {
      this.paused = false;
      this.res.resume();
    }
    const done = (async () => {
      for (;;) {
        if (this.failure) throw this.failure;
        if (this.ended) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    })();
    return {
      done,
      drained: () => {
        this.sinkFull = false;
        if (this.paused) {
          this.paused = false;
          this.res.resume();
        }
      },
    };
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
