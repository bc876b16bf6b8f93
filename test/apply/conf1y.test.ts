// Misses at confidence 1 (docs/apply.md, branch `conf1y`): an instruction orders a removal ("Remove the
// "Quality checked" feature card", "drop the unused os import") that the update does not show, and the
// merge keeps every original line (no loss) while saying it is sure. It now says the removal was not
// done (undone-removal.ts, confidence at most 0.6). The verb as a behaviour and a removal the
// instruction pass carried out keep confidence 1 (controls).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ordersRemoval } from '../../src/apply/undone-removal.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('an ordered removal the merge did not carry out (conf1y)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  // probes-removz blade01 was one of these until its Blade `{{-- ... --}}` marker was read as a marker
  // (tplmark.test.ts): it now merges exactly, the removal done.
  // probes-instrx ts01 was one of these until instrdel2 read its test block titled by the removed name:
  // it now merges exactly, the removal done (instrdel2.test.ts).
  it('is not claimed at confidence 1 (HTML, Python, SQL; three writers)', () => {
    const cases: Array<[string, string]> = [
      ['external-2026-11-26k', 'html04-'],
      ['external-2026-11-27aw', 'py04-'],
      ['external-2026-11-28bm', 'sql01-'],
    ];
    for (const [set, prefix] of cases) {
      const c = readCase(caseDir(set, prefix));
      for (const mode of ['fast', 'large', 'auto'] as const) {
        const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
        expect(r.confidence, `${prefix} ${mode}`).toBeLessThan(0.9);
        expect(r.report.removalUndone, `${prefix} ${mode}`).toBe(true);
      }
    }
  });

  it('a removal the instruction pass carried out, and the verb as a behaviour, keep confidence 1 (controls)', () => {
    for (const prefix of ['ts01-', 'yaml01-', 'rb01-']) {
      const c = readCase(caseDir('probes-conf1y', prefix));
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
      expect(r.content, prefix).toBe(c.expected);
      expect(r.confidence, prefix).toBe(1);
      expect(r.report.removalUndone, prefix).toBeUndefined();
    }
  });

  it('reads the removal verb as an order only in the imperative with a determined object', () => {
    expect(ordersRemoval('add a timeout to fetch and remove the unused json import')).toBe(true);
    expect(ordersRemoval('Delete the Void class entirely.')).toBe(true);
    expect(ordersRemoval('only the owner should be able to delete a task')).toBe(false);
    expect(ordersRemoval('setting quantity to 0 should remove the item')).toBe(false);
    expect(ordersRemoval('Add an update method to TodoApi, between create and delete.')).toBe(false);
    expect(ordersRemoval('In CalendarSyncer, delete cancelled events locally instead of upserting them')).toBe(false);
    expect(ordersRemoval('only show the edit and delete buttons to owners')).toBe(false);
  });
});
