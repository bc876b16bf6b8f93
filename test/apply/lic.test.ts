// Misses held back by the loss check's licences (branch lic). A SQL condition widened in place
// (`WHERE o.status = 'paid'` → `WHERE o.status IN ('paid', 'shipped')`) was no edit of the old line:
// assignmentKey reads `WHERE o.status` as a key the `IN` line lacks, so editedVersion refused the pair,
// rule (a) refused the old line's removal and the merge kept it beside the new one (26g sql04 at
// confidence 1, 28ce sql01 at 0.6); an `AND` clause was also read as a new sibling of the other `AND`
// clauses (edit-evidence.ts newSiblingLine). sql-conditions.ts reads the pair as one condition.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, keepsEveryLine, mergedCase, readCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { widenedCondition } from '../../src/apply/sql-conditions.js';
import { editedVersion } from '../../src/apply/lines.js';
import { checkLoss } from '../../src/apply/loss.js';

const probe = (name: string): string => caseDir('probes-lic', name);

describe('lic: a SQL condition widened in place is its edit', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('`= v` and `IN (…, v, …)` on the same column under the same keyword are one condition', () => {
    expect(widenedCondition("WHERE o.status = 'paid'", "WHERE o.status IN ('paid', 'shipped')")).toBe(true);
    expect(widenedCondition("WHERE status IN ('trialing', 'active');", "WHERE status = 'active';")).toBe(true);
    expect(editedVersion("WHERE o.status = 'paid'", "WHERE o.status IN ('paid', 'shipped')")).toBe(true);
  });
  it('control: another column, another keyword, a value not in the list, or a new comparison are not', () => {
    expect(widenedCondition("WHERE o.status = 'paid'", "WHERE o.state IN ('paid', 'shipped')")).toBe(false);
    expect(widenedCondition("WHERE o.status = 'paid'", "AND o.status IN ('paid', 'shipped')")).toBe(false);
    expect(widenedCondition("WHERE o.status = 'paid'", "WHERE o.status IN ('refunded', 'shipped')")).toBe(false);
    expect(widenedCondition('AND o.created_at >= $1', 'AND o.created_at < $2')).toBe(false);
    expect(widenedCondition("WHERE status = 'active';", "WHERE status IN ('trialing', 'active')")).toBe(false);
  });
  it('the expected output of 28ce sql01 is licensed (the old WHERE replaced by the widened one)', () => {
    const c = readCase(caseDir('external-2026-11-28ce', 'sql01-'));
    expect(checkLoss(c.code, c.update, c.instruction, c.expected).lost).toEqual([]);
  });
  it('a WHERE after a marker widened (26g sql04)', () => mergedCase(caseDir('external-2026-11-26g', 'sql04-')));
  it("a partial index's WHERE widened before a new index (28ce sql01)", () => mergedCase(caseDir('external-2026-11-28ce', 'sql01-')));
  it('a view\'s WHERE widened right after a marker (probe sql01)', () => mergedCase(probe('sql01-')));
  it('an AND clause widened among AND clauses in a Python query string (probe py01)', () => mergedCase(probe('py01-')));
  it('control: the condition widened in one of three queries, a new AND beside an old one (probe sql02)', () => mergedCase(probe('sql02-')));
  it('control: a new query widening a twin condition keeps the old ones (probe ts01)', () => {
    mergedCase(probe('ts01-'));
    keepsEveryLine(probe('ts01-'));
  });
});
