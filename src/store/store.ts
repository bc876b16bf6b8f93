// The one LMDB environment under --data-dir: named databases for file metadata, file content
// chunks, batches and per-request batch results. Everything that must change together (a result
// and the batch counters; output files and the terminal status) is written in one transaction
// on the root env.
import { mkdirSync } from 'node:fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import { CHUNKS_DB, LMDB_OPTIONS, lmdbPath } from './chunk-reader.js';
import { lockDataDir, type DataDirLock } from './lock.js';

export interface Store {
  readonly dataDir: string;
  readonly root: RootDatabase;
  /** file id -> FileRecord */
  readonly files: Database<unknown, string>;
  /** [file id, chunk index] -> bytes */
  readonly chunks: Database<Buffer, [string, number]>;
  /** batch id -> BatchRecord */
  readonly batches: Database<unknown, string>;
  /** [batch id, one-based line] -> ResultRecord */
  readonly results: Database<unknown, [string, number]>;
  /** Waits for pending writes, closes the env, releases the data-dir lock. Idempotent. */
  close(): Promise<void>;
}

export function openStore(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true });
  const lock: DataDirLock = lockDataDir(dataDir);
  let root: RootDatabase;
  try {
    root = open({ path: lmdbPath(dataDir), ...LMDB_OPTIONS });
  } catch (err) {
    lock.release();
    throw err;
  }
  const files = root.openDB<unknown, string>({ name: 'files', encoding: 'msgpack' });
  const chunks = root.openDB<Buffer, [string, number]>(CHUNKS_DB);
  const batches = root.openDB<unknown, string>({ name: 'batches', encoding: 'msgpack' });
  const results = root.openDB<unknown, [string, number]>({ name: 'batch_results', encoding: 'msgpack' });
  let closing: Promise<void> | null = null;
  return {
    dataDir,
    root,
    files,
    chunks,
    batches,
    results,
    close() {
      closing ??= (async () => {
        try {
          await root.close();
        } finally {
          lock.release();
        }
      })();
      return closing;
    },
  };
}
