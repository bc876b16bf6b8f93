// Branch review4: loss.ts split by job, one reader of hunk numbers, one map of the lines the original
// has once (docs/apply.md). Behaviour is unchanged (the development sets give the same results case by
// case); these pin the new modules' contracts and that the check and the merge still run through them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitLines } from '../../src/apply/lines.js';
import { hunkHeadingNumber, withoutHunkNumber } from '../../src/apply/hunk-separator.js';
import { readsAsWholeFile, updateView } from '../../src/apply/update-view.js';
import { shownAdjacent } from '../../src/apply/adjacent-anchors.js';
import { instructedLines } from '../../src/apply/instructed-lines.js';
import { checkLoss, readsAsWholeFile as readsAsWholeFileFromLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

beforeAll(async () => { await ensureAllGrammars(); }, 120_000);

const MARKER = '// ... existing code ...';
const ORIGINAL = 'function a() {\n  one();\n  two();\n  three();\n}\n\nfunction legacyTotal() {\n  return 2;\n}\n';

describe('review4: hunk numbers read once (hunk-separator.ts)', () => {
  it('a heading number is `1)` or `(1)`; `3.` is only dropped from a prose locator', () => {
    expect(hunkHeadingNumber('1) in getOrLoad, after the bypass check:')).toBe(1);
    expect(hunkHeadingNumber('(2) new option on GetOrLoadOptions')).toBe(2);
    expect(hunkHeadingNumber('3. new helper, goes after load')).toBeNull();
    expect(hunkHeadingNumber('123) too long')).toBeNull();
    expect(withoutHunkNumber('3. new helper, goes after load')).toBe('new helper, goes after load');
    expect(withoutHunkNumber('(4) add above put():')).toBe('add above put():');
    expect(withoutHunkNumber('in put():')).toBe('in put():');
  });
});

describe('review4: the loss check split by job', () => {
  it('the update view (update-view.ts): the lines the original has once, by key, with their rows', () => {
    const orig = splitLines(ORIGINAL);
    const view = updateView(orig, ORIGINAL, `${MARKER}\nfunction a() {\n  one();\n  three();\n}\n${MARKER}\n`, null);
    expect(view.uniqueRow.get('two();')).toBe(2);
    expect(view.uniqueRow.has('}')).toBe(false);
    expect(view.hasMarkers).toBe(true);
  });

  it('readsAsWholeFile lives in update-view.ts and loss.ts still gives it to merge.ts', () => {
    const orig = splitLines(ORIGINAL);
    expect(readsAsWholeFileFromLoss).toBe(readsAsWholeFile);
    expect(readsAsWholeFile(orig, splitLines('function legacyTotal() {\n  return 3;\n}\n'))).toBe(false);
  });

  it('rule (b) (adjacent-anchors.ts): two lines shown adjacent, and not across a marker', () => {
    const orig = splitLines(ORIGINAL);
    const adjacent = updateView(orig, ORIGINAL, `${MARKER}\nfunction a() {\n  one();\n  three();\n}\n${MARKER}\n`, null);
    expect(shownAdjacent(adjacent, orig, 1, 3, [2])).toBe(true);
    const apart = updateView(orig, ORIGINAL, `${MARKER}\n  one();\n  ${MARKER}\n  three();\n}\n${MARKER}\n`, null);
    expect(shownAdjacent(apart, orig, 1, 3, [2])).toBe(false);
  });

  it('rule (c) (instructed-lines.ts): the rows of the function the instruction removes', () => {
    const orig = splitLines(ORIGINAL);
    const instruction = 'Remove the legacyTotal function.';
    const update = `${MARKER}\nfunction a() {\n  one();\n}\n`;
    const rows = [...instructedLines(orig, instruction, updateView(orig, ORIGINAL, update, instruction))].sort((x, y) => x - y);
    expect(rows).toEqual([6, 7, 8]);
  });

  it('checkLoss through the split modules: a deletion between adjacent anchors is licensed, one across a marker is not', () => {
    const output = 'function a() {\n  one();\n  three();\n}\n\nfunction legacyTotal() {\n  return 2;\n}\n';
    const shown = checkLoss(ORIGINAL, `${MARKER}\nfunction a() {\n  one();\n  three();\n}\n${MARKER}\n`, null, output);
    expect(shown.lost).toEqual([]);
    expect(shown.licensed['between-anchors']).toBe(1);
    const across = checkLoss(ORIGINAL, `${MARKER}\n  one();\n  ${MARKER}\n  three();\n}\n${MARKER}\n`, null, output);
    expect(across.lost).toEqual([2]);
  });
});

describe('review4: merges through the moved code, both modes', () => {
  const BENCH = join(import.meta.dirname, '../../bench/apply');
  const read = (id: string, f: string): string => readFileSync(join(BENCH, 'probes-misscm', id, f), 'utf8');

  it('hunks under numbered headings (location-comments.ts reads the number through hunk-separator.ts)', () => {
    const id = 'java01-numbered-hunk-headings-out-of-order';
    const code = read(id, 'original');
    const update = read(id, 'update');
    const instruction = (JSON.parse(read(id, 'meta.json')) as { instruction: string | null }).instruction;
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code, update, instruction }, mode);
      expect(r.content).toBe(read(id, 'expected'));
    }
  });

  it('a line deleted between anchors shown adjacent, the rest kept', () => {
    const update = `${MARKER}\nfunction a() {\n  one();\n  three();\n}\n${MARKER}\n`;
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code: ORIGINAL, update, instruction: null }, mode);
      expect(r.content).toBe('function a() {\n  one();\n  three();\n}\n\nfunction legacyTotal() {\n  return 2;\n}\n');
      expect(checkLoss(ORIGINAL, update, null, r.content).lost).toEqual([]);
    }
  });
});
