// Reading a case of bench/apply (original, update, expected, meta.json) in the guard tests.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply, type MergeMode } from '../../src/apply/merge.js';
import { ALL_MODES, mergedEverywhere } from './judged.js';

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

/** The case at `dir` merges to its expected output in every mode of `modes` (judged.ts `mergedEverywhere`). */
export function mergedCase(dir: string, modes: readonly MergeMode[] = ALL_MODES): void {
  const c = readCase(dir);
  mergedEverywhere(c.code, c.update, c.expected, c.instruction, modes);
}

/** The case at `dir` loses nothing in every mode: checkLoss finds no loss, and every line of the
 *  expected output that comes from the original alone (not also from the update) is in the merged
 *  output as often; the update's own lines may be placed inexactly. */
export function keepsEveryLine(dir: string): void {
  const c = readCase(dir);
  const outLines = (t: string): string[] => t.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const original = new Set(outLines(c.code));
  const updated = new Set(outLines(c.update));
  for (const mode of ['fast', 'large'] as const) {
    const out = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode).content;
    expect(checkLoss(c.code, c.update, c.instruction, out).lost, mode).toEqual([]);
    const have = new Map<string, number>();
    for (const l of outLines(out)) have.set(l, (have.get(l) ?? 0) + 1);
    const missing = outLines(c.expected).filter((l) => {
      const n = have.get(l) ?? 0;
      have.set(l, n - 1);
      return n <= 0 && original.has(l) && !updated.has(l);
    });
    expect(missing, mode).toEqual([]);
  }
}
