// Look-alike blocks in the held-out round ch (branch chleft). A segment after a marker written
// inside blocks the segment before it leaves open, and that closes them (`end` / `end`), goes on
// right after that segment when it also shows a line below that segment: a route it shows that a
// look-alike block above has once does not move it there (closesLeftOpenHeads, back in branch
// chleft2 behind merge-fast.ts closesBlocksGoingOn; see docs/apply.md). A repeated line taken forwards past two lines of a
// later hunk that the original has once is no anchor (merge-fast.ts passesLaterHunk): a PL/pgSQL
// function's new `DECLARE` is not the next function's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';


function exactEverywhere(set: string, id: string): () => void {
  return () => {
    const dir = new URL(`../../bench/apply/${set}/${id}/`, import.meta.url);
    const read = (f: string): string => readFileSync(new URL(f, dir), 'utf8');
    const code = read('original');
    const update = read('update');
    const expected = read('expected');
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code, update, instruction: null }, mode);
      expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
      expect(r.content).toBe(expected);
    }
  };
}

describe('look-alike blocks of round ch (chleft)', () => {
  it('routes added to the second of two look-alike live_sessions, one of them a route the first has once: they stay in the second', exactEverywhere('external-2026-11-29ch', 'ex01-phoenix-router-admin-refunds'), 600_000);
  it('a resource added to the second of two namespaces, copied from the first, the hunk closing the namespace with end: it stays in the second', exactEverywhere('probes-chleft', 'rb01-rails-routes-second-namespace-copies-resource'), 600_000);
  it("a DECLARE section added to the middle of three PL/pgSQL functions: not the third function's DECLARE", exactEverywhere('external-2026-11-29ch', 'sql03-plpgsql-transfer-overdraft-check'), 600_000);
  it('control: a route copied into a second scope whose opener the segment shows; exact before and after', exactEverywhere('probes-chleft', 'ex01-phoenix-scope-second-pipeline-copies-plug'), 600_000);
});
