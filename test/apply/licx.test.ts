// Deletions the licence refused on their expected output (docs/apply.md, branch licx). A Ruby method
// with a method-level `rescue` was cut at the `rescue` by removals.ts `blockEnd`, so the gap between
// the previous method's `end` and the class `end` did not read as whole blocks (whole-blocks.ts) and
// rule (b) refused the deletion the update shows. `rescue`/`ensure` at the header's level now continue
// the block. Controls: a marker between the shown blocks, an instruction that does not name the removal.
import { beforeAll, describe, it } from 'vitest';
import { mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const probe = (name: string, set = 'probes-licx'): void => mergedCase(`${set}/${name}`);

describe('licx: rule (b) over a method with a method-level rescue', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('the last method (with rescue) before the class end (probe rb01)', () => probe('rb01-delete-last-method-before-class-end'));
  it('the same in another writer\'s model (27aq rb03)', () => probe('rb03-model-delete-by-adjacency-long', 'external-2026-11-27aq'));
  it('control: a marker between the shown locations keeps the block (probe nginx02)', () => probe('nginx02-control-marker-between-locations-kept'));
  it('control: an instruction that does not name the removal keeps it (probe py02)', () => probe('py02-control-instruction-not-naming-marker-kept'));
});
