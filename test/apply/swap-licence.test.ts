// Rule (a) at definition level (src/apply/syntax/swap-licence.ts): an original definition replaced
// by a complete same-kind, same-name definition of the update is licensed as a whole, while every
// line outside it still has to be there.
import { describe, expect, it } from 'vitest';
import { analyseLoss, checkLoss } from '../../src/apply/loss.js';
import { splitLines } from '../../src/apply/lines.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { withSwappedDefinitions } from '../../src/apply/syntax/swap-licence.js';

await ensureAllGrammars();

const code = [
  'void store_init(store_t *s) {', '    s->items = NULL;', '    s->len = 0;', '}', '',
  'int store_add(store_t *s, int v) {', '    if (s->len == MAX) {', '        return -1;', '    }', '    s->items[s->len++] = v;', '    return 0;', '}', '',
  'void store_free(store_t *s) {', '    free(s->items);', '    s->items = NULL;', '    s->len = 0;', '}', '',
].join('\n');
const update = [
  'void store_free(store_t *s, void (*drop)(int)) {', '    while (s->len > 0) {', '        drop(s->items[--s->len]);', '    }',
  '    pool_release(s->items);', '    memset(s, 0, sizeof *s);', '}',
].join('\n');
const swapped = code.replace(/void store_free[\s\S]*\}\n/, `${update}\n`);

describe('definition-level rule (a)', () => {
  it('licenses a definition swapped for the same-named one as a whole, whatever the line check found', () => {
    // The line check has learned to license this swap line by line (an edited header whose whole
    // block the update shows); the definition rule is what stands when it does not, so it is given
    // a verdict that rejects a line of the old definition and must overturn it.
    const lines = analyseLoss(splitLines(code), splitLines(swapped), code, update, null);
    const oldLine = splitLines(code).text.indexOf('    free(s->items);');
    expect(oldLine).toBeGreaterThan(0);
    const check = withSwappedDefinitions({ ...lines, lost: [oldLine] }, code, update, null, swapped, analyseLoss);
    expect(check.lost).toEqual([]);
    expect(check.licensed.replaced).toBeGreaterThanOrEqual(5); // the five lines of the old store_free
    expect(checkLoss(code, update, null, swapped).lost).toEqual([]);
    expect(mergeApply({ code, update, instruction: null }, 'fast').content).toBe(swapped);
  });

  it('does not overturn a rejection when a line outside the swapped definition is missing', () => {
    const dropped = swapped.replace('    s->len = 0;\n}\n\nint', '}\n\nint');
    expect(dropped).not.toBe(swapped);
    const lines = analyseLoss(splitLines(code), splitLines(dropped), code, update, null);
    expect(withSwappedDefinitions(lines, code, update, null, dropped, analyseLoss).lost.length).toBeGreaterThan(0);
  });

  it('still rejects a line missing outside the swapped definition', () => {
    for (const line of ['    s->len = 0;', '        return -1;', '    s->items[s->len++] = v;']) {
      const dropped = swapped.replace(`${line}\n`, '');
      expect(dropped).not.toBe(swapped);
      expect(checkLoss(code, update, null, dropped).lost.length).toBeGreaterThan(0);
    }
  });
});
