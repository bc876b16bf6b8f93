// Batch input validation off the event loop: a worker thread reads the stored file's chunks from
// LMDB itself, one at a time (store/chunk-reader.ts), and splits and parses the lines
// (validate-worker.ts); this thread only checks each chunk is still there and tells the worker to
// read it, at most IN_FLIGHT chunks ahead, so memory stays bounded and neither a chunk's copy nor
// the JSON.parse of a line (up to maxLineBytes, 8 MiB by default) runs on the loop. Chunks given
// as an iterable (tests, benchmarks) are read here and posted.
// Without the compiled worker (running from src/ before a build), or with
// SVC_BATCH_VALIDATE_INLINE=1 (benchmarks compare both), it validates here in 1 ms slices.
import { chunkPosts, IN_FLIGHT, InputWorkerSession, readHere, storedFile, validatesOffThread, VALIDATE_WORKER_FILE, WorkerFailure, type InputChunks } from './input-worker.js';
import { validateInput, yieldToLoop, type ValidationLimits, type ValidationOutcome } from './validate.js';
import type { ToValidator } from './validate-worker.js';

async function validateHere(chunks: Iterable<Uint8Array>, limits: ValidationLimits, cancelled: () => boolean): Promise<ValidationOutcome | null> {
  const outcome = await validateInput(chunks, limits, yieldToLoop);
  return cancelled() ? null : outcome;
}

/** Validates the input file (read again here, for a fresh pass, when the worker fails); `cancelled`
 *  stops early (result: null). A stored file (FileStore.content()) is read by the worker; of chunks
 *  read here, one that owns its whole ArrayBuffer moves to the worker and is left detached. */
export interface OffLoopOptions {
  cancelled?: () => boolean;
  /** The worker failed (it could not start, or died): told before validating here. */
  onWorkerFailure?: (err: Error) => void;
  /** Worker entry (tests); default VALIDATE_WORKER_FILE. */
  workerFile?: string;
}

export async function validateInputOffLoop(input: InputChunks, limits: ValidationLimits, o: OffLoopOptions = {}): Promise<ValidationOutcome | null> {
  const cancelled = o.cancelled ?? (() => false);
  if (!validatesOffThread()) return validateHere(readHere(input), limits, cancelled);
  try {
    return await validateInWorker(o.workerFile ?? VALIDATE_WORKER_FILE, input, limits, cancelled);
  } catch (err) {
    if (!(err instanceof WorkerFailure)) throw err; // reading the file failed: no second try
    o.onWorkerFailure?.(err);
    return validateHere(readHere(input), limits, cancelled);
  }
}

async function validateInWorker(file: string, input: InputChunks, limits: ValidationLimits, cancelled: () => boolean): Promise<ValidationOutcome | null> {
  let inFlight = 0;
  let outcome: ValidationOutcome | null = null;
  const session = new InputWorkerSession(
    file,
    'batch validation worker',
    (m) => {
      if ('ack' in m) inFlight--;
      else if ('outcome' in m) outcome = m.outcome;
      else if (!('ready' in m)) session.fail('answered a validation with requests');
    },
    () => outcome !== null,
  );
  const start = { maxRequests: limits.maxRequests, maxLineBytes: limits.maxLineBytes, maxListedErrors: limits.maxListedErrors };
  session.worker.postMessage({ start, file: storedFile(input) } satisfies ToValidator);
  let clean = false;
  try {
    const posts = chunkPosts(session.worker, input);
    for (;;) {
      if (cancelled()) return null;
      await session.waitFor(() => inFlight < IN_FLIGHT);
      if (posts.next().done) break;
      inFlight++;
    }
    session.worker.postMessage({ end: true } satisfies ToValidator);
    await session.waitFor(() => outcome !== null);
    clean = inFlight === 0; // every chunk acknowledged and the outcome in
    return cancelled() ? null : outcome;
  } finally {
    session.end(clean);
  }
}
