// Generated sibling copies that nothing else names (sibling-copy-shapes.ts siblingCopyUnnamed,
// siblingCopyAnchorEdited) over the real source files of the other generated edits, several draws
// per file: no merge loses an original line the expected file keeps (docs/apply.md, branch lossw).
import { describe, expect, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { siblingCopyAnchorEdited, siblingCopyUnnamed } from './sibling-copy-shapes.js';
import { drawShape } from './shape-draws.js';

await ensureAllGrammars();

describe('generated sibling copies nothing else names', () => {
  for (const [key, shape] of [['sibling-copy-unnamed', siblingCopyUnnamed], ['sibling-copy-anchor-edited', siblingCopyAnchorEdited]] as const) {
    it(`${key}: keep every original line`, () => {
      const d = drawShape(shape, key, 3);
      console.log(`${key}: ${d.exact}/${d.edits} exact, ${d.lossy.length} lossy ${d.lossy.slice(0, 5).join(' ;; ')}; misses: ${d.misses.slice(0, 12).join(', ')}`);
      expect(d.edits).toBeGreaterThan(100);
      expect(d.lossy.slice(0, 10)).toEqual([]);
    });
  }
});
