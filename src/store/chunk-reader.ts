// Reading a stored file's content chunks on another thread (the batch input worker,
// batch/validate-worker.ts): the thread opens the store's LMDB environment read-only for itself
// (lmdb-js shares one environment per path between the threads of a process, so this thread and
// the loop's read-write handle use the same LMDB env and lock file) and reads the chunks one at a
// time, each a private copy. The loop only posts a StoredChunks reference; the chunk bytes are
// never copied on it.
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';

/** Where a file's content is: what a reader on another thread needs (structured-clonable). */
export interface StoredChunks {
  /** The LMDB environment (Store's svc.lmdb under the data dir). */
  path: string;
  id: string;
  chunkCount: number;
}

export function lmdbPath(dataDir: string): string {
  return join(dataDir, 'svc.lmdb');
}

/** The environment's options: every handle on it, the loop's and a worker's, opens it alike. */
export const LMDB_OPTIONS = { maxDbs: 8, compression: false } as const;
/** The database of content chunks, keyed by [file id, chunk index]. */
export const CHUNKS_DB = { name: 'file_chunks', encoding: 'binary' } as const;

/** Text of the error a missing chunk gives (the file was deleted while read), on any thread. */
export function missingChunkMessage(id: string, index: number, count: number): string {
  return `file ${id}: chunk ${index} of ${count} missing`;
}

/** A file's content as its readers take it: here (read(), the fallbacks), or by reference on
 *  another thread (ref), with check() on this thread before each chunk is read there. */
export interface FileChunks {
  ref: StoredChunks;
  /** The chunks in order, read on this thread (FileStore.chunks()). */
  read(): Iterable<Uint8Array>;
  /** Throws what read() would throw at chunk `index` (the file deleted, the store closed), without
   *  copying the chunk. */
  check(index: number): void;
}

/** One read-only handle on the store's environment, for a thread other than the loop. */
export class ChunkReader {
  private readonly root: RootDatabase;
  private readonly chunks: Database<Buffer, [string, number]>;

  constructor(readonly path: string) {
    this.root = open({ path, ...LMDB_OPTIONS, readOnly: true });
    this.chunks = this.root.openDB<Buffer, [string, number]>(CHUNKS_DB);
  }

  /** Chunk `index` of the file: a private copy (owns its ArrayBuffer, so it can be transferred). */
  chunk(ref: StoredChunks, index: number): Buffer {
    const chunk = this.chunks.getBinary([ref.id, index]);
    if (!chunk) throw new MissingChunk(missingChunkMessage(ref.id, index, ref.chunkCount));
    return chunk;
  }

  close(): Promise<void> {
    return this.root.close();
  }
}

/** A chunk is gone (its file was deleted): not a failure of the reading thread. */
export class MissingChunk extends Error {}
