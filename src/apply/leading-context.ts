// A segment that shows context lines, then a definition the original names nowhere (new-members.ts):
// `depends_on:` of the service a marker stands for, then a new service written like it. An aligner
// that pairs the new definition's lines with the sibling it copies leaves the context lines before it
// unanchored; once the new definition's anchors are dropped, those lines would be read as new and
// written a second time beside the original ones. The context lines before the first new definition
// are the original's where they occur there once, consecutively, between where the previous segment
// ended and the first anchor kept.
import { solidRow, type Lines } from './lines.js';
import { rowsOf, type Chain } from './merge-context.js';

/**
 * `chain` (kept anchors, after the new definitions' rows `newRows` were dropped from `before`) with the
 * solid rows ahead of the first new definition anchored where they match once in o[lo, first kept).
 */
export function anchorLeadingContext(s: Lines, o: Lines, before: Chain, chain: Chain, newRows: () => Uint8Array, lo: number): Chain {
  if (chain.length === 0 || chain.length === before.length) return chain;
  const firstNew = newRows().indexOf(1);
  if (firstNew <= 0 || chain[0]![0] < firstNew) return chain;
  const lead: number[] = [];
  for (let i = 0; i < firstNew; i++) if (!s.blank[i]) lead.push(i);
  if (lead.length === 0) return chain;
  const hi = chain[0]![1];
  const runs: Chain[] = [];
  for (const start of rowsOf(o, s.norm[lead[0]!]!)) {
    if (start < lo || start >= hi) continue;
    const run: Chain = [];
    let y = start;
    for (const i of lead) {
      if (y < 0 || y >= hi || o.norm[y] !== s.norm[i]) break;
      run.push([i, y]);
      y = solidRow(o, y, 1);
    }
    if (run.length === lead.length) runs.push(run);
  }
  return runs.length === 1 ? [...runs[0]!, ...chain] : chain;
}
