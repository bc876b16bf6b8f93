// Generated sibling copies that nothing else names (sibling-copy-shapes.ts siblingCopyUnnamed,
// siblingCopyAnchorEdited) over the real source files of the other generated edits, several draws
// per file: no merge loses an original line the expected file keeps (docs/apply.md, branch lossw).
import { describe, expect, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { siblingCopyAnchorEdited, siblingCopyUnnamed } from './sibling-copy-shapes.js';
import { drawShape, drawReport } from './shape-draws.js';

await ensureAllGrammars();

describe('generated sibling copies nothing else names', () => {
  for (const [key, shape] of [['sibling-copy-unnamed', siblingCopyUnnamed], ['sibling-copy-anchor-edited', siblingCopyAnchorEdited]] as const) {
    it(`${key}: keep every original line`, () => {
      const d = drawShape(shape, key, 3);
      console.log(drawReport(key, d));
      expect(d.edits).toBeGreaterThan(100);
      // sibling-copy-unnamed still loses code in a few draws (2-5 of ~220 over seeds '' / a / b: SQL
      // statements, which have no brackets to read blocks by, and heads the generator misnames,
      // `import {`, `Some('+') =>`; docs/apply.md, branch lossw): it is held under 2%, the other at 0.
      if (key === 'sibling-copy-unnamed') expect(d.lossy.length).toBeLessThanOrEqual(Math.ceil(d.edits * 0.02));
      else expect(d.lossy.slice(0, 10)).toEqual([]);
    });
  }
});
