// Branch shapem: location comments (`# in ProjectRepository`, `// inside FooService`,
// `<!-- in the <head> -->`, `# ReceiptsController`, `// file: src/app.ts`) are placement, never
// content (src/apply/location-comments.ts; revealed by set k py06 and rb07, Python and Ruby).
import { describe, expect, it } from 'vitest';
import { locationComments, withPlaces } from '../../src/apply/location-comments.js';

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
