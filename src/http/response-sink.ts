// Streamed response bodies over uWS with backpressure. Two shapes:
//  - ChunkedSink (unknown length, SSE and chunked downloads): res.write(). uWS keeps whatever the
//    socket did not take and write() returns false; we then hold further writes in JS until
//    onWritable fires. uWS does NOT flush its own buffer while an onWritable handler is
//    registered (HttpContext.h: "It makes little sense to drain any backpressure when the user
//    has registered onWritable"), only our next write flushes it, so on onWritable we either write
//    the next queued piece or, for SSE, a 2-byte comment line (`:\n`) that clients ignore.
//  - FixedLengthSink (known Content-Length): res.tryEnd(), the VideoStreamer pattern; uWS keeps
//    nothing past the socket and we retry the unsent tail from onWritable's offset.
// Memory per stream is bounded: at most one piece inside uWS plus maxQueuedBytes in JS (only
// reached by a producer that does not await write()); past that the connection is dropped.
// A chunked stream whose client takes no bytes for stallTimeoutMs while output waits is cut
// (its request's signal aborts, so the generation behind it is cancelled). uWS itself closes a
// response that stays backpressured for about 10 s (HTTP_IDLE_TIMEOUT_S, 4 s granularity, not
// settable from JS), so timeouts past that never fire; shorter ones cut earlier.
import type { HttpResponse } from 'uWebSockets.js';

/** What a sink needs from the request it belongs to (implemented by the request context). */
export interface StreamOwner {
  readonly res: HttpResponse;
  readonly aborted: boolean;
  readonly maxQueuedBytes: number;
  /** Cut a stream whose client took nothing for this long while output waited; 0: never. */
  readonly stallTimeoutMs: number;
  onAbort(listener: () => void): void;
  countBytes(n: number): void;
  /** Writes the response's status and headers if they are still held; called inside res.cork
   *  before the first body bytes, so one socket write carries both. */
  writePendingHead(): void;
  /** The response is complete (last byte handed to uWS). */
  finish(): void;
  /** Cut the connection: the client sees a truncated body, not a clean end. */
  destroy(reason: string): void;
}

export type Chunk = Uint8Array | string;

const RESOLVED = Promise.resolve();
const noop = (): void => {};

export function chunkLength(c: Chunk): number {
  return typeof c === 'string' ? Buffer.byteLength(c) : c.byteLength;
}

interface Pending {
  data: Chunk;
  size: number;
  resolve: () => void;
}

export class ChunkedSink {
  private readonly queue: Pending[] = [];
  private queuedBytes = 0;
  /** Resolver of the write uWS had to buffer; set while backpressured. */
  private blocked: (() => void) | null = null;
  private ended = false;
  /** Bytes handed to uWS (for stats and tests). */
  acceptedBytes = 0;
  /** When the client last took bytes (or the stream last became blocked): the stall clock. */
  private progressAt = 0;
  /** One timer per blocked stream, re-armed for the rest of the timeout on progress. */
  private stallTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly owner: StreamOwner,
    /** Harmless bytes that flush uWS's buffer when nothing else is queued (SSE: ':\n'). */
    private readonly nudge: string | null,
  ) {
    if (!owner.aborted) owner.res.onWritable(() => this.onWritable());
    owner.onAbort(() => this.releaseAll());
  }

  /** uWS kept part of a write: wait for onWritable, and start the stall clock. */
  private block(resolve: () => void): void {
    if (!this.blocked) this.progressAt = performance.now();
    this.blocked = resolve;
    const timeout = this.owner.stallTimeoutMs;
    if (timeout > 0 && !this.stallTimer) this.armStall(timeout);
  }

  private armStall(ms: number): void {
    this.stallTimer = setTimeout(() => this.checkStall(), ms);
    this.stallTimer.unref();
  }

  private checkStall(): void {
    this.stallTimer = null;
    if (!this.blocked || this.closed) return;
    const timeout = this.owner.stallTimeoutMs;
    const stalled = performance.now() - this.progressAt;
    if (stalled >= timeout) this.owner.destroy(`client took no bytes for ${Math.round(stalled)} ms (stall timeout ${timeout} ms)`);
    else this.armStall(timeout - stalled);
  }

  get closed(): boolean {
    return this.ended || this.owner.aborted;
  }

  get backpressured(): boolean {
    return this.blocked !== null;
  }

  get jsQueuedBytes(): number {
    return this.queuedBytes;
  }

  write(data: Chunk): Promise<void> {
    if (this.closed) return RESOLVED;
    const size = chunkLength(data);
    if (size === 0) return RESOLVED; // a zero-length chunk would end a chunked body
    if (!this.blocked && this.queue.length === 0) {
      if (this.rawWrite(data, size)) return RESOLVED;
      return new Promise((resolve) => this.block(resolve));
    }
    if (this.queuedBytes + size > this.owner.maxQueuedBytes) {
      this.owner.destroy(`stream queue over ${this.owner.maxQueuedBytes} bytes: producer is not awaiting writes`);
      return RESOLVED;
    }
    this.queuedBytes += size;
    return new Promise((resolve) => this.queue.push({ data, size, resolve }));
  }

  /** Ends the chunked body; queued pieces go out first (uWS buffers them: bounded by the queue cap). */
  end(final?: Chunk): void {
    if (this.closed) return;
    this.ended = true;
    const res = this.owner.res;
    res.cork(() => {
      this.owner.writePendingHead();
      for (const p of this.queue) {
        res.write(p.data);
        this.count(p.size);
      }
      const finalSize = final === undefined ? 0 : chunkLength(final);
      this.count(finalSize);
      res.end(finalSize ? final : undefined);
    });
    this.releaseAll();
    this.owner.finish();
  }

  private count(n: number): void {
    this.acceptedBytes += n;
    this.owner.countBytes(n);
  }

  private rawWrite(data: Chunk, size: number): boolean {
    let ok = false;
    this.owner.res.cork(() => {
      this.owner.writePendingHead();
      ok = this.owner.res.write(data);
    });
    this.count(size);
    return ok;
  }

  private onWritable(): boolean {
    if (!this.blocked || this.closed) return true;
    this.progressAt = performance.now();
    const prev = this.blocked;
    this.blocked = null;
    const next = this.queue.shift();
    let ok = true;
    if (next) {
      this.queuedBytes -= next.size;
      ok = this.rawWrite(next.data, next.size);
    } else if (this.nudge) {
      ok = this.rawWrite(this.nudge, this.nudge.length);
    }
    prev();
    if (!ok) {
      this.block(next ? next.resolve : noop);
      return true;
    }
    next?.resolve();
    this.pump();
    return true;
  }

  private pump(): void {
    while (!this.blocked && this.queue.length && !this.closed) {
      const p = this.queue.shift()!;
      this.queuedBytes -= p.size;
      if (this.rawWrite(p.data, p.size)) p.resolve();
      else this.block(p.resolve);
    }
  }

  /** Producers waiting on write() resume (and see `closed`). */
  private releaseAll(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
    const b = this.blocked;
    this.blocked = null;
    b?.();
    for (const p of this.queue.splice(0)) p.resolve();
    this.queuedBytes = 0;
  }
}

