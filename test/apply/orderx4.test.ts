// Guard of branch orderx4 (docs/apply.md): hunks written out of file order. A class's edited method
// under `class Writer:` + marker, then blank lines and `class Reader:` (above it in the file) + marker
// and Reader's twin method: the part before the blank lines has lines of its own only inside the block
// it goes on in (the twin's `self.f.close()` under Writer), so it no longer blocks the backward cut
// (hunk-order.ts backwardCut) and Reader's hunk goes to Reader instead of a new class at the end.
// Revealed by set ao rs01 (`impl Shape for Rect`, then `impl Shape for Circle` above it).
import { beforeAll, describe, it } from 'vitest';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';
import { mergedCase } from './bench-case.js';

beforeAll(async () => {
  for (const lang of ['python', 'kotlin', 'ruby', 'rust'] as const) await ensureGrammar(lang);
});

describe('orderx4: hunks out of file order', () => {
  it('twin methods under class heads written in reverse go to their own classes (Python)', () =>
    mergedCase('probes-orderx4/py02-twin-methods-class-heads-reversed'));
  it('the same with Rust impls, `// ...` markers (ao rs01)', () =>
    mergedCase('external-2026-11-27ao/rs01-same-fn-two-impls'));
  it('the same in Kotlin', () => mergedCase('probes-orderx4/kt01-twin-methods-class-heads-reversed'));
  it('the same in Ruby (`end`-closed classes, right on main too)', () =>
    mergedCase('probes-orderx4/rb01-twin-methods-class-heads-reversed'));
  it('control: an edited method, then a new class copying the twins, stays new at the end (Python)', () =>
    mergedCase('probes-orderx4/py03-control-new-class-after-edited-method'));
});
