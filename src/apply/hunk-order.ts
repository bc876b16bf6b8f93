// Hunks written out of file order are put in file order by each segment's best anchor
// (merge-fast.ts fileOrder). A segment of mostly new code can find that anchor inside a body it
// copies (a new endpoint repeating `if (x is null) { return NotFound(); }` of its neighbour), which
// makes a hunk written in order look out of order. The reordering is believed only when the hunks'
// anchor ranges, each segment chained over the whole file alone, do not interleave in the new order.
import { closesBlocksGoingOn, fastChains, segmentPlace } from './merge-fast.js';
import type { MergeContext, Segment } from './merge-context.js';
import { CLOSING_TAG_LINE, sliceLines, solidRow, type Lines } from './lines.js';
import { continuesOpenBlock, resumesInsideOpener } from './open-blocks.js';

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

/** The chain's anchors on lines the original has once and that are not weak. */
function onceAnchors(ctx: MergeContext, chain: ReadonlyArray<readonly [number, number]>): ReadonlyArray<readonly [number, number]> {
  return chain.filter(([, o]) => !ctx.orig.weak[o] && ctx.index.get(ctx.orig.norm[o]!)?.length === 1);
}

/**
 * Rows [a, b) of l that close a top-level section the original closes once, at column 0, paired
 * with that line (rows counted from a). Too short to anchor a chain, such a line still fixes a
 * place: `</template>`, a blank line, then `<script setup>` goes back from the file's end to its top.
 */
function sectionClosers(ctx: MergeContext, l: Lines, a: number, b: number): Array<readonly [number, number]> {
  const out: Array<readonly [number, number]> = [];
  for (let x = a; x < b; x++) {
    if (l.indent[x] !== 0 || !CLOSING_TAG_LINE.test(l.norm[x]!)) continue;
    const rows = ctx.index.get(l.norm[x]!);
    if (rows?.length === 1 && ctx.orig.indent[rows[0]!] === 0) out.push([x - a, rows[0]!]);
  }
  return out;
}

/**
 * Row of segment k where a paragraph (after a blank line) goes back to code above everything before
 * it: `impl Client { // ... }` with a new method, `}`, a blank line, then the `struct ClientConfig`
 * the method reads, with no marker between. Chained whole, the segment anchors on the larger part
 * only and the other part follows it. The lines before the cut stand where their own anchors are,
 * or, with none the original has once, where the segment before them stands when they go on inside
 * the block it ends on and the part after starts outside it (the new method and the `}` of its
 * `impl`, or a method under `class App:` before a dataclass). The part after must open with a
 * shown line and be mostly shown code, anchored on lines the original has once, all above that
 * place: new code copying a sibling (a new route, a `_show` function like the one above) finds such
 * lines too, under a head of its own. -1 when none.
 */
