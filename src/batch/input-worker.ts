// The batch input worker thread (validate-worker.ts): the one kept idle between uses, and a session
// with it — a validation (validate-offload.ts) or a read-back (request-reader.ts). A session takes
// the kept worker (or starts one), hands its messages to the caller, turns an error, an error message
// or an early exit into a WorkerFailure, and at the end gives a worker that finished cleanly back for
// the next session (else terminates it). The callers keep only their own protocol: what they post,
// and what a message means.
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { distFile } from '../paths.js';
import type { FileChunks, StoredChunks } from '../store/chunk-reader.js';
import type { FromValidator, ToValidator } from './validate-worker.js';

export const VALIDATE_WORKER_FILE = distFile('src/batch/validate-worker.js');
/** Chunks (256 KiB each by default) posted and not yet acknowledged. */
export const IN_FLIGHT = 4;

export function validatesOffThread(): boolean {
  return process.env.SVC_BATCH_VALIDATE_INLINE !== '1' && existsSync(VALIDATE_WORKER_FILE);
}

/** Sends a chunk to the input worker. A chunk that owns its whole buffer (a private copy: LMDB's
 *  getBinary) moves there and is left detached; a view is copied first. */
export function postChunk(worker: Worker, chunk: Uint8Array): void {
  const bytes = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength ? chunk : new Uint8Array(chunk);
  worker.postMessage({ chunk: bytes } satisfies ToValidator, [bytes.buffer as ArrayBuffer]);
}

/** An input file: chunks to read on the loop (tests, benchmarks), or a stored file the worker
 *  reads itself (FileStore.content()). */
export type InputChunks = (() => Iterable<Uint8Array>) | FileChunks;

/** The file's chunks read on this thread (the fallbacks). */
export function readHere(input: InputChunks): Iterable<Uint8Array> {
  return typeof input === 'function' ? input() : input.read();
}

/** What the session's first message names as its file: the worker then reads the chunks. */
export function storedFile(input: InputChunks): StoredChunks | undefined {
  return typeof input === 'function' ? undefined : input.ref;
}

/** One step per chunk, each telling the worker of the next: a stored file's chunk is checked here
 *  (a deleted file or a closed store throws as reading it would) and the worker reads it (`pull`);
 *  otherwise the chunk is read here and posted. */
export function* chunkPosts(worker: Worker, input: InputChunks): Generator<void> {
  if (typeof input === 'function') {
    for (const chunk of input()) yield postChunk(worker, chunk);
    return;
  }
  for (let i = 0; i < input.ref.chunkCount; i++) {
    input.check(i);
    worker.postMessage({ pull: true } satisfies ToValidator);
    yield;
  }
}

/** The worker could not start, died, or reported an error: the caller may redo the work here. */
export class WorkerFailure extends Error {}

/** The worker of the last validation, kept idle (unref'd) for the next one: starting a worker
 *  thread costs the loop 1-2 ms of its own (the first of a process up to 10 ms), a hold that every
 *  validation paid. Only workers of the default file are kept, one at most. */
let spare: { worker: Worker; drop: () => void } | null = null;

function takeWorker(file: string): Worker {
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

function keepWorker(w: Worker, file: string): void {
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


export class InputWorkerSession {
  readonly worker: Worker;
  private failed: Error | null = null;
  private exited = false;
  private wake: (() => void) | null = null;
  private readonly onMessage = (m: FromValidator): void => {
    if ('error' in m) this.failed = new WorkerFailure(`${this.label}: ${m.error}`);
    else if ('fileError' in m) this.failed = new Error(m.fileError); // the file, not the worker: no second try
    else this.handle(m);
    this.signal();
  };
  private readonly onError = (e: Error): void => {
    this.failed = new WorkerFailure(`${this.label}: ${e.message}`);
    this.signal();
  };
  private readonly onExit = (code: number): void => {
    this.exited = true;
    this.failed ??= this.finished() ? null : new WorkerFailure(`${this.label} exited (${code})`);
    this.signal();
  };

  /** `handle` gets every message but `{ error }`; `finished` says whether an exit now would be
   *  after the session's answer (not a failure). */
  constructor(
    private readonly file: string,
    private readonly label: string,
    private readonly handle: (m: Exclude<FromValidator, { error: string } | { fileError: string }>) => void,
    private readonly finished: () => boolean,
  ) {
    this.worker = takeWorker(file);
    this.worker.on('message', this.onMessage).on('error', this.onError).on('exit', this.onExit);
  }

  /** The worker failed (an error, an error message, or an exit before the session's answer). */
  get failure(): Error | null {
    return this.failed;
  }

  /** Marks the session failed from the caller's side (an answer the protocol does not allow). */
  fail(message: string): void {
    this.failed = new WorkerFailure(`${this.label}: ${message}`);
  }

  /** Resolves at the worker's next message, error or exit. */
  next(): Promise<void> {
    return new Promise<void>((resolve) => (this.wake = resolve));
  }

  /** Waits until `done()` holds; throws the failure as soon as there is one. */
  async waitFor(done: () => boolean): Promise<void> {
    while (!done() && !this.failed) await this.next();
    if (this.failed) throw this.failed;
  }

  /** Ends the session: with `clean` (every chunk answered) and a healthy, live worker it is kept for
   *  the next session; otherwise (left early, failed) it may still hold chunks and is ended. */
  end(clean: boolean): void {
    if (clean && this.failed === null && !this.exited) {
      this.worker.off('message', this.onMessage).off('error', this.onError).off('exit', this.onExit);
      keepWorker(this.worker, this.file);
    } else if (!this.exited) {
      // The worker may hold the store open (a stored file's session): it closes it before it is
      // ended (a thread ended with an LMDB env open leaves the env open in the process).
      const w = this.worker;
      w.off('message', this.onMessage);
      const stop = (): void => void w.terminate();
      w.on('message', (m: FromValidator) => {
        if ('closed' in m) stop();
      });
      setTimeout(stop, 1000).unref();
      w.postMessage({ close: true } satisfies ToValidator);
    }
  }

  private signal(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}
