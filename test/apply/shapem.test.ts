// Branch shapem: location comments (`# in ProjectRepository`, `// inside FooService`,
// `<!-- in the <head> -->`, `# ReceiptsController`, `// file: src/app.ts`) are placement, never
// content (src/apply/location-comments.ts; revealed by set k py06 and rb07, Python and Ruby);
// a renamed definition head is the old one when the rename is carried through the update
// (src/apply/renamed-heads.ts; set k hs03, Haskell).
import { describe, expect, it } from 'vitest';
import { locationComments, withPlaces } from '../../src/apply/location-comments.js';
import { instructionNames } from '../../src/apply/instruction-scope.js';
import { splitLines } from '../../src/apply/lines.js';
import { buildContext, splitUpdate } from '../../src/apply/merge-context.js';
import { renamedHeadRow } from '../../src/apply/renamed-heads.js';

const lua = ['local Cart = {}', '', 'function Cart.total(self)', '  return 0', 'end', '', 'return Cart', ''].join('\n');

describe('shapem: location comments', () => {
  it('reads a comment naming a place at a hunk start as placement, in each comment syntax', () => {
    for (const c of ['-- in Cart', '-- inside the Cart module', '--[[ in Cart ]]', '-- Cart.total', '-- (in `Cart`)']) {
      const r = locationComments(`${c}\nfunction Cart.total(self)\n  return 1\nend\n`, lua);
      expect(r?.update, c).toBe('function Cart.total(self)\n  return 1\nend\n');
      expect(r?.names[0], c).toBe('Cart');
    }
    const html = '<html>\n<head>\n  <title>x</title>\n</head>\n</html>\n';
    expect(locationComments('<!-- in the <head> -->\n  <meta charset="utf-8">\n', html)?.names).toEqual(['head']);
    // A path only says which file: taken out, names nothing; after a marker too.
    expect(locationComments('// file: src/cart.lua\n\n-- ... existing code ...\n', lua)).toEqual({ update: '-- ... existing code ...\n', names: [] });
    expect(locationComments('-- ... existing code ...\n-- in Cart\nfunction Cart.total(self)\n', lua)?.update).toBe('-- ... existing code ...\nfunction Cart.total(self)\n');
  });

  it('leaves comments that say something else, stand inside a hunk, or are original lines', () => {
    // Prose, a name the original lacks, a lone lowercase word (a section comment).
    for (const c of ['-- in case the cart is empty', '-- in Basket', '-- totals', '-- Basket']) {
      expect(locationComments(`${c}\nfunction Cart.total(self)\n`, lua), c).toBeNull();
    }
    // Not at a hunk start: content of the hunk.
    expect(locationComments('function Cart.total(self)\n  -- in Cart\n  return 1\nend\n', lua)).toBeNull();
    // A bare path below the update's first line is content.
    expect(locationComments('-- ... existing code ...\n-- cart.lua\nreturn Cart\n', lua)).toBeNull();
    // The original has the comment: an anchor, not a location.
    expect(locationComments('-- in Cart\nlocal x = 1\n', `-- in Cart\n${lua}`)).toBeNull();
  });

  it('hands the names to the instruction as places', () => {
    expect(withPlaces(null, ['Cart'])).toBe('(in `Cart`)');
    expect(withPlaces('Fix totals.', ['Cart', 'total'])).toBe('Fix totals.\n(in `Cart`, in `total`)');
    expect(withPlaces('Fix totals.', [])).toBe('Fix totals.');
  });
});

describe('shapem: a renamed head carried through the update (renamed-heads.ts; set k hs03 was Haskell)', () => {
  const code = ['function readRows(path) {', '  return fs.readFileSync(path, "utf8").split("\\n");', '}', '', 'function main(argv) {', '  const rows = readRows(argv[2]);', '  console.log(rows.length);', '}', ''].join('\n');
  const headRow = (update: string, instruction: string | null = null): number => {
    const orig = splitLines(code);
    const split = splitUpdate(update, orig, code);
    const ctx = buildContext(orig, split.segments, instructionNames(instruction));
    const seg = ctx.segments.find((s) => s.lines.norm.some((n) => n.startsWith('function readLines')))!;
    return renamedHeadRow(ctx, seg.lines, seg.lines.norm.findIndex((n) => n.startsWith('function readLines')), 0, orig.text.length);
  };
  it('reads the head as the old one when a caller shows the same rename in its place, or the instruction names both', () => {
    expect(headRow('// ... existing code ...\nfunction readLines(path) {\n  // ... existing code ...\n}\n\nfunction main(argv) {\n  const rows = readLines(argv[2]);\n// ... existing code ...\n')).toBe(0);
    expect(headRow('// ... existing code ...\nfunction readLines(path) {\n  // ... existing code ...\n}\n// ... existing code ...\n', 'Rename readRows to readLines.')).toBe(0);
  });
  it('not without evidence, nor when the old name is still used or the new one exists', () => {
    // A new function beside the old one: nothing renamed elsewhere.
    expect(headRow('// ... existing code ...\nfunction readLines(path) {\n  return [];\n}\n// ... existing code ...\n')).toBe(-1);
    // The update still calls readRows: readLines is another function.
    expect(headRow('// ... existing code ...\nfunction readLines(path) {\n  return readRows(path);\n}\n\nfunction main(argv) {\n  const rows = readLines(argv[2]);\n// ... existing code ...\n')).toBe(-1);
  });
});
