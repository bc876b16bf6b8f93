// The Files + Batches subsystem as one unit for Services: the LMDB store under --data-dir, the
// file and batch stores, and the runner. Open it, put it in Services, `start()` it once the
// executor's dependencies exist, and `close()` it on shutdown (stops the runner, then LMDB).
import { closeValidationWorker, prestartValidationWorker } from './input-worker.js';
import { apiError } from '../errors.js';
import { BatchStore } from '../store/batches.js';
import { DEFAULT_CHUNK_SIZE, FileStore } from '../store/files.js';
import { FilesService } from '../store/files-service.js';
import { openStore, type Store } from '../store/store.js';
import { BatchRunner } from './runner.js';
import {
  COMPLETION_WINDOW_SECONDS,
  DEFAULT_BATCH_LIMITS,
  systemClock,
  type BatchLimits,
  type BatchObject,
  type ChatExecutor,
  type Clock,
} from './types.js';

/** Default largest upload / file (OpenAI's batch input limit). */
export const DEFAULT_MAX_FILE_BYTES = 200 * 1024 * 1024;

export interface BatchSystemOptions {
  dataDir: string;
  executor: ChatExecutor;
  clock?: Clock;
  limits?: Partial<BatchLimits>;
  /** Largest file content accepted by POST /v1/files (413 past it). */
  maxFileBytes?: number;
  chunkSize?: number;
  log?: (message: string) => void;
}

export class BatchSystem {
  readonly store: Store;
  readonly files: FileStore;
  /** The Files API (src/api/files.ts). */
  readonly fileService: FilesService;
  readonly batches: BatchStore;
  readonly runner: BatchRunner;
  readonly clock: Clock;
  readonly limits: BatchLimits;
  readonly maxFileBytes: number;
  private started = false;
  private closed: Promise<void> | null = null;

  constructor(o: BatchSystemOptions) {
    this.clock = o.clock ?? systemClock;
    this.limits = { ...DEFAULT_BATCH_LIMITS, ...o.limits };
    this.maxFileBytes = o.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.store = openStore(o.dataDir);
    this.files = new FileStore(this.store, {
      chunkSize: o.chunkSize ?? DEFAULT_CHUNK_SIZE,
      maxFileBytes: this.maxFileBytes,
      chunksPerCommit: 8,
      nowSeconds: () => Math.floor(this.clock.now() / 1000),
    });
    this.batches = new BatchStore(this.store);
    this.runner = new BatchRunner({ files: this.files, batches: this.batches, executor: o.executor, clock: this.clock, limits: this.limits, log: o.log });
    this.fileService = new FilesService(this.files, { maxFileBytes: this.maxFileBytes, fileInUse: (id) => this.runner.fileInUse(id) });
  }

  /** Resumes unfinished batches; call once, after whatever the executor needs is ready. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await this.runner.start();
    // The thread the first validation would otherwise start on the loop, started and loaded before
    // the server says it is ready (the upload's multipart pool is the HTTP layer's: server/ starts it).
    await prestartValidationWorker();
  }

  async createBatch(p: { input_file_id: string; metadata: Record<string, string> | null }): Promise<BatchObject> {
    const input = this.files.get(p.input_file_id);
    if (!input) throw apiError('input_file_missing', { id: p.input_file_id });
    if (input.purpose !== 'batch') throw apiError('input_file_wrong_purpose', { id: p.input_file_id, purpose: input.purpose });
    const createdAt = Math.floor(this.clock.now() / 1000);
    const batch = await this.batches.create({
      input_file_id: p.input_file_id,
      metadata: p.metadata,
      created_at: createdAt,
      expires_at: createdAt + COMPLETION_WINDOW_SECONDS,
    });
    this.runner.submit(batch.id);
    return batch;
  }

  /** Stops the runner (in-flight requests are aborted and rerun on the next start), then closes LMDB. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      await this.runner.close();
      await this.store.close();
      await closeValidationWorker();
    })();
    return this.closed;
  }
}
