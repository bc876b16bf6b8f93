// Look-alike blocks in the held-out round ch (branch chleft). A segment after a marker written
// inside blocks the segment before it leaves open, and that closes them (`end` / `end`), goes on
// right after that segment when it also shows a line below that segment: a route it shows that a
// look-alike block above has once does not move it there (closesLeftOpenHeads, back in branch
// chleft2 behind merge-fast.ts closesBlocksGoingOn; see docs/apply.md). A repeated line taken forwards past two lines of a
// later hunk that the original has once is no anchor (merge-fast.ts passesLaterHunk): a PL/pgSQL
// function's new `DECLARE` is not the next function's.
import { describe, it } from 'vitest';
import { readCase } from './bench-case.js';
import { BOTH_MODES, mergedEverywhere } from './judged.js';

/** The case merges exactly, with no instruction, in fast and large mode. */
function exactEverywhere(set: string, id: string): () => void {
  return () => {
    const c = readCase(`${set}/${id}`);
    mergedEverywhere(c.code, c.update, c.expected, null, BOTH_MODES);
  };
}

describe('look-alike blocks of round ch (chleft)', () => {
  it('routes added to the second of two look-alike live_sessions, one of them a route the first has once: they stay in the second', exactEverywhere('external-2026-11-29ch', 'ex01-phoenix-router-admin-refunds'), 600_000);
  it('a resource added to the second of two namespaces, copied from the first, the hunk closing the namespace with end: it stays in the second', exactEverywhere('probes-chleft', 'rb01-rails-routes-second-namespace-copies-resource'), 600_000);
  it("a DECLARE section added to the middle of three PL/pgSQL functions: not the third function's DECLARE", exactEverywhere('external-2026-11-29ch', 'sql03-plpgsql-transfer-overdraft-check'), 600_000);
  it('control: a route copied into a second scope whose opener the segment shows; exact before and after', exactEverywhere('probes-chleft', 'ex01-phoenix-scope-second-pipeline-copies-plug'), 600_000);
});
