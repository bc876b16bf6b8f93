// Deletions the licence refused on their expected output (docs/apply.md, branches licx and licy).
// A Ruby/Elixir method with a method-level `rescue`/`ensure` (at the `def`'s indentation) was cut at
// that clause by definition-blocks.ts `blockEnd`, so a gap holding that method did not read as whole blocks
// (whole-blocks.ts) and rule (b) refused a deletion the update shows by adjacency. The clause now
// continues the block to its `end`. Controls: a marker between the shown methods keeps the code.
import { beforeAll, describe, expect, it } from 'vitest';
import { keepsEveryLine, mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { blockEnd } from '../../src/apply/definition-blocks.js';
import { splitLines } from '../../src/apply/lines.js';

const probe = (set: string, name: string): void => mergedCase(`${set}/${name}`);

describe('licy: a method-level rescue/ensure belongs to its method', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('blockEnd runs a def with a method-level rescue to its end', () => {
    const o = splitLines(['class A', '  def f', '    g', '  rescue E', '    nil', '  end', '', '  def h', '  end', 'end', ''].join('\n'));
    expect(blockEnd(o, 1)).toBe(6);
  });
  it('an Ansible `rescue:` key at a task\'s level is not such a clause', () => {
    const o = splitLines(['- name: deploy', '  block:', '    - command: run', '  rescue:', '    - command: undo', '- name: next', ''].join('\n'));
    expect(blockEnd(o, 1)).toBe(3);
  });
  it('the last method (with ensure) before the class end, shown by adjacency (probe rb02)', () => probe('probes-licy', 'rb02-delete-last-method-with-ensure'));
  it('the same with rescue (probe licx rb01)', () => probe('probes-licx', 'rb01-delete-last-method-before-class-end'));
  it('the same in another writer\'s model (27aq rb03)', () => probe('external-2026-11-27aq', 'rb03-model-delete-by-adjacency-long'));
  it('control: a marker between the shown methods keeps the method (probe rb03)', () => probe('probes-licy', 'rb03-control-marker-between-methods-kept'));
  it('control: a marker between the shown methods keeps every line (probe rb03)', () => keepsEveryLine('probes-licy/rb03-control-marker-between-methods-kept'));
});
