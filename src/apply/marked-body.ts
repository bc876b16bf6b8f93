// `lint:` / an indented marker / `typecheck:` (a new sibling block): a marker indented deeper than
// the block header that ends the segment before it stands for that block's body, so the next
// segment, when it starts back at or left of the header's level, starts after the body. Its lines
// (a new job whose steps copy lint's) are not looked for inside the body the marker keeps.
import type { Lines } from './lines.js';
import { solidRow } from './lines.js';
import type { Segment } from './merge-context.js';

/**
 * The original row after the body of the header that segment `seg` ends on (anchored by its last
 * chain pair), when the marker after `seg` is deeper than that header and `next` starts at or left
 * of it; -1 otherwise.
 */
export function markedBodyEnd(o: Lines, seg: Segment, chain: ReadonlyArray<readonly [number, number]>, next: Segment | undefined): number {
  if (!next || seg.markerAfterIndent === null || chain.length === 0) return -1;
  const s = seg.lines;
  const last = solidRow(s, s.text.length, -1);
  const [i, h] = chain[chain.length - 1]!;
  if (last < 0 || i !== last || seg.markerAfterIndent <= s.indent[last]!) return -1;
  const first = solidRow(next.lines, -1, 1);
  if (first < 0 || next.lines.indent[first]! > s.indent[last]!) return -1;
  // The header's body: the deeper rows after it in the original.
  const y = solidRow(o, h, 1);
  if (y < 0 || o.indent[y]! <= o.indent[h]!) return -1;
  let end = y + 1;
  for (let x = y; x < o.text.length && (o.blank[x] || o.indent[x]! > o.indent[h]!); x++) if (!o.blank[x]) end = x + 1;
  return end;
}
