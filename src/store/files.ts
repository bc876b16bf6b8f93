// Files: metadata records plus content in fixed-size chunks. Uploads stream in (a bounded number
// of chunk writes in flight, never the whole file in memory) and become visible only when their
// metadata flips from `uploading` to `ready`; downloads read one chunk at a time.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { apiError } from '../errors.js';
import { isStorableId, sortableId } from './ids.js';
import { decodeFileRecord, FILE_SCHEMA_VERSION, type FileRecord } from './records.js';
import { lmdbPath, missingChunkMessage, type FileChunks } from './chunk-reader.js';
import type { Store } from './store.js';

export const FILE_ID_PREFIX = 'file_';

/** OpenAI File object (`status` is deprecated upstream but still required by its schema). */
export interface FileObject {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: 'processed';
}

export interface FileStoreOptions {
  /** Bytes per stored chunk. */
  chunkSize: number;
  /** Largest file a client may upload; past it: 413. Files the server generates (batch results)
   *  are not bound by it: their size follows from the batch the client was allowed to submit. */
  maxFileBytes: number;
  /**
   * Full chunks gathered before they are written together in one commit (one fsync per group,
   * not per chunk). Memory per upload is bounded by about two groups: one committing, one filling.
   */
  chunksPerCommit: number;
  /** Seconds, for `created_at`. */
  nowSeconds: () => number;
}

export const DEFAULT_CHUNK_SIZE = 256 * 1024;
/** Spare chunk buffers kept between uploads: two commit groups' worth (4 MiB at the default). */
const MAX_SPARE_CHUNKS = 16;

export function toFileObject(rec: FileRecord): FileObject {
  return {
    id: rec.id,
    object: 'file',
    bytes: rec.bytes,
    created_at: rec.created_at,
    filename: rec.filename,
    purpose: rec.purpose,
    status: 'processed',
  };
}

export interface ListFilesQuery {
  purpose?: string;
  limit: number;
  order: 'asc' | 'desc';
  after?: string;
}

/** Accumulates content into fixed-size chunks and writes them as they fill. */
export class FileWriter {
  readonly id: string;
  private buf: Buffer;
  private fill = 0;
  private index = 0;
  private total = 0;
  /** Full chunks not yet handed to LMDB. */
  private group: Buffer[] = [];
  /** The commit of the previous group, if still running. */
  private committing: Promise<void> | null = null;
  private failed: unknown = null;
  private done = false;
  /** A short chunk went in whole (writeChunk): it must be the last. */
  private sealed = false;
  /** Told of each chunk given by writeChunk() once LMDB committed it (the buffer may be reused). */
  onChunkCommitted: ((chunk: Buffer) => void) | null = null;
  /** Called once when the file is published or dropped. */
  onEnd: (() => void) | null = null;
  private readonly given = new Set<Buffer>();

  constructor(
    private readonly store: Store,
    private readonly opts: FileStoreOptions,
    readonly filename: string,
    private readonly createdAt: number,
    private readonly maxBytes: number,
  ) {
    this.id = sortableId(FILE_ID_PREFIX);
    this.buf = Buffer.allocUnsafe(opts.chunkSize);
  }

  /** Marks the upload as begun, so a crash leaves a record the startup sweep can find. */
  async begin(): Promise<void> {
    await this.store.files.put(this.id, this.record('uploading', ''));
  }

  get bytes(): number {
    return this.total;
  }

  async write(data: Uint8Array): Promise<void> {
    this.admit(data.length);
    let offset = 0;
    while (offset < data.length) {
      const n = Math.min(data.length - offset, this.buf.length - this.fill);
      this.buf.set(data.subarray(offset, offset + n), this.fill);
      this.fill += n;
      offset += n;
      if (this.fill === this.buf.length) await this.flushChunk();
    }
  }

  /** Takes `chunk` as the next stored chunk as it is (no copy; it must not be reused). A chunk
   *  shorter than the chunk size must be the file's last; mid-chunk it is copied like write(). */
  async writeChunk(chunk: Buffer): Promise<void> {
    if (this.fill !== 0 || chunk.length > this.buf.length || chunk.length === 0) return this.write(chunk);
    this.admit(chunk.length);
    this.given.add(chunk);
    this.group.push(chunk);
    if (chunk.length < this.buf.length) this.sealed = true;
    if (this.group.length >= this.opts.chunksPerCommit) await this.commitGroup();
  }

  private admit(n: number): void {
    if (this.failed) throw this.failed;
    if (this.sealed) throw new Error(`file ${this.id}: write after its short last chunk`);
    if (this.total + n > this.maxBytes) {
      throw apiError('file_too_large', { limit: this.maxBytes });
    }
    this.total += n;
  }

