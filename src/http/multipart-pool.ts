// Where a spooled multipart body is scanned: in a piscina worker (multipart-worker.ts), like the
// engine's text pool and the apply pool, so that the loop does no per-byte work for an upload.
// As with batch validation (src/batch/validate-offload.ts): without the compiled worker (running
// from src/ before a build), or with SVC_UPLOAD_PARSE_INLINE=1 (benchmarks compare both), the
// body is scanned on the loop in 128 KiB slices; a worker that fails (it could not start, or
// died) is reported and the body is scanned on the loop instead.
import { existsSync } from 'node:fs';
import type { Piscina } from 'piscina';
import { distFile } from '../paths.js';
import { taskPool } from '../pool-entry.js';
import { asFormError, FormError, scanFormFile, type FormLimits, type ScannedForm } from './form-scanner.js';
import type { FormTask, FormTaskResult } from './multipart-worker.js';

export const MULTIPART_WORKER_FILE = distFile('src/http/multipart-worker.js');

let pool: Piscina<FormTask, FormTaskResult> | null = null;

export function parsesOffThread(): boolean {
  return process.env.SVC_UPLOAD_PARSE_INLINE !== '1' && existsSync(MULTIPART_WORKER_FILE);
}

function formPool(): Piscina<FormTask, FormTaskResult> {
  // Threads start on the first upload; one stays (idle, it costs memory only), since starting a
  // worker thread holds the loop for 1-2 ms (the first of a process up to 10 ms) and an upload
  // after 30 s without one paid that each time. A second, for concurrent uploads, goes after 30 s.
  if (pool) return pool;
  pool = taskPool<FormTask, FormTaskResult>(MULTIPART_WORKER_FILE, 'multipart worker', { minThreads: 1, maxThreads: 2, maxQueue: 256, idleTimeout: 30_000 });
  return pool;
}

/** Starts the pool and its first thread now, and resolves once the thread has run a task (server
 *  start: the first upload then finds it up). Never rejects: a pool that fails here is started
 *  again by the first upload, which falls back to the loop as before if it fails again. */
export async function prestartMultipartPool(): Promise<void> {
  if (!parsesOffThread()) return;
  await formPool()
    .run(null as unknown as FormTask, { name: 'ready' })
    .catch(() => undefined);
}

async function scanHere(path: string, boundary: string, limits: FormLimits): Promise<ScannedForm> {
  try {
    return await scanFormFile(path, boundary, limits);
  } catch (err) {
    throw asFormError(err);
  }
}

export interface ScanOptions {
  /** The worker failed: told before the body is scanned here. */
  onWorkerFailure?: (err: Error) => void;
}

/** The form in the spooled body at `path`; a FormError for a body the client must fix. */
export async function scanSpooledForm(path: string, boundary: string, limits: FormLimits, o: ScanOptions = {}): Promise<ScannedForm> {
  if (!parsesOffThread()) return scanHere(path, boundary, limits);
  let r: FormTaskResult;
  try {
    r = await formPool().run({ path, boundary, limits });
  } catch (err) {
    o.onWorkerFailure?.(err instanceof Error ? err : new Error(String(err)));
    return scanHere(path, boundary, limits);
  }
  if (!r.ok) throw new FormError(r.message, r.param);
  return r.form;
}

/** Stops the pool's threads (server shutdown, end of tests). */
export async function closeMultipartPool(): Promise<void> {
  const p = pool;
  pool = null;
  if (p) await p.destroy();
}
