// Silent losses of the held-out round bj-bn (docs/apply.md, branch `lossx2`).
// 1. A removal instruction's aside that says what replaces the target ("drop the todoPriorityChanged
//    reducer (priority is set by saveTodo now)") names no target (removals.ts removalPhrase).
//    Revealed by bj ts04; guards in TypeScript and Python, a control whose aside lists the targets.
// 2. A fragment that stops without its closers (a new match arm, then the next hunk's `impl` at
//    column 0): the gap between them is the rest of the arm's blocks, not a run the update deletes;
//    rule (b) needs the gap's braces balanced as the update's lines between the anchors are, and the
//    new arm is no edit of a line beyond the blocks the gap closes (loss.ts). Revealed by bk rust38.
import { beforeAll, describe, expect, it } from 'vitest';
import { judged } from './judged.js';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const merged = (name: string): void => mergedCase(`probes-lossx2/${name}`);

const nonBlank = (t: string): string => t.split('\n').filter((l) => l.trim() !== '').join('\n');

describe('silent losses of the round bj-bn (lossx2)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('does not remove a definition named in an aside that says what replaces the target', () => {
    merged('ts21-remove-helper-aside-names-replacement');
    merged('py21-delete-function-because-other-covers');
  });

  it('still removes the names an aside lists as the targets (control)', () => {
    merged('go21-control-remove-helpers-listed-in-aside');
  });

  it('still deletes a balanced block the update shows its neighbours around (control)', () => {
    merged('ts22-control-balanced-block-deleted-by-adjacency');
  });

  it('reads the rest of blocks a closer-less fragment leaves open as lost, not deleted by adjacency', () => {
    const p = readCase(caseDir('external-2026-11-28bk', 'rust38-'));
    // Main's output: the new arm, then the next hunk's `impl` — `Error::NotFound(_) … => None,`, the
    // three closers and four `impl From` blocks gone.
    const lossy = p.expected.replace(/( {12}Error::Toml\(e\) => Some\(e\),\n)[^]*?\n(impl From<reqwest::Error>)/, '$1\n$2');
    expect(lossy).not.toBe(p.expected);
    expect(judged(p.code, p.update, lossy, p.expected, p.instruction).length).toBeGreaterThan(0);
  });

  it('merges the closer-less fragments keeping every original line in place', () => {
    const p = readCase(caseDir('external-2026-11-28bk', 'rust38-'));
    for (const mode of ['fast', 'large'] as const) {
      const out = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode).content;
      expect(checkLoss(p.code, p.update, p.instruction, out).lost, mode).toEqual([]);
      expect(nonBlank(out), mode).toBe(nonBlank(p.expected));
    }
  });
});
