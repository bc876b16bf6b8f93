// Blocks closed by `end` (docs/apply.md, branch `endx`): a method shown whole without markers, a new
// `if … end` / `for … end` / `case … end` inside its rewritten body. The segment's first weak line
// (`return nil`, the inner `end`) was read as the method's closer, failed, and the old tail (`return
// …` / `end`) stayed below the new method (merge-finish.ts findCloser, newWordBlockLines); the no-loss
// pass then kept the old `return` (loss.ts blockRestReplaced, an `end` block around the kept line).
import { beforeAll, describe, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('end blocks: a rewritten body with new inner end blocks (endx)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('replaces one Julia dispatch method shown whole with a new for … end (28bv jl01)', () => {
    mergedCase(caseDir('external-2026-11-28bv', 'jl01-'));
  });

  it('replaces one Lua function whose new body opens if … end first (probe bvx lua01)', () => {
    mergedCase('probes-bvx/lua01-function-rewritten-whole-new-loop');
  });

  it('replaces one of several Elixir clauses with a new case … end (28bs ex02, probe ex01)', () => {
    mergedCase(caseDir('external-2026-11-28bs', 'ex02-'));
    mergedCase('probes-endx/ex01-clause-rewritten-new-case-block');
  });

  it('replaces a Lua method whose new loop holds an if … end (probe lua01)', () => {
    mergedCase('probes-endx/lua01-method-rewritten-loop-replaces-return');
  });

  it('controls: a head, a new if … end, then a marker keeps the rest; an inner loop rewritten keeps the method tail; twin classes', () => {
    for (const name of ['lua02-control-head-new-block-then-marker-keeps-rest', 'jl02-control-loop-body-rewritten-method-tail-kept', 'rb02-twin-classes-second-method-rewritten', 'jl01-dispatch-method-rewritten-new-if']) {
      mergedCase(`probes-endx/${name}`);
    }
  });
});
