// Hunks written out of file order are put in file order by each segment's best anchor
// (merge-fast.ts fileOrder). A segment of mostly new code can find that anchor inside a body it
// copies (a new endpoint repeating `if (x is null) { return NotFound(); }` of its neighbour), which
// makes a hunk written in order look out of order. The reordering is believed only when the hunks'
// anchor ranges, each segment chained over the whole file alone, do not interleave in the new order.
import { fastChains, segmentPlace } from './merge-fast.js';
import type { MergeContext } from './merge-context.js';
import { continuesOpenBlock } from './open-blocks.js';

/** Original line range [first, last] a segment's own anchor chain covers, or null without anchors. */
function anchorRange(ctx: MergeContext, k: number): [number, number] | null {
  const chain = fastChains({ ...ctx, segments: [ctx.segments[k]!] }).chains[0] ?? [];
  if (chain.length === 0) return null;
  return [chain[0]![1], chain[chain.length - 1]![1]];
}

/** True when the segments taken in `order` anchor on disjoint, increasing stretches of the original. */
export function fileOrderHolds(ctx: MergeContext, order: number[]): boolean {
  // A segment continuing the block its predecessor opened stays right after it.
  for (let x = 0; x < order.length; x++) if (order[x]! > 0 && continuesOpenBlock(ctx, order[x]!) && order[x - 1] !== order[x]! - 1) return false;
  let prevLast = -1;
  for (const k of order) {
    // Segments without an anchor, or continuing the block the one before them opened, travel with
    // the segment before them (merge-fast.ts fileOrder): a line of their new code that happens to
    // occur elsewhere in the file (a copied `assert`) does not make them a hunk of their own.
    if (segmentPlace(ctx, k) === 'previous') continue;
    const r = anchorRange(ctx, k);
    if (!r) continue;
    if (r[0] <= prevLast) return false;
    prevLast = r[1];
  }
  return true;
}
