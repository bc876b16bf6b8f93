// A segment written inside the blocks the segment before it leaves open, closing them at their
// heads' indentations and going on below that segment (branch chleft2, merge-fast.ts
// closesBlocksGoingOn): it stays right after that segment, and is not cut where its chain jumps
// back to a look-alike block above for a line it copies from there. A hunk written before one
// above it (generated reversed hunks, order-generated.test.ts) shows no line below the segment
// before it, so it is still ordered by its own anchors.
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

describe('a segment closing the blocks the one before it left open, going on below it (chleft2)', () => {
  it('Ktor: routes added to the second of two look-alike authenticate/route blocks, one copied from the first: they stay in the second (lossy on main)', exactEverywhere('probes-chleft2', 'kt01-ktor-admin-route-copies-account-route'), 600_000);
  it('control: the same shape in chi route groups; exact before and after', exactEverywhere('probes-chleft2', 'go01-chi-admin-route-copies-account-route'), 600_000);
  it('control: an RSpec example copying an expectation of the first context; exact before and after', exactEverywhere('probes-chleft2', 'rb01-rspec-second-context-copies-example'), 600_000);
});
