// Silent losses left on the development sets (docs/apply.md, branch `lossx3`).
// 1. A comment run dropped by adjacency from a stretch that also holds the hunk's own edit (a head
//    renamed below a banner, a line added before a doc comment) goes back beside the line it clung
//    to (left-out-comments.ts `commentsBesideEdits`); `%` comments read as comments. bn er03, bn hs04.
// 2. A fragment that adds a `case` after the last one shown and goes on to the next function leaves
//    the block's rest unshown (unclosed-middle.ts); a header edited in place heads the original's
//    block (unclosed-tail.ts). lossx2 c21, orderx ts03.
// 3. A renamed word glued to another by `-` is part of a kebab-case name (instructed-rename.ts). aj svelte01.
// 4. Lines dropped by adjacency with nothing to tell them from left-out ones are reported (merge.ts). h docker01.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const merged = (set: string, prefix: string): void => mergedCase(caseDir(set, prefix));

describe('silent losses left on the development sets (lossx3)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('keeps a banner comment between a shown section comment and a renamed head', () => {
    merged('external-2026-11-28bn', 'er03-');
    merged('probes-lossx3', 'py01-');
  });

  it('keeps a doc comment above a shown head when the stretch also holds an added line', () => {
    const p = readCase(caseDir('external-2026-11-28bn', 'hs04-'));
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const out = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode).content;
      expect(out, mode).toContain('    name Ellipse {} = "ellipse"\n\n-- | Scale every length by a factor.\nscale :: Double -> Shape -> Shape\n');
    }
  });

  it('still drops a comment that new code took the place of (control)', () => {
    merged('probes-lossx3', 'ts01-control-');
  });

  it('keeps the rest of a switch a fragment adds a case to before the next function', () => {
    merged('probes-lossx2', 'c21-');
    merged('probes-lossx3', 'js01-');
  });

  it('still reads a body rewritten from its head before the next function as replacing it (control)', () => {
    merged('probes-lossx3', 'rs01-control-');
  });

  it('keeps the rest of a block whose edited header the fragment shows, stopping after an edited call', () => {
    merged('probes-orderx', 'ts03-');
    merged('probes-lossx3', 'kt01-');
  });

  it('does not rename a word of a kebab-case name', () => {
    merged('external-2026-11-27aj', 'svelte01-');
    merged('probes-lossx3', 'vue01-');
  });

  it('reports lines dropped only by adjacency instead of dropping them silently', () => {
    const p = readCase(caseDir('external-2026-11-26h', 'docker01-'));
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const r = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode);
      expect(r.confidence, mode).toBeLessThan(1);
      expect(r.report.removedByAdjacency, mode).toEqual([26, 27, 28]);
      expect(r.ambiguities.join(' '), mode).toContain('removed 3 original line(s) (27-29)');
    }
  });
});
