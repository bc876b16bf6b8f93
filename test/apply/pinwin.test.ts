// Look-alike blocks, narrowed (branch pinwin): comiss's pin windows (pin-windows.ts) let a hunk in the
// second of two identical blocks delete a line when the update's once-lines around it (pins) bound a
// stretch of the original that holds the hunk's lines once. Unnarrowed, a once-line of *new* code (a
// new check copying an existing check's body, one of whose lines the original has once) pinned the
// copied lines into the first check, and the merge's wrong placement there was licensed: lossy outputs.
// A pin now needs a strong neighbour in the update equal to the original's neighbour of its row.
// The pin-window rule (pin-windows.ts) was reverted at the merge (2026-11-29, twentieth session):
// it licensed the lossy output of test/apply/lossk.test.ts's new-item case. The tests that need it
// are skipped until a narrower rule lands; the controls stay.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { lostLines } from '../../bench/apply/lost-lines.js';

const BENCH = path.resolve(__dirname, '../../bench/apply');

function load(dir: string): { code: string; update: string; expected: string; instruction: string | null } {
  const at = (f: string) => fs.readFileSync(path.join(BENCH, dir, f), 'utf8');
  return { code: at('original'), update: at('update'), expected: at('expected'), instruction: JSON.parse(at('meta.json')).instruction };
}

describe('a hunk in the second of two look-alike blocks, pinned by corroborated pins (pinwin)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  for (const probe of ['yaml01-ci-drop-lint-step-in-second-of-twin-jobs', 'tf01-drop-expiration-in-second-of-twin-lifecycle-rules', 'ts01-drop-retries-in-second-of-twin-env-configs']) {
    it.skip(`probe ${probe} is exact in fast and large`, () => {
      const c = load(`probes-pinwin/${probe}`);
      for (const mode of ['fast', 'large'] as const) {
        const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
        expect(r.content).toBe(c.expected);
      }
    });
  }

  // New code copying a check's body after a marker: the merge puts it into the first check; the copy's
  // once-line must not license that (these outputs were lossy under the unnarrowed windows).
  for (const dir of [
    'external-2026-11-28bq/cs01-csharp-add-property-and-validation',
    'probes-lossx4/ts31-new-check-copies-push-call-after-marker',
    'probes-pinwin/go01-new-check-copies-append-after-marker',
  ]) {
    it(`${dir}: the merged output loses no original line (fast and large)`, () => {
      const c = load(dir);
      for (const mode of ['fast', 'large'] as const) {
        const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
        expect(lostLines(c.code, c.expected, r.content)).toEqual([]);
        expect(checkLoss(c.code, c.update, c.instruction, r.content).lost).toEqual([]);
      }
    });
  }

  it('the copied body placed over the first check is refused: the once-line of new code pins nothing', () => {
    const c = load('probes-lossx4/ts31-new-check-copies-push-call-after-marker');
    const wrong = c.code.replace(
      "  if (b.checkOut <= b.checkIn) {\n    problems.push({\n      message: 'Check-out must be after check-in.',\n",
      "  if (b.checkOut <= b.checkIn) {\n  if (b.checkOut - b.checkIn > 30 * DAY) {\n    problems.push({\n      message: 'Bookings are limited to 30 nights.',\n",
    );
    expect(wrong).not.toBe(c.code);
    const row = c.code.split('\n').findIndex((l) => l.includes('Check-out must be after check-in.'));
    expect(checkLoss(c.code, c.update, c.instruction, wrong).lost).toContain(row);
  });
});
