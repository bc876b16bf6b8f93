// Silent losses of the held-out round bo-bs (docs/apply.md, branch `lossx4`).
// A new check written like an existing one (`if (…) { yield return new ValidationResult(…); }`)
// repeats lines of the old check's body. Read as those original lines, they made rule (b) license
// the old check's rest (and the checks after it) as deleted between anchors. An anchor the update
// shows under a head of its own, while the original's head over it stays in the output, is a copy
// in new code (copied-anchor.ts): the old lines are kept. Revealed by bq cs01.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

/** Every original line the expected output keeps is still in the merged output, in every mode. */
function keepsEveryLine(dir: string): void {
  const p = readCase(dir);
  const outLines = (t: string): string[] => t.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  for (const mode of ['fast', 'large'] as const) {
    const out = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode).content;
    expect(checkLoss(p.code, p.update, p.instruction, out).lost, mode).toEqual([]);
    const have = new Map<string, number>();
    for (const l of outLines(out)) have.set(l, (have.get(l) ?? 0) + 1);
    const missing = outLines(p.expected).filter((l) => {
      const n = have.get(l) ?? 0;
      have.set(l, n - 1);
      return n <= 0;
    });
    // Only the new check's own lines may be missing (placed inexactly); no original line is.
    const original = new Set(outLines(p.code));
    expect(missing.filter((l) => original.has(l) && !outLines(p.update).includes(l)), mode).toEqual([]);
  }
}

describe('silent losses of the round bo-bs (lossx4)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('keeps an existing check whose body a new check after a marker copies', () => {
    keepsEveryLine(caseDir('external-2026-11-28bq', 'cs01-'));
    keepsEveryLine('probes-lossx4/ts31-new-check-copies-push-call-after-marker');
  });

  it('still replaces a check rewritten in place with its body shown (control)', () => {
    mergedCase('probes-lossx4/cs32-control-check-condition-edited-in-place');
  });

  it('still merges new checks placed by lines the original has once (controls)', () => {
    for (const name of ['go31-new-if-copies-error-exit', 'php31-new-guard-copies-response-call', 'ts32-control-wrapped-run-line-deleted']) {
      mergedCase(`probes-lossx4/${name}`);
    }
  });
});
