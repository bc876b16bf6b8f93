// The no-loss oracle's verdict on a pair of outputs, for the licence tests.
import { expect } from 'vitest';
import { checkLoss, restoreLost } from '../../src/apply/loss.js';
import { mergeApply, type MergeMode } from '../../src/apply/merge.js';

export const lines = (a: string[]): string => a.join('\n') + '\n';

/** The lossy output fails the oracle, the correct one passes, and restoring the lossy one is not lossy. */
export function judged(code: string, update: string, lossy: string, good: string, instruction: string | null = null): number[] {
  expect(checkLoss(code, update, instruction, good).lost).toEqual([]);
  const { content } = restoreLost(code, update, instruction, lossy);
  expect(checkLoss(code, update, instruction, content).lost).toEqual([]);
  return checkLoss(code, update, instruction, lossy).lost;
}

export const ALL_MODES: readonly MergeMode[] = ['fast', 'large', 'auto'];
/** The two merges (auto picks between them): what most guards check. */
export const BOTH_MODES: readonly MergeMode[] = ['fast', 'large'];

/** Every mode (of `modes`) merges the update into exactly the expected file, and the oracle finds nothing lost. */
export function mergedEverywhere(code: string, update: string, expected: string, instruction: string | null = null, modes: readonly MergeMode[] = ALL_MODES): void {
  for (const mode of modes) {
    const out = mergeApply({ code, update, instruction }, mode).content;
    expect(checkLoss(code, update, instruction, out).lost, mode).toEqual([]);
    expect(out, mode).toBe(expected);
  }
}
