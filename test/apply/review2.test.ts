// Branch review2: one way to do each thing in the apply merge (docs/apply.md). The shared helpers the
// review made, each read by several rules that had their own copy; behaviour is unchanged (the
// development sets and generated edits give the same results), these pin the helpers' contracts.
import { describe, expect, it } from 'vitest';
import { wholeName } from '../../src/apply/escape-regexp.js';
import { hunkCursor } from '../../src/apply/hunk-openers.js';
import { keptRows } from '../../src/apply/line-diff.js';
import { blockEnd, definesName } from '../../src/apply/definition-blocks.js';
import { splitLines } from '../../src/apply/lines.js';
import { markerLines } from '../../src/apply/markers.js';
import { locationComments } from '../../src/apply/location-comments.js';

describe('review2: shared readers', () => {
  it('wholeName: a name not inside a longer identifier nor a hyphenated name', () => {
    expect(wholeName('dotenv').test('gem "dotenv"')).toBe(true);
    expect(wholeName('dotenv').test('gem "dotenv-rails"')).toBe(false);
    expect(wholeName('load').test('def load_all():')).toBe(false);
    expect(wholeName('$scope').test('  $scope.x = 1;')).toBe(true);
  });

  it('hunkCursor: the first solid line and the first after a marker open a hunk; reopen opens the next', () => {
    const update = '// in Cart\nfunction total() {\n  // ...\n  return 1;\n}\n';
    const u = splitLines(update);
    const hunks = hunkCursor(u, markerLines(u.text, []));
    expect(hunks.at(0)).toEqual({ opens: true, first: true });
    expect(hunks.at(1)).toEqual({ opens: false, first: false });
    expect(hunks.at(2)).toBeNull();
    expect(hunks.at(3)).toEqual({ opens: true, first: false });
    hunks.reopen();
    expect(hunks.at(4)).toEqual({ opens: true, first: false });
  });

  it('location comments still read a place comment that opens a hunk (hunkCursor)', () => {
    const code = 'class Cart {\n  total() {\n    return 0;\n  }\n}\n';
    expect(locationComments('// in Cart\n  total() {\n    return 1;\n  }\n', code)).toEqual({ update: '  total() {\n    return 1;\n  }\n', names: ['Cart'] });
  });

  it('keptRows: each output row its original row and each original row its output row, -1 for none', () => {
    const { from, at } = keptRows(['a', 'b', 'c'], ['a', 'x', 'c']);
    expect([...from]).toEqual([0, -1, 2]);
    expect([...at]).toEqual([0, -1, 2]);
  });

  it('definesName and blockEnd read where a named definition stands (definition-blocks.ts)', () => {
    const o = splitLines('def load():\n    return 1\n\ndef save():\n    pass\n');
    expect(definesName(o.text[0]!, 'load')).toBe(true);
    expect(definesName(o.text[0]!, 'save')).toBe(false);
    expect(blockEnd(o, 0)).toBe(2);
  });
});
