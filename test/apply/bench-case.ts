// Reading a case of bench/apply (original, update, expected, meta.json) in the guard tests.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mergedEverywhere } from './judged.js';

export const BENCH = join(import.meta.dirname, '../../bench/apply');

export interface BenchCase {
  code: string;
  update: string;
  expected: string;
  instruction: string | null;
}

/** The folder of the case in `set` whose name starts with `prefix` (case names are long). */
export function caseDir(set: string, prefix: string): string {
  const name = readdirSync(join(BENCH, set)).find((n) => n.startsWith(prefix));
  if (!name) throw new Error(`no case ${prefix} in ${set}`);
  return join(BENCH, set, name);
}

/** The case at `dir`: a path under bench/apply (`probes-x/name`) or an absolute one. */
export function readCase(dir: string): BenchCase {
  const read = (f: string) => readFileSync(join(resolve(BENCH, dir), f), 'utf8');
  return { code: read('original'), update: read('update'), expected: read('expected'), instruction: JSON.parse(read('meta.json')).instruction ?? null };
}

/** The case at `dir` merges to its expected output in every mode (judged.ts `mergedEverywhere`). */
export function mergedCase(dir: string): void {
  const c = readCase(dir);
  mergedEverywhere(c.code, c.update, c.expected, c.instruction);
}
