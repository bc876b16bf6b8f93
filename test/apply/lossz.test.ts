// Branch lossz: the lossy outputs left. Guards written in languages other than the cases that
// revealed each class (TSX, Vue, TypeScript, Go, Ruby, Python, YAML, C):
// - rule (b)'s anchors must not be contradicted by the segment (nearest-pin.ts): a closer without
//   brackets closing a new block is not the next block's closer (ERB); a line the segment shows after
//   the later anchor does not stand before it in the original (Svelte-like markup);
// - whole definitions before the container's closer are not deleted by adjacency under an instruction
//   that removes nothing (whole-blocks.ts closerOfEnclosing; Swift);
// - comments left out between lines shown adjacent: fast reports them, large and auto keep them
//   (left-out-comments.ts; Lua, SQL).
import { describe, expect, it } from 'vitest';
import { lines } from './judged.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';

describe('lossz: anchors of rule (b) that the segment contradicts', () => {
  it('erb: a new cell copying the shown cell opener does not close the next cell', () => {
    const original = lines(['<table>', '  <tr>', '    <td class="num">', '      <%= item.qty %>', '    </td>', '    <td>', '      <%= link_to item.name, item %>', '    </td>', '  </tr>', '</table>']);
    const update = lines(['    <td class="num">', '      <%= item.qty %>', '    </td>', '    <td class="num">', '      <%= item.price %>', '    </td>', '    <!-- ... -->']);
    // The next cell's opener and content dropped, its closer read as the new cell's.
    const wrong = lines(['<table>', '  <tr>', '    <td class="num">', '      <%= item.qty %>', '    </td>', '    <td class="num">', '      <%= item.price %>', '    </td>', '  </tr>', '</table>']);
    expect(checkLoss(original, update, null, wrong).lost).toEqual([5, 6]);
  });

  it('markup: an item split over three lines is not a later item that opens the same way', () => {
    const original = lines(['<ul>', '  <li>{name}</li>', '  <li>{email}</li>', '  <li>{phone}</li>', '  <li>', '    <Badge role={role} />', '  </li>', '  <li class="muted">{joined}</li>', '</ul>']);
    const update = lines(['<ul>', '  <li>', '    <a href={profile}>{name}</a>', '  </li>', '  <li>{email}</li>', '  <!-- ... -->']);
    // The phone and badge items dropped: the new `<li>` taken for the badge item's, though the
    // segment shows the email item (before it in the original) after it.
    const wrong = lines(['<ul>', '  <li>', '    <a href={profile}>{name}</a>', '  </li>', '  <li>{email}</li>', '  <li class="muted">{joined}</li>', '</ul>']);
    expect(checkLoss(original, update, null, wrong).lost).toContain(3);
    expect(checkLoss(original, update, null, wrong).lost).toContain(5);
  });
});

describe('lossz: a method snippet that ends with its container closer', () => {
  const file = (body: string): string => lines([
    'final class Wallet {', '    private(set) var cents: Int = 0', '',
    '    func deposit(_ amount: Int) {', `        ${body}`, '    }', '',
    '    func withdraw(_ amount: Int) -> Bool {', '        guard amount <= cents else { return false }', '        cents -= amount', '        return true', '    }', '',
    '    func formatted() -> String {', '        String(format: "%.2f", Double(cents) / 100)', '    }', '}',
  ]);
  const update = lines(['final class Wallet {', '    // ...', '', '    func deposit(_ amount: Int) {', '        precondition(amount > 0)', '        cents += amount', '    }', '}']);

  it('swift: under an instruction that removes nothing, the methods after it stay (every mode)', () => {
    const original = file('cents += amount');
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const out = mergeApply({ code: original, update, instruction: 'reject non-positive deposits' }, mode).content;
      expect(checkLoss(original, update, 'reject non-positive deposits', out).lost).toEqual([]);
      expect(out).toContain('func withdraw(_ amount: Int) -> Bool {');
      expect(out).toContain('func formatted() -> String {');
      expect(out).toContain('precondition(amount > 0)');
    }
  });

  it('swift: with no instruction the same adjacency still deletes (control)', () => {
    const original = file('cents += amount');
    const wrong = lines(['final class Wallet {', '    private(set) var cents: Int = 0', '', '    func deposit(_ amount: Int) {', '        precondition(amount > 0)', '        cents += amount', '    }', '}']);
    expect(checkLoss(original, update, null, wrong).lost).toEqual([]);
    expect(checkLoss(original, update, 'reject non-positive deposits', wrong).lost.length).toBeGreaterThan(0);
  });
});

describe('lossz: comments the update leaves out between lines it shows adjacent', () => {
  const original = lines([
    'local M = {}', '', '-- Returns the sum of a list of numbers.', '-- Nil entries are skipped.', 'function M.sum(xs)', '  local total = 0',
    '  for _, x in ipairs(xs) do', '    total = total + (x or 0)', '  end', '  return total', 'end', '', 'return M',
  ]);
  const update = lines(['local M = {}', '', 'function M.sum(xs)', '  local total = 0', '  for _, x in ipairs(xs) do', '    total = total + (tonumber(x) or 0)', '  end', '-- ... existing code ...']);
  const expected = original.replace('(x or 0)', '(tonumber(x) or 0)');

  it('lua: every mode writes the doc comment back above the edited function (usesz; fast used to report it instead)', () => {
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const r = mergeApply({ code: original, update, instruction: null }, mode);
      expect(r.content, mode).toBe(expected);
    }
  });

  it('sql: an instruction about comments lets them go (control)', () => {
    const code = lines(['-- Active customers only.', '-- Used by the nightly export.', 'CREATE VIEW active_customers AS', 'SELECT id, email', 'FROM customers', 'WHERE deleted_at IS NULL;']);
    const upd = lines(['CREATE VIEW active_customers AS', 'SELECT id, email, created_at', 'FROM customers', 'WHERE deleted_at IS NULL;']);
    const r = mergeApply({ code, update: upd, instruction: 'add created_at and drop the stale comments' }, 'large');
    expect(r.ambiguities.join(' ')).not.toContain('comment line(s)');
  });
});
