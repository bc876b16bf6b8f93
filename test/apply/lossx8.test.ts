// Losses the merge still made on the development sets (docs/apply.md, branch `lossx8`).
// - probes-closerz py01: `class RateLimiter:` shown above the one method the update edits, nothing
//   else, no markers. The no-loss check's rule (a) "by structure" read what the update shows under the
//   head as the class's new body, so every original line of it not shown was replaced, the class
//   docstring included (the unnamed `__init__` was kept). A header's docstring is not replaced by a
//   block the update shows without one (licence-rules.ts `leftOutDocRows`).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('a header shown as a path above an edit keeps its docstring (lossx8)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('keeps the class docstring when the update shows the class head above one edited method (closerz py01)', () => {
    mergedCase(caseDir('probes-closerz', 'py01-'));
  });

  it('checkLoss refuses the output without the class docstring', () => {
    const p = readCase(caseDir('probes-closerz', 'py01-'));
    // Main's output: the docstring and the blank line after it gone.
    const lossy = p.expected.replace('    """Token bucket limiter.\n\n    Refills `rate` tokens per second up to `burst`.\n    """\n\n', '');
    expect(lossy).not.toBe(p.expected);
    expect(checkLoss(p.code, p.update, p.instruction, lossy).lost.length).toBeGreaterThan(0);
  });

  it('still replaces a docstring the update rewrites, and drops one the instruction removes (controls)', () => {
    mergedCase('probes-lossx8/py04-control-new-docstring-replaces-old');
    mergedCase('probes-lossx8/py05-control-instruction-removes-docstring');
  });
});
