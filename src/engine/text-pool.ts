// The engine's piscina pool for long template renders and tokenizations (see text-worker.ts).
// Short inputs stay on the calling thread: a worker round trip costs more than the work.
// Without the compiled worker (running from src/ before a build) everything runs inline.
import { existsSync } from 'node:fs';
import type { Piscina } from 'piscina';
import { EngineError } from './engine-errors.js';
import { distFile } from '../paths.js';
import { taskPool } from '../pool-entry.js';
import type { TextResult, TextTask } from './text-worker.js';

export const TEXT_WORKER_FILE = distFile('src/engine/text-worker.js');
/** Inputs at least this long (UTF-16 units) go to the pool. Measured (bench/http/request-stages.ts,
 *  docs/serving-under-load.md): text the tokenizer's word cache has not seen costs the loop about
 *  0.7 µs a character inline (1.4 ms at 2,000), a pool call 0.15-0.35 ms of loop CPU at any size;
 *  at 2,048 no inline tokenization holds the loop much past the 2 ms the server aims for. */
export const OFFLOAD_MIN_CHARS = 2048;

let pool: Piscina<TextTask, TextResult> | null = null;
let disabled = false;

function textPool(): Piscina<TextTask, TextResult> | null {
  if (pool || disabled) return pool;
  if (process.env.SVC_ENGINE_TEXT_INLINE === '1' || !existsSync(TEXT_WORKER_FILE)) {
    disabled = true;
    return null;
  }
  pool = taskPool<TextTask, TextResult>(TEXT_WORKER_FILE, 'engine text worker', {
    minThreads: 0,
    maxThreads: 2,
    maxQueue: 4096,
    idleTimeout: 30_000,
  });
  return pool;
}

/** Runs task in the pool; null when there is no pool (the caller runs it inline). */
export async function runTextTask(task: TextTask): Promise<Extract<TextResult, { ok: true }> | null> {
  const p = textPool();
  if (!p) return null;
  const r = await p.run(task);
  if (!r.ok) throw r.fault ? new EngineError(r.fault, r.message) : new Error(`engine text worker: ${r.message}`);
  return r;
}

export async function closeTextPool(): Promise<void> {
  const p = pool;
  pool = null;
  if (p) await p.destroy();
}
