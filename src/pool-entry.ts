// Piscina pools run their ES task module through one CommonJS entry (piscina-entry.cts says why).
import { pathToFileURL } from 'node:url';
import { distFile } from './paths.js';

export const POOL_ENTRY_FILE = distFile('src/piscina-entry.cjs');

/** Piscina options that run `file`'s default export (and `name: 'ready'`) in the pool's threads. */
export function poolTaskModule(file: string): { filename: string; workerData: { module: string } } {
  return { filename: POOL_ENTRY_FILE, workerData: { module: pathToFileURL(file).href } };
}