export class FixedLengthSink {
  private readonly queue: Pending[] = [];
  private queuedBytes = 0;
  /** The piece tryEnd could not finish: retried from onWritable's offset. */
  private pending: { bytes: Uint8Array; startOffset: number; resolve: () => void } | null = null;
  private handed = 0;
  private done = false;
  private ended = false;

  constructor(
    private readonly owner: StreamOwner,
    private readonly total: number,
  ) {
    if (!owner.aborted) owner.res.onWritable((offset) => this.onWritable(offset));
    owner.onAbort(() => this.releaseAll());
  }

  get closed(): boolean {
    return this.ended || this.done || this.owner.aborted;
  }

  write(data: Chunk): Promise<void> {
    if (this.closed) return RESOLVED;
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (bytes.byteLength === 0) return RESOLVED;
    if (this.handed + this.queuedBytes + bytes.byteLength > this.total) {
      this.owner.destroy(`stream wrote more than its Content-Length (${this.total})`);
      return RESOLVED;
    }
    if (this.pending || this.queue.length) {
      if (this.queuedBytes + bytes.byteLength > this.owner.maxQueuedBytes) {
        this.owner.destroy(`stream queue over ${this.owner.maxQueuedBytes} bytes: producer is not awaiting writes`);
        return RESOLVED;
      }
      this.queuedBytes += bytes.byteLength;
      return new Promise((resolve) => this.queue.push({ data: bytes, size: bytes.byteLength, resolve }));
    }
    return new Promise((resolve) => this.tryWrite(bytes, resolve));
  }

  end(final?: Chunk): void {
    if (this.closed) return;
    if (final !== undefined) void this.write(final);
    if (this.total === 0 && !this.done) this.tryWrite(new Uint8Array(0), noop); // tryEnd ends an empty body
    this.ended = true;
    // Everything handed (or queued behind backpressure) must add up to the promised length.
    if (this.handed + this.queuedBytes + (this.pending ? this.pending.bytes.byteLength : 0) < this.total && !this.done) {
      this.owner.destroy(`stream ended after ${this.handed} of ${this.total} bytes`);
    }
  }

  private tryWrite(bytes: Uint8Array, resolve: () => void): void {
    const res = this.owner.res;
    const startOffset = res.getWriteOffset();
    let ok = false;
    let done = false;
    res.cork(() => {
      this.owner.writePendingHead();
      [ok, done] = res.tryEnd(bytes, this.total);
    });
    this.handed += bytes.byteLength;
    this.owner.countBytes(bytes.byteLength);
    if (done) this.complete();
    if (ok || done) resolve();
    else this.pending = { bytes, startOffset, resolve };
  }

  private onWritable(offset: number): boolean {
    const p = this.pending;
    if (!p || this.owner.aborted) return true;
    const res = this.owner.res;
    let ok = false;
    let done = false;
    res.cork(() => {
      [ok, done] = res.tryEnd(p.bytes.subarray(offset - p.startOffset), this.total);
    });
    if (done) this.complete();
    if (ok || done) {
      this.pending = null;
      p.resolve();
      this.pump();
    }
    return ok;
  }

  private pump(): void {
    while (!this.pending && this.queue.length && !this.done && !this.owner.aborted) {
      const q = this.queue.shift()!;
      this.queuedBytes -= q.size;
      this.tryWrite(q.data as Uint8Array, q.resolve);
    }
  }

  private complete(): void {
    if (this.done) return;
    this.done = true;
    this.releaseAll();
    this.owner.finish();
  }

  private releaseAll(): void {
    const p = this.pending;
    this.pending = null;
    p?.resolve();
    for (const q of this.queue.splice(0)) q.resolve();
    this.queuedBytes = 0;
  }
}
