// One of several near-identical blocks (`context "…" do` in an RSpec file, each holding one `it`)
// shown whole with its one member under a new name: the update shows the block from its head to its
// closer with no marker between, so nothing it leaves out stays in that block; the member it shows
// is the original member rewritten (renamed and edited), not a new sibling beside it. Its lines
// anchor in that member's place though they repeat in every other block.
import { lineIdentity } from './line-identity.js';
import { solidRow, type Lines } from './lines.js';
import { rowsOf } from './merge-context.js';
import { blockEnd } from './definition-blocks.js';

/** A line that only closes a block: a bracket, or a word-closed block's `end`. */
const BLOCK_CLOSER = /^(?:[}\])]+[;,]?|end)$/;

/** The word a head starts with (`it`, `def`, `func`). */
function leadWord(norm: string): string {
  return norm.split(/[\s(]/, 1)[0]!;
}

/**
 * Segment row h heads a definition the original has nowhere, inside a block the segment shows whole
 * (its head an original line once, its closer the original block's) whose original holds exactly one
 * definition led by the same word, not shown as it was: that definition's row, else -1.
 */
export function soleMemberRewritten(s: Lines, h: number, o: Lines): number {
  if (s.blank[h] || lineIdentity(s.norm[h]!) === null || rowsOf(o, s.norm[h]!).length > 0) return -1;
  let p = h - 1;
  while (p >= 0 && (s.blank[p] || s.indent[p]! >= s.indent[h]!)) p--;
  if (p < 0) return -1;
  const heads = rowsOf(o, s.norm[p]!);
  if (heads.length !== 1) return -1;
  const c = solidRow(s, blockEnd(s, h) - 1, 1);
  const oEnd = blockEnd(o, heads[0]!);
  if (c < 0 || s.indent[c] !== s.indent[p] || !BLOCK_CLOSER.test(s.norm[c]!) || s.norm[c] !== o.norm[oEnd - 1]) return -1;
  const lead = leadWord(s.norm[h]!);
  let depth = -1;
  let member = -1;
  for (let r = heads[0]! + 1; r < oEnd - 1; r++) {
    if (o.blank[r]) continue;
    if (depth < 0) depth = o.indent[r]!;
    if (o.indent[r] !== depth || leadWord(o.norm[r]!) !== lead || lineIdentity(o.norm[r]!) === null) continue;
    if (member >= 0) return -1;
    member = r;
  }
  // The member shown as it was beside the new one: the new one is a sibling (a test added to the block).
  if (member < 0) return -1;
  for (let y = p + 1; y < c; y++) if (s.norm[y] === o.norm[member]) return -1;
  return member;
}