function backwardCut(ctx: MergeContext, k: number, ranges: ReadonlyArray<[number, number] | null>): number {
  const seg = ctx.segments[k]!;
  const l = seg.lines;
  const n = l.text.length;
  const alone = (a: number, b: number): ReadonlyArray<readonly [number, number]> => {
    const own = onceAnchors(ctx, fastChains({ ...ctx, segments: [{ ...seg, lines: sliceLines(l, a, b) }] }).chains[0] ?? []);
    return own.length > 0 ? own : sectionClosers(ctx, l, a, b);
  };
  let before: number | null = null;
  for (let x = k - 1; x >= 0 && before === null; x--) before = ranges[x]?.[0] ?? null;
  // The line the segment before ends on, when this one goes on inside its block (open-blocks.ts).
  const opener = resumesInsideOpener(ctx, k);
  const openerIndent = opener < 0 ? -1 : ctx.segments[k - 1]!.lines.indent[opener]!;
  const first = solidRow(l, -1, 1);
  if (first < 0) return -1;
  for (let i = first + 2; i < n; i++) {
    if (!l.blank[i - 1] || l.blank[i]) continue;
    const own = alone(0, i);
    // Lines of the part before that lie below the opener it goes on inside (a twin method's
    // `self.f.close()` under `class Writer:` + marker) say it stays in that block; they fix no place
    // of their own, so it goes where the segment before stands.
    const inOpener = opener >= 0 && before !== null && own.length > 0 && own.every(([, o]) => o > before!);
    // Its anchors must start where it starts (`impl Client {` shown): a new function whose body
    // copies a line from further down is no hunk of that place (set bk go16).
    if (own.length > 0 && own[0]![0] !== first && !inOpener) continue;
    // Without such lines of its own the part before goes on inside that block; the part after leaves it.
    const at = own.length > 0 && !inOpener ? own[0]![1] : l.indent[i]! <= openerIndent ? before : null;
    if (at === null) continue;
    const after = alone(i, n);
    let solid = 0;
    for (let x = i; x < n; x++) if (!l.blank[x]) solid++;
    // Its first line is shown too: a new function copying one above opens with its own new head.
    const headShown = after.length > 0 && after[0]![0] === 0;
    if (!headShown || 2 * after.length < solid || after[after.length - 1]![1] >= at) continue;
    // One line the original has once, then a marker and the next hunk inside the block it opens
    // (`<script lang="ts">` / `// ...` / a function of the script, after the template's hunk): the
    // next segment's anchors are its second.
    const next = after.length === 1 && seg.markerAfter ? ranges[k + 1] : null;
    if (after.length >= 2 || (next && next[0] > after[0]![1] && next[1] < at)) return i;
  }
  return -1;
}

/**
 * Segments cut where their own anchor chain jumps over the anchors of another segment: a hunk
 * written without a marker between the imports and a function far below (`import tempfile`, then
 * `def save`), followed after a marker by a hunk of the code between them. Or where a paragraph
 * goes back above the code before it (backwardCut). The cut gets a marker on each side, so the
 * hunks can go in file order (fileOrder); null when no segment jumps so.
 */
export function splitAtJumps(ctx: MergeContext): Segment[] | null {
  const segs = ctx.segments;
  const ranges = segs.map((_, k) => anchorRange(ctx, k));
  const out: Segment[] = [];
  let cutAny = false;
  segs.forEach((seg, k) => {
    const chain = fastChains({ ...ctx, segments: [seg] }).chains[0] ?? [];
    // A segment going on inside the blocks the one before it left open jumps over that segment's
    // anchors by its copied lines above, not as a second hunk (merge-fast.ts closesBlocksGoingOn).
    const goesOn = closesBlocksGoingOn(ctx, k);
    let cut = -1;
    // At least two anchors on each side: one line of new code that happens to match is no hunk.
    for (let x = 2; x < chain.length - 1 && cut < 0; x++) {
      const o1 = chain[x - 1]![1];
      const o2 = chain[x]![1];
      // Weak or repeated lines (`end`, `if state.job == nil then`) anchor anywhere when a segment is
      // chained alone: only a jump between lines the original has once is believed.
      const once = (o: number): boolean => !ctx.orig.weak[o] && ctx.index.get(ctx.orig.norm[o]!)?.length === 1;
      if (!once(o1) || !once(o2)) continue;
      if (ranges.some((r, k2) => k2 !== k && !(goesOn && k2 === k - 1) && r !== null && r[0] > o1 && r[1] < o2)) cut = chain[x]![0];
    }
    // New lines after the last anchor before the jump stay with it (an import added to the block).
    while (cut > 0 && seg.lines.blank[cut - 1]) cut--;
    if (cut <= 0) cut = backwardCut(ctx, k, ranges);
    if (cut <= 0) {
      out.push(seg);
      return;
    }
    const n = seg.lines.text.length;
    out.push({ lines: sliceLines(seg.lines, 0, cut), markerBefore: seg.markerBefore, markerAfter: true, markerAfterIndent: null });
    out.push({ lines: sliceLines(seg.lines, cut, n), markerBefore: true, markerAfter: seg.markerAfter, markerAfterIndent: seg.markerAfterIndent });
    cutAny = true;
  });
  return cutAny ? out : null;
}
