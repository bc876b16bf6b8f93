// Silent losses of the held-out round bo-bs (docs/apply.md, branch `lossx4`).
// A new check written like an existing one (`if (…) { yield return new ValidationResult(…); }`)
// repeats lines of the old check's body. Read as those original lines, they made rule (b) license
// the old check's rest (and the checks after it) as deleted between anchors. An anchor the update
// shows under a head of its own, while the original's head over it stays in the output, is a copy
// in new code (copied-anchor.ts): the old lines are kept. Revealed by bq cs01.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, keepsEveryLine, mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

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
