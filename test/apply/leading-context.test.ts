// Guards of branch fixz (docs/apply.md): context lines a segment shows before a new definition keep
// their original place when the alignment paired the new definition with the sibling it copies.
// Revealed by a docker-compose case (af yaml03, mode large); the guards are in Python.
import { describe, expect, it } from 'vitest';
import { anchorLeadingContext } from '../../src/apply/leading-context.js';
import { splitLines } from '../../src/apply/lines.js';
import { newDefinitionRows } from '../../src/apply/new-members.js';
import type { Chain } from '../../src/apply/merge-context.js';

const method = (name: string, col: string): string[] => [
  `    def ${name}(self, value):`, '        cur = self.conn.cursor()', `        cur.execute("SELECT * FROM users WHERE ${col} = ?", (value,))`,
  '        row = cur.fetchone()', '        cur.close()', '        return row', ''];
const original = splitLines(['class UserRepo:', ...method('by_id', 'id'), ...method('by_email', 'email'), '    def close(self):', '        self.conn.close()', ''].join('\n'));
// The tail of by_email (a marker stands for its head), then a new method copying it, then close.
const segment = splitLines(['        cur.close()', '        return row', '', ...method('by_name', 'name'), '    def close(self):'].join('\n'));
const newRows = (): Uint8Array => newDefinitionRows(segment, original);
// The alignment paired by_name's copied lines with by_email's (rows 8-13) and `def close` with row 15.
const aligned: Chain = [[4, 9], [6, 11], [7, 12], [8, 13], [10, 15]];
const kept: Chain = [[10, 15]];

describe('context before a new definition (leading-context.ts)', () => {
  it('anchors the context lines where they occur once between the previous segment and the kept anchor', () => {
    expect(anchorLeadingContext(segment, original, aligned, kept, newRows, 8)).toEqual([[0, 12], [1, 13], [10, 15]]);
  });
  it('leaves the chain alone where the context occurs twice in that window', () => {
    expect(anchorLeadingContext(segment, original, aligned, kept, newRows, 0)).toEqual(kept);
  });
  it('leaves the chain alone where no anchor was dropped', () => {
    expect(anchorLeadingContext(segment, original, kept, kept, newRows, 8)).toEqual(kept);
  });
});
