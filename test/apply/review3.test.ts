// Branch review3: merge-finish.ts split by job, one line-count helper (docs/apply.md). Behaviour is
// unchanged (the development sets give the same results case by case); these pin the new modules'
// contracts and that the merge still runs through them end to end.
import { describe, expect, it } from 'vitest';
import { lineCounts, opensBlock, splitLines } from '../../src/apply/lines.js';
import { assemble } from '../../src/apply/assemble.js';
import { finishPlacement } from '../../src/apply/merge-finish.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';

describe('review3: shared helpers and split modules', () => {
  it('lineCounts: every row by default (blank rows under ""), solid rows only on request, read through a key', () => {
    const l = splitLines('\uFEFFa\nb\n\n  b  \n\n');
    const all = lineCounts(l);
    expect(all.get('b')).toBe(2);
    expect(all.get('')).toBe(2);
    expect(lineCounts(l, { solidOnly: true }).has('')).toBe(false);
    expect(lineCounts(l, { solidOnly: true }).get('b')).toBe(2);
    const bomless = lineCounts(l, { key: (n) => (n.charCodeAt(0) === 0xfeff ? n.slice(1) : n) });
    expect(bomless.get('a')).toBe(1);
  });

  it('opensBlock reads a block opener by its text (lines.ts)', () => {
    expect(opensBlock('def load(self):')).toBe(true);
    expect(opensBlock('items.each do |x|')).toBe(true);
    expect(opensBlock('return 1;')).toBe(false);
  });

  it('placement (merge-finish.ts) and assembly (assemble.ts) are separate steps', () => {
    expect(typeof finishPlacement).toBe('function');
    expect(typeof assemble).toBe('function');
  });

  it('a merge through the split modules: edge growth, a closer, nothing lost', () => {
    const original = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n';
    const update = '// ... existing code ...\nfunction b() {\n  log("b");\n  return 2;\n}\n';
    const expected = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  log("b");\n  return 2;\n}\n';
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code: original, update, instruction: null }, mode);
      expect(r.content).toBe(expected);
      expect(checkLoss(original, update, null, r.content).lost).toEqual([]);
    }
  });
});
