// Batch input validation off the event loop: the file's chunks (read here from LMDB, one at a
// time) go to a worker thread that splits and parses the lines (validate-worker.ts); this thread
// only reads and posts, at most IN_FLIGHT chunks ahead of the worker, so memory stays bounded and
// no JSON.parse of a line (up to maxLineBytes, 8 MiB by default) runs on the loop.
// Without the compiled worker (running from src/ before a build), or with
// SVC_BATCH_VALIDATE_INLINE=1 (benchmarks compare both), it validates here in 1 ms slices.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { distFile } from '../paths.js';
import { validateInput, yieldToLoop, type ValidationLimits, type ValidationOutcome } from './validate.js';
import type { FromValidator, ToValidator } from './validate-worker.js';

export const VALIDATE_WORKER_FILE = distFile('src/batch/validate-worker.js');
/** Chunks (256 KiB each by default) posted and not yet acknowledged. */
export const IN_FLIGHT = 4;

export function validatesOffThread(): boolean {
  return process.env.SVC_BATCH_VALIDATE_INLINE !== '1' && existsSync(VALIDATE_WORKER_FILE);
}

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

/** Sends a chunk to the input worker. A chunk that owns its whole buffer (a private copy: LMDB's
 *  getBinary) moves there and is left detached; a view is copied first. */
export function postChunk(worker: Worker, chunk: Uint8Array): void {
  const bytes = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength ? chunk : new Uint8Array(chunk);
  worker.postMessage({ chunk: bytes } satisfies ToValidator, [bytes.buffer as ArrayBuffer]);
}

/** The worker could not start, died, or reported an error: the caller may redo the work here. */
export class WorkerFailure extends Error {}

/** The worker of the last validation, kept idle (unref'd) for the next one: starting a worker
 *  thread costs the loop 1-2 ms of its own (the first of a process up to 10 ms), a hold that every
 *  validation paid. Only workers of the default file are kept, one at most. */
let spare: { worker: Worker; drop: () => void } | null = null;

export function takeWorker(file: string): Worker {
  const kept = spare;
  if (kept && file === VALIDATE_WORKER_FILE) {
    spare = null;
    // Only listeners added here come off: Worker keeps internal ones of its own.
    kept.worker.off('error', kept.drop).off('exit', kept.drop);
    kept.worker.ref();
    return kept.worker;
  }
  return new Worker(file);
}

export function keepWorker(w: Worker, file: string): void {
  if (spare || file !== VALIDATE_WORKER_FILE) {
    void w.terminate();
    return;
  }
  // An idle worker that fails or exits is dropped (and an 'error' with no listener would throw).
  const drop = (): void => {
    if (spare?.worker === w) spare = null;
  };
  w.on('error', drop).on('exit', drop);
  w.unref();
  spare = { worker: w, drop };
}

/** Starts the worker the first validation will take, and resolves once it has loaded (server
 *  start: its start costs the loop 1-6 ms, and the thread's own start competes for the cores,
 *  before the server is ready rather than inside the first validation). Never rejects: a worker
 *  that fails to start is dropped, and validation starts one as before. */
export async function prestartValidationWorker(): Promise<void> {
  if (spare || !validatesOffThread()) return;
  const w = new Worker(VALIDATE_WORKER_FILE);
  let settle: (ok: boolean) => void = () => undefined;
  const ok = (): void => settle(true);
  const failed = (): void => settle(false);
  const ready = await new Promise<boolean>((resolve) => {
    settle = resolve;
    w.on('message', ok).on('error', failed).on('exit', failed);
  });
  w.off('message', ok).off('error', failed).off('exit', failed);
  if (ready && !spare) keepWorker(w, VALIDATE_WORKER_FILE);
  else void w.terminate();
}

/** The idle worker's thread id, or null (tests). */
export function spareValidationWorkerId(): number | null {
  return spare?.worker.threadId ?? null;
}

/** Ends the idle worker (shutdown); the next validation starts a new one. */
export async function closeValidationWorker(): Promise<void> {
  const kept = spare;
  spare = null;
  await kept?.worker.terminate();
}

async function validateInWorker(file: string, chunks: Iterable<Uint8Array>, limits: ValidationLimits, cancelled: () => boolean): Promise<ValidationOutcome | null> {
  const worker = takeWorker(file);
  worker.postMessage({ start: { maxRequests: limits.maxRequests, maxLineBytes: limits.maxLineBytes, maxListedErrors: limits.maxListedErrors } } satisfies ToValidator);
  let inFlight = 0;
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  let outcome: ValidationOutcome | null = null;
  let exited = false;
  const signal = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const onMessage = (m: FromValidator): void => {
    if ('ready' in m) return;
    if ('ack' in m) inFlight--;
    else if ('outcome' in m) outcome = m.outcome;
    else failure = new WorkerFailure(`batch validation worker: ${'error' in m ? m.error : 'answered a validation with requests'}`);
    signal();
  };
  const onError = (e: Error): void => {
    failure = new WorkerFailure(`batch validation worker: ${e.message}`);
    signal();
  };
  const onExit = (code: number): void => {
    exited = true;
    failure ??= outcome ? null : new WorkerFailure(`batch validation worker exited (${code})`);
    signal();
  };
  worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  const waitFor = async (done: () => boolean): Promise<void> => {
    while (!done() && !failure) await new Promise<void>((r) => (wake = r));
    if (failure) throw failure;
  };
  let reusable = false;
  try {
    for (const chunk of chunks) {
      if (cancelled()) return null;
      await waitFor(() => inFlight < IN_FLIGHT);
      inFlight++;
      postChunk(worker, chunk);
    }
    worker.postMessage({ end: true } satisfies ToValidator);
    await waitFor(() => outcome !== null);
    // Done cleanly: every chunk acknowledged, the outcome in, the thread alive.
    reusable = failure === null && !exited && inFlight === 0;
    return cancelled() ? null : outcome;
  } finally {
    if (reusable) {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      keepWorker(worker, file);
    } else void worker.terminate();
  }
}
