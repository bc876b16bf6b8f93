// Batch input validation off the event loop: the file's chunks (read here from LMDB, one at a
// time) go to a worker thread that splits and parses the lines (validate-worker.ts); this thread
// only reads and posts, at most IN_FLIGHT chunks ahead of the worker, so memory stays bounded and
// no JSON.parse of a line (up to maxLineBytes, 8 MiB by default) runs on the loop.
// Without the compiled worker (running from src/ before a build), or with
// SVC_BATCH_VALIDATE_INLINE=1 (benchmarks compare both), it validates here in 1 ms slices.
import { IN_FLIGHT, InputWorkerSession, postChunk, validatesOffThread, VALIDATE_WORKER_FILE, WorkerFailure } from './input-worker.js';
import { validateInput, yieldToLoop, type ValidationLimits, type ValidationOutcome } from './validate.js';
import type { ToValidator } from './validate-worker.js';

async function validateHere(chunks: Iterable<Uint8Array>, limits: ValidationLimits, cancelled: () => boolean): Promise<ValidationOutcome | null> {
  const outcome = await validateInput(chunks, limits, yieldToLoop);
  return cancelled() ? null : outcome;
}

/** Validates the file whose chunks `readChunks()` yields (called again, for a fresh pass, when the
 *  worker fails: it then validates here); `cancelled` stops early (result: null). A chunk that
 *  owns its whole ArrayBuffer (FileStore.chunks() yields private copies) moves to the worker and
 *  is left detached. */
export interface OffLoopOptions {
  cancelled?: () => boolean;
  /** The worker failed (it could not start, or died): told before validating here. */
  onWorkerFailure?: (err: Error) => void;
  /** Worker entry (tests); default VALIDATE_WORKER_FILE. */
  workerFile?: string;
}

export async function validateInputOffLoop(readChunks: () => Iterable<Uint8Array>, limits: ValidationLimits, o: OffLoopOptions = {}): Promise<ValidationOutcome | null> {
  const cancelled = o.cancelled ?? (() => false);
  if (!validatesOffThread()) return validateHere(readChunks(), limits, cancelled);
  try {
    return await validateInWorker(o.workerFile ?? VALIDATE_WORKER_FILE, readChunks(), limits, cancelled);
  } catch (err) {
    if (!(err instanceof WorkerFailure)) throw err; // reading the file failed: no second try
    o.onWorkerFailure?.(err);
    return validateHere(readChunks(), limits, cancelled);
  }
}

async function validateInWorker(file: string, chunks: Iterable<Uint8Array>, limits: ValidationLimits, cancelled: () => boolean): Promise<ValidationOutcome | null> {
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
  session.worker.postMessage({ start: { maxRequests: limits.maxRequests, maxLineBytes: limits.maxLineBytes, maxListedErrors: limits.maxListedErrors } } satisfies ToValidator);
  let clean = false;
  try {
    for (const chunk of chunks) {
      if (cancelled()) return null;
      await session.waitFor(() => inFlight < IN_FLIGHT);
      inFlight++;
      postChunk(session.worker, chunk);
    }
    session.worker.postMessage({ end: true } satisfies ToValidator);
    await session.waitFor(() => outcome !== null);
    clean = inFlight === 0; // every chunk acknowledged and the outcome in
    return cancelled() ? null : outcome;
  } finally {
    session.end(clean);
  }
}
