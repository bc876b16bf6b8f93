// A request body streamed to a temp file as it arrives, so that a large upload is never held in
// memory and its parsing can run elsewhere (a worker reads the file). On the event loop each uWS
// chunk is copied once, into one of a few reused 1 MiB buffers (no allocation, no fresh pages,
// nothing for the GC per chunk), and a full buffer is written at its offset by libuv's threads.
// When every buffer is being written the sink says it is full and the body reader pauses the
// socket until one comes back (backpressure end to end). The body limit is the body reader's:
// past it the pipe fails with 413 as the bytes arrive. On any failure (413, the client went
// away, a disk error) the temp file is removed before the error propagates.
import { randomUUID } from 'node:crypto';
import { close, open, write } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BodySink, RequestContext } from './types.js';

/** Temp files of spooled bodies start with this. */
export const SPOOL_FILE_PREFIX = 'body-';

const BUFFER_BYTES = 1 << 20;
/** Buffers one upload fills and writes at a time; the free ones are kept for the next upload. */
const BUFFERS_PER_UPLOAD = 4;
const MAX_KEPT_BUFFERS = 8;
const kept: Buffer[] = [];

const openFile = promisify(open);
const closeFile = promisify(close);

export interface SpooledBody {
  readonly path: string;
  readonly bytes: number;
  /** Deletes the temp file; idempotent, never throws. */
  remove(): Promise<void>;
}

/** Copies what it is given into reused buffers and writes each full one at its file offset. */
class SpoolSink implements BodySink {
  bytes = 0;
  failure: Error | null = null;
  /** Called when a buffer comes back after write() said the sink was full. */
  onRoom: (() => void) | null = null;
  private current: Buffer | null = null;
  private fill = 0;
  /** Buffers this upload holds (filling, being written, free). */
  private held = 0;
  private writeOffset = 0;
  private readonly free: Buffer[] = [];
  private writing = 0;
  private full = false;
  private idle: (() => void) | null = null;

  constructor(private readonly fd: number) {}

  write(data: Uint8Array): boolean {
    for (let off = 0; off < data.length; ) {
      const buf = (this.current ??= this.take());
      const n = Math.min(data.length - off, buf.length - this.fill);
      buf.set(n === data.length ? data : data.subarray(off, off + n), this.fill);
      this.fill += n;
      off += n;
      if (this.fill === buf.length) this.flush();
    }
    this.bytes += data.length;
    this.full = this.free.length === 0 && this.held >= BUFFERS_PER_UPLOAD;
    return !this.full;
  }

  /** Writes what is left and waits for every write. */
  async finish(): Promise<void> {
    this.flush();
    if (this.writing > 0) await new Promise<void>((resolve) => (this.idle = resolve));
    if (this.failure) throw this.failure;
  }

  /** Waits for writes in flight (their buffers go back to the pool), dropping the rest. */
  async settle(): Promise<void> {
    if (this.current) this.free.push(this.current);
    this.current = null;
    if (this.writing > 0) await new Promise<void>((resolve) => (this.idle = resolve));
  }

  private take(): Buffer {
    this.fill = 0;
    const b = this.free.pop();
    if (b) return b;
    this.held++;
    // Past BUFFERS_PER_UPLOAD only for a moment: uWS hands over what it read before the pause.
    return kept.pop() ?? Buffer.allocUnsafeSlow(BUFFER_BYTES);
  }

  private flush(): void {
    const buf = this.current;
    const len = this.fill;
    this.current = null;
    this.fill = 0;
    if (!buf || len === 0) {
      if (buf) this.free.push(buf);
      return;
    }
    this.writing++;
    const at = this.writeOffset;
    write(this.fd, buf, 0, len, at, (err, written) => {
      this.writing--;
      if (err) this.failure ??= err;
      else if (written !== len) this.failure ??= new Error(`spool: short write at ${at} (${written} of ${len} bytes)`);
      this.free.push(buf);
      if (this.full) {
        this.full = false;
        this.onRoom?.();
      }
      if (this.writing === 0) {
        const w = this.idle;
        this.idle = null;
        w?.();
      }
    });
    this.writeOffset += len;
  }

  /** Hands the buffers to the next upload (up to MAX_KEPT_BUFFERS); call when no write is in flight. */
  release(): void {
    for (const b of this.free.splice(0)) if (kept.length < MAX_KEPT_BUFFERS) kept.push(b);
  }
}

async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/** Streams ctx's body into a new file in `dir`. */
export async function spoolBody(ctx: RequestContext, dir: string): Promise<SpooledBody> {
  const path = join(dir, `${SPOOL_FILE_PREFIX}${randomUUID()}`);
  const fd = await openFile(path, 'wx');
  const sink = new SpoolSink(fd);
  try {
    const pipe = ctx.pipeBody(sink);
    sink.onRoom = pipe.drained;
    await pipe.done;
    await sink.finish();
  } catch (err) {
    await sink.settle();
    await closeFile(fd).catch(() => undefined);
    sink.release();
    await removeQuietly(path);
    throw err;
  }
  sink.release();
  await closeFile(fd);
  let removed = false;
  return {
    path,
    bytes: sink.bytes,
    async remove() {
      if (removed) return;
      removed = true;
      await removeQuietly(path);
    },
  };
}
