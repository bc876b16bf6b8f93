// The apply worker pool (piscina). The worker is compiled JS under dist/ (distFile): the server
// and the tests run the same file, so `node scripts/build.mjs` must have run first.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { distFile } from '../paths.js';
import { taskPool } from '../pool-entry.js';
import type { ApplyTask, ApplyTaskResult } from './run.js';

export const APPLY_WORKER_FILE = distFile('src/apply/worker.js');

/** Threads: one per core beyond the event loop's, at least 1, at most 4. Override with SVC_APPLY_THREADS. */
function threadCount(): number {
  const env = Number(process.env.SVC_APPLY_THREADS);
  if (Number.isInteger(env) && env >= 1 && env <= 64) return env;
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/** Requests queued beyond the running ones before new ones are refused with 503. */
const MAX_QUEUE = 1024;

let pool: Piscina<ApplyTask, ApplyTaskResult> | null = null;

export function applyPool(): Piscina<ApplyTask, ApplyTaskResult> {
  if (pool) return pool;
  if (!existsSync(APPLY_WORKER_FILE)) {
    throw new Error(`apply worker not built: ${APPLY_WORKER_FILE} is missing (run node scripts/build.mjs)`);
  }
  const threads = threadCount();
  pool = taskPool<ApplyTask, ApplyTaskResult>(APPLY_WORKER_FILE, 'apply worker', {
    // Every thread starts at once: each builds the tokenizer (seconds) before its first task, so
    // threads spawned lazily under a burst would stall requests.
    minThreads: threads,
    maxThreads: threads,
    maxQueue: MAX_QUEUE,
    idleTimeout: 60_000,
  });
  return pool;
}

/** Starts the pool's threads and waits until each has answered a warm-up task: call at server start
 *  so the first apply requests do not pay for thread start, tokenizer construction and grammar
 *  loading (one task per thread at once: piscina gives each idle thread one). */
export async function warmApplyPool(): Promise<void> {
  const p = applyPool();
  const task = { content: '<code>a\n</code>\n<update>a\n</update>', mode: 'fast' as const, maxTokens: null, warm: true };
  await Promise.all(Array.from({ length: p.options.maxThreads }, () => p.run(task)));
}

export function runInPool(task: ApplyTask, signal?: AbortSignal): Promise<ApplyTaskResult> {
  return applyPool().run(task, signal ? { signal } : {});
}

/** Stops the pool's threads (server shutdown, end of tests). */
export async function closeApplyPool(): Promise<void> {
  const p = pool;
  pool = null;
  if (p) await p.destroy();
}