  /** Writes the tail chunk and waits until every chunk is committed. */
  async flush(): Promise<void> {
    if (this.fill > 0) await this.flushChunk();
    await this.commitGroup();
    await this.committing;
    if (this.failed) throw this.failed;
  }

  /** The metadata that makes the file visible; put it in the same transaction as whatever references it. */
  readyRecord(purpose: string): FileRecord {
    return this.record('ready', purpose);
  }

  /** Flushes and publishes the file on its own. */
  async finish(purpose: string): Promise<FileObject> {
    await this.flush();
    const rec = this.readyRecord(purpose);
    await this.store.files.put(this.id, rec);
    this.end();
    return toFileObject(rec);
  }

  /** Drops everything written so far. Safe to call after errors; idempotent. */
  async abort(): Promise<void> {
    if (this.done) return;
    await this.committing?.catch(() => undefined);
    await removeFileContent(this.store, this.id);
    this.end();
  }

  private end(): void {
    if (this.done) return;
    this.done = true;
    this.onEnd?.();
  }

  private record(state: 'uploading' | 'ready', purpose: string): FileRecord {
    return {
      schemaVersion: FILE_SCHEMA_VERSION,
      id: this.id,
      state,
      bytes: this.total,
      created_at: this.createdAt,
      filename: this.filename,
      purpose,
      chunkSize: this.opts.chunkSize,
      chunkCount: this.index,
    };
  }

  private async flushChunk(): Promise<void> {
    // The buffer handed to LMDB is never reused: it stays valid until its commit.
    this.group.push(this.fill === this.buf.length ? this.buf : this.buf.subarray(0, this.fill));
    this.buf = Buffer.allocUnsafe(this.opts.chunkSize);
    this.fill = 0;
    if (this.group.length >= this.opts.chunksPerCommit) await this.commitGroup();
  }

  /** Waits for the previous group's commit, then issues this group's puts in one event turn (one transaction). */
  private async commitGroup(): Promise<void> {
    await this.committing;
    if (this.failed) throw this.failed;
    if (this.group.length === 0) return;
    const group = this.group;
    this.group = [];
    let last: Promise<boolean> | null = null;
    for (const chunk of group) last = this.store.chunks.put([this.id, this.index++], chunk);
    this.committing = last!.then(
      () => {
        for (const chunk of group) {
          if (this.given.delete(chunk)) this.onChunkCommitted?.(chunk);
        }
      },
      (err: unknown) => {
        this.failed ??= err;
      },
    );
  }
}

async function removeFileContent(store: Store, id: string): Promise<void> {
  await store.root.transaction(() => {
    for (const key of store.chunks.getKeys({ start: [id, 0], end: [id, Number.MAX_SAFE_INTEGER] })) {
      store.chunks.remove(key);
    }
    store.files.remove(id);
  });
}

/** Where an uploaded file's content waits before it is stored: `bytes` bytes of the file at
 *  `path` from `offset` (a spooled request body). */
export interface ContentSource {
  path: string;
  offset: number;
  bytes: number;
}

export class FileStore {
  /** Directory for request bodies on their way in (same disk as the store). */
  readonly spoolDir: string;
  /** Chunk-size buffers LMDB is done with, for the next upload's reads. */
  private readonly spareChunks: Buffer[] = [];
  /** Ids of the files this process is writing now: 'uploading', yet not left over. */
  private readonly writing = new Set<string>();

  constructor(
    readonly store: Store,
    readonly opts: FileStoreOptions,
  ) {
    this.spoolDir = join(store.dataDir, 'upload-spool');
    mkdirSync(this.spoolDir, { recursive: true });
    // Bodies a dead process was still receiving or storing (the data dir is locked: no other
    // process uses them, and no request has arrived yet).
    for (const name of readdirSync(this.spoolDir)) rmSync(join(this.spoolDir, name), { force: true, recursive: true });
  }

