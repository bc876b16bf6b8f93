// Generated new-sibling-called edits (sibling-copy-shapes.ts) over the real source files the other
// generated edits use, several draws per file: no merge loses an original line the expected file
// keeps (docs/apply.md, branch lossv).
import { describe, expect, it } from 'vitest';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { newSiblingCalled } from './sibling-copy-shapes.js';
import { drawShape, drawReport } from './shape-draws.js';

await ensureAllGrammars();

describe('generated new-sibling-called edits', () => {
  it('keep every original line', () => {
    const d = drawShape(newSiblingCalled, 'new-sibling-called', 3);
    console.log(drawReport('new-sibling-called', d));
    expect(d.edits).toBeGreaterThan(100);
    expect(d.lossy.slice(0, 10)).toEqual([]);
  });
});
