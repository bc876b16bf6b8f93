// Edges a lazy update leaves unsaid. A model often opens its snippet at the function it edits
// (no `// ... existing code ...` above it) or stops after the change (none below it), yet writes
// markers elsewhere: the snippet is not the file. An update with markers never vouches for the
// file's edges (src/apply/loss.ts), so the code before the first hunk and after the last one stays;
// placing the hunk as if the marker were there puts new lines where the anchors say instead of
// deleting the file's head and having the no-loss pass put it back out of order.
import { newTrailingDefinitions } from './appended-definition.js';
import { codeBracketDelta } from './brackets.js';
import { closersOnly } from './closer-resume.js';
import { editsEdgeLine } from './edge-line-edit.js';
import { editsFileTail } from './edited-tail.js';
import { editedVersion, firstToken } from './lines.js';
import { firstAtOrAbove, strongLines, type MergeContext, type Segment } from './merge-context.js';
import { insideBlockBeforeEnd } from './open-blocks.js';

/** Original lines at the edge compared with the segment's: equal ones mean the segment does show the edge. */
const EDGE_LINES = 2;

function contentLines(l: Segment['lines']): number[] {
  const out: number[] = [];
  for (let i = 0; i < l.text.length; i++) if (!l.blank[i]) out.push(i);
  return out;
}

/** Some strong line of the segment occurs in the original: the segment has an anchor to stand on. */
function anchored(ctx: MergeContext, seg: Segment): boolean {
  for (const i of strongLines(seg)) {
    const pos = ctx.index.get(seg.lines.norm[i]!);
    if (pos && firstAtOrAbove(pos, 0) < pos.length) return true;
  }
  return false;
}

/** Lines a unique anchor may sit above the place that ending at the file's end gives it. */
const END_SLACK = 3;

/**
 * Some strong line of the segment occurs once in the original, above where it would be if the
 * segment's last line were the file's last line: the segment stands there, not at the end.
 */
function anchoredAwayFromEnd(ctx: MergeContext, seg: Segment): boolean {
  const s = seg.lines;
  const o = ctx.orig;
  let sLast = s.text.length - 1;
  while (sLast > 0 && s.blank[sLast]) sLast--;
  let oLast = o.text.length - 1;
  while (oLast > 0 && o.blank[oLast]) oLast--;
  for (const i of strongLines(seg)) {
    const pos = ctx.index.get(s.norm[i]!);
    if (pos && pos.length === 1 && pos[0]! < oLast - (sLast - i) - END_SLACK) return true;
  }
  return false;
}

/** Segment lines and original lines examined for an edited anchor. */
const MAX_EDITED_LINES = 24;
const MAX_EDITED_WINDOW = 20_000;

/**
 * Some strong line of the segment reads as an edit of an original line (`"x" % "1.4.14",` for the
 * line without its comma): the segment is placed on it (unanchored-placement.ts similarAnchor), so it stands
 * inside the file as much as an exactly anchored one does.
 */
function editedAnchor(ctx: MergeContext, seg: Segment): boolean {
  const o = ctx.orig;
  const s = seg.lines;
  let seen = 0;
  for (const i of strongLines(seg)) {
    if (seen++ >= MAX_EDITED_LINES) break;
    const lead = firstToken(s.norm[i]!);
    for (let j = 0; j < o.text.length && j < MAX_EDITED_WINDOW; j++) {
      if (!o.weak[j] && firstToken(o.norm[j]!) === lead && editedVersion(o.norm[j]!, s.norm[i]!)) return true;
    }
  }
  return false;
}

/** Net brackets the segments before the last leave open (quoted text and `//` comments skipped). */
function leftOpen(segs: Segment[]): number {
  let depth = 0;
  for (let k = 0; k + 1 < segs.length; k++) for (const t of segs[k]!.lines.text) depth += codeBracketDelta(t);
  return depth;
}

/** The last segment, after a marker, closes more blocks than it opens, all of them left open before it. */
function closesEarlierBlocks(segs: Segment[]): boolean {
  const last = segs[segs.length - 1]!;
  if (segs.length < 2 || !last.markerBefore) return false;
  let own = 0;
  for (const t of last.lines.text) own += codeBracketDelta(t);
  return own < 0 && leftOpen(segs) >= -own;
}

/**
 * The segment ends on a closing line, closes more brackets than it opens, and opens no block of its
 * own on the way (new lines of a block left open, then its closer: `, timeout = 30` / `}`).
 */