  /**
   * Stores a client's upload from where it waits: reads it one chunk at a time into a buffer
   * that becomes the stored chunk (the read runs on libuv's threads; nothing is copied on the
   * loop). The file is visible only once complete; on failure, or when `signal` aborts, nothing
   * of it is kept.
   */
  async importUpload(filename: string, purpose: string, src: ContentSource, signal?: AbortSignal): Promise<FileObject> {
    const w = await this.beginUpload(filename);
    // Chunk buffers come back once committed and are read into again (here and by the next
    // upload): a large upload allocates a few MiB once instead of its size in external memory,
    // which made V8 run mark-compacts on the loop.
    const size = this.opts.chunkSize;
    w.onChunkCommitted = (chunk) => {
      if (chunk.length === size && this.spareChunks.length < MAX_SPARE_CHUNKS) this.spareChunks.push(chunk);
    };
    try {
      const fh = await open(src.path, 'r');
      try {
        const end = src.offset + src.bytes;
        for (let pos = src.offset; pos < end; ) {
          signal?.throwIfAborted();
          const n = Math.min(size, end - pos);
          const buf = this.spareChunks.pop() ?? Buffer.allocUnsafeSlow(size);
          const chunk = n === size ? buf : buf.subarray(0, n);
          const { bytesRead } = await fh.read(chunk, 0, n, pos);
          if (bytesRead !== n) throw new Error(`upload ${w.id}: ${src.path} ended at ${pos + bytesRead}, before ${end}`);
          await w.writeChunk(chunk);
          pos += n;
        }
      } finally {
        await fh.close();
      }
      signal?.throwIfAborted();
      return await w.finish(purpose);
    } catch (err) {
      await w.abort().catch(() => undefined);
      throw err;
    }
  }

  /** A client's upload, up to maxFileBytes. */
  async beginUpload(filename: string): Promise<FileWriter> {
    // Uploads can arrive before the startup sweep (servers listen while models load): the sweep
    // must not take a live upload for a leftover.
    const w = new FileWriter(this.store, this.opts, filename, this.opts.nowSeconds(), this.opts.maxFileBytes);
    this.writing.add(w.id);
    w.onEnd = () => this.writing.delete(w.id);
    try {
      await w.begin();
    } catch (err) {
      this.writing.delete(w.id);
      throw err;
    }
    return w;
  }

  /** A file the server writes itself (batch output and error files): no size limit. Written
   *  only once the runner started, after the sweep. */
  async beginGenerated(filename: string): Promise<FileWriter> {
    const w = new FileWriter(this.store, this.opts, filename, this.opts.nowSeconds(), Number.POSITIVE_INFINITY);
    await w.begin();
    return w;
  }

  record(id: string): FileRecord | undefined {
    if (!isStorableId(id)) return undefined;
    const rec = decodeFileRecord(this.store.files.get(id));
    return rec && rec.state === 'ready' ? rec : undefined;
  }

  get(id: string): FileObject | undefined {
    const rec = this.record(id);
    return rec ? toFileObject(rec) : undefined;
  }

  list(q: ListFilesQuery): { data: FileObject[]; has_more: boolean } {
    const reverse = q.order === 'desc';
    const range = reverse
      ? { start: q.after ?? FILE_ID_PREFIX + '\uffff', end: FILE_ID_PREFIX, reverse: true }
      : { start: q.after ?? FILE_ID_PREFIX, end: FILE_ID_PREFIX + '\uffff' };
    const data: FileObject[] = [];
    let hasMore = false;
    for (const { key, value } of this.store.files.getRange(range)) {
      if (key === q.after) continue;
      const rec = decodeFileRecord(value);
      if (!rec || rec.state !== 'ready') continue;
      if (q.purpose !== undefined && rec.purpose !== q.purpose) continue;
      if (data.length === q.limit) {
        hasMore = true;
        break;
      }
      data.push(toFileObject(rec));
    }
    return { data, has_more: hasMore };
  }

  /** Content chunks in order, read one at a time (each a private copy). */
  *chunks(rec: FileRecord): Generator<Buffer> {
    for (let i = 0; i < rec.chunkCount; i++) {
      const chunk = this.store.chunks.getBinary([rec.id, i]);
      if (!chunk) throw new Error(missingChunkMessage(rec.id, i, rec.chunkCount));
      yield chunk;
    }
  }

  /** The file's content for a reader that may read it on another thread (store/chunk-reader.ts). */
  content(rec: FileRecord): FileChunks {
    return {
      ref: { path: lmdbPath(this.store.dataDir), id: rec.id, chunkCount: rec.chunkCount },
      read: () => this.chunks(rec),
      check: (i) => {
        if (!this.store.chunks.doesExist([rec.id, i])) throw new Error(missingChunkMessage(rec.id, i, rec.chunkCount));
      },
    };
  }

  async remove(id: string): Promise<boolean> {
    if (!this.record(id)) return false;
    await removeFileContent(this.store, id);
    return true;
  }

  /** Removes uploads that never finished (the process died or the client went away mid-upload). */
  async sweepIncomplete(): Promise<number> {
    const stale: string[] = [];
    for (const { key, value } of this.store.files.getRange({ start: FILE_ID_PREFIX, end: FILE_ID_PREFIX + '\uffff' })) {
      if (decodeFileRecord(value)?.state === 'uploading' && !this.writing.has(key)) stale.push(key);
    }
    for (const id of stale) await removeFileContent(this.store, id);
    return stale.length;
  }
}
