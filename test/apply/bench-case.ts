// Reading a case of bench/apply (original, update, expected, meta.json) in the guard tests.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

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

export function readCase(dir: string): BenchCase {
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  return { code: read('original'), update: read('update'), expected: read('expected'), instruction: JSON.parse(read('meta.json')).instruction ?? null };
}