function endsClosingMore(seg: Segment): boolean {
  const l = seg.lines;
  let last = l.text.length - 1;
  while (last >= 0 && l.blank[last]) last--;
  if (last < 0 || !/^[)\]}]+[;,]?$/.test(l.norm[last]!)) return false;
  let net = 0;
  for (const t of l.text) {
    net += codeBracketDelta(t);
    if (net > 0) return false;
  }
  return net < 0;
}

/** The segment's first (last) content lines equal the original's first (last) ones. */
function showsEdge(ctx: MergeContext, seg: Segment, side: 'head' | 'tail'): boolean {
  const o = ctx.orig;
  const oc: number[] = [];
  for (let j = 0; j < o.text.length; j++) if (!o.blank[j]) oc.push(j);
  const sc = contentLines(seg.lines);
  const closers = closersOnly(seg);
  const n = Math.min(EDGE_LINES, oc.length, sc.length);
  if (n === 0) return false;
  for (let x = 0; x < n; x++) {
    const j = side === 'head' ? oc[x]! : oc[oc.length - 1 - x]!;
    const i = side === 'head' ? sc[x]! : sc[sc.length - 1 - x]!;
    // The edge line itself may be edited when the line next to it is shown unchanged (edge-line-edit.ts).
    if (x === 0 && n > 1 && !closers && editsEdgeLine(o.norm[j]!, seg.lines.norm[i]!)) continue;
    if (o.norm[j] !== seg.lines.norm[i]) return false;
    // Closing lines alone (`    }` after a marker) show the file's end only at its indentation.
    if (closers && o.indent[j] !== seg.lines.indent[i]) return false;
  }
  return true;
}

/**
 * The update's segments with the markers it implies at its edges: when the update has markers, an
 * anchored first segment that does not start with the original's first lines gets a marker before
 * it, an anchored last segment that does not end with the original's last lines one after it.
 * Ending with them is not enough when a line of the segment that the original has once lies well
 * before the file's end: files end alike (a handler's `writeJSON(w, …)` / `}` that its twin at the
 * file's end repeats), and the segment stands where that line is.
 * Returns null when nothing changes.
 */
export function impliedEdgeMarkers(ctx: MergeContext, hasMarkers: boolean): Segment[] | null {
  const segs = ctx.segments;
  if (!hasMarkers || segs.length === 0) return null;
  const first = segs[0]!;
  const last = segs[segs.length - 1]!;
  // An edited line stands the first segment inside the file as much as an exact one (an update
  // opening on a changed line deep in the file, `security_groups = [...]`, with no marker above it).
  const before = !first.markerBefore && (anchored(ctx, first) || editedAnchor(ctx, first)) && !showsEdge(ctx, first, 'head');
  // A last segment of closing lines after a marker (`});`, `}`) closes blocks an earlier segment
  // opened (closer-resume.ts); it does not say the file ends there.
  // So does one of new lines ending in such closers (`, cfgTimeout = …` / `}` after a record's
  // opening line, open-block-closer.ts): it closes more than it opens.
  const closing = segs.length > 1 && last.markerBefore && (closersOnly(last) || endsClosingMore(last));
  // Closers of blocks the earlier segments left open close those blocks, wherever they end, not the
  // file: its last `}` looking the same says nothing (held-out set g go03: `func … {` / hunk / marker / `}`).
  // So do the closers ending a last segment of new code after a marker (`class C {` / marker / a new
  // method / `}`): more closed than opened, blocks the earlier segments left open (closer-anchors.ts
  // closingTail pairs them with those blocks' own closing lines).
  // And a last segment inside the block of a unique line that ends before the file (open-blocks.ts).
  const closesOpened = closesEarlierBlocks(segs) || insideBlockBeforeEnd(ctx);
  const after = !last.markerAfter && (anchored(ctx, last) || closing || closesOpened || editedAnchor(ctx, last)) &&
    ((closing && leftOpen(segs) > 0) || closesOpened || !((showsEdge(ctx, last, 'tail') || editsFileTail(ctx, last)) && !anchoredAwayFromEnd(ctx, last)));
  // New definitions after a marker (two F# tests after `// ... existing tests ...`) are appended,
  // whatever lines they copy from the last one (appended-definition.ts): the file ends after them.
  const appended = after && last.markerBefore && newTrailingDefinitions(last.lines, ctx.orig);
  if (!before && (!after || appended)) return null;
  return segs.map((seg, k) => ({
    ...seg,
    markerBefore: seg.markerBefore || (before && k === 0),
    markerAfter: seg.markerAfter || (after && !appended && k === segs.length - 1),
  }));
}
