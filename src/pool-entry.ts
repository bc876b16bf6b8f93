// Every piscina pool is built here. Its threads run the pool's ES task module through one CommonJS
// entry (piscina-entry.cts says why), and a worker that fails outside a task is logged.
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { distFile } from './paths.js';

export const POOL_ENTRY_FILE = distFile('src/piscina-entry.cjs');

type PoolOptions = Omit<NonNullable<ConstructorParameters<typeof Piscina>[0]>, 'filename' | 'workerData'>;

/** A pool whose threads run `file`'s default export (and `name: 'ready'`); `label` names its workers in the log. */
export function taskPool<T, R>(file: string, label: string, options: PoolOptions): Piscina<T, R> {
  const pool = new Piscina<T, R>({ ...options, filename: POOL_ENTRY_FILE, workerData: { module: pathToFileURL(file).href } });
  // A worker that dies outside a task (e.g. while loading) emits 'error' on the pool; unheard, that
  // would end the process. Piscina replaces the worker; tasks in it reject on their own.
  pool.on('error', (err: unknown) => console.error(JSON.stringify({ ts: new Date().toISOString(), level: 'error', msg: `${label} failed`, error: String((err as Error)?.stack ?? err) })));
  return pool;
}
