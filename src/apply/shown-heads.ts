// The heads an update shows a line under, read across markers: `api:`, an indented `# ...`, then
// `volumes:` shows `volumes:` under `api:`, because a marker written right under a head shown alone
// (a segment of that one line, as a location) and indented deeper than it stands for lines inside
// that head's block. A
// marker after a body line, or at or left of a head's indentation, may stand for the lines that
// close that block and open others (the rest of one function, then the next): heads above it say
// nothing about lines below it.
// (merge-context.ts `headerOf` reads one segment only; a head shown, then a marker, then the child
// edited is how models write an edit under one of several parents.)
import type { Segment } from './merge-context.js';
import { solidRow, type Lines } from './lines.js';
import { headDepth, isHeading } from './flat-sections.js';

/** A line of the update: segment index and row in that segment's lines. */
export type UpdateRow = readonly [number, number];

const headsCache = new WeakMap<readonly Segment[], Array<Array<UpdateRow | null>>>();

/**
 * Per segment line: the nearest non-blank update line above it indented less, across markers as
 * above; null when none. `isHead` says a line opens a block (by its text, or where the original has
 * it with a deeper line below): a statement followed by a deeper marker is no head. Cached per
 * segment list: a list is cut from one update against one original, and every caller builds
 * `isHead` from that original (foreign-head.ts).
 */
export function crossMarkerHeads(segments: readonly Segment[], isHead: (norm: string) => boolean, placedUnder?: PlacedUnder): Array<Array<UpdateRow | null>> {
  const hit = headsCache.get(segments);
  if (hit) return hit;
  const out: Array<Array<UpdateRow | null>> = [];
  const stack: Array<{ at: UpdateRow; indent: number }> = [];
  segments.forEach((seg, k) => {
    const l = seg.lines;
    const row: Array<UpdateRow | null> = new Array(l.text.length).fill(null);
    let absorbed = 0;
    for (let y = 0; y < l.text.length; y++) {
      if (l.blank[y]) continue;
      // An Allman `{` under its head (same indentation) belongs to that head: the body's head is the head line.
      const top = stack[stack.length - 1];
      if (l.norm[y] === '{' && top && top.at[0] === k && top.at[1] === y - 1 && top.indent === l.indent[y]) {
        row[y] = stack[stack.length - 2]?.at ?? null;
        absorbed++;
        continue;
      }
      const depth = headDepth(l, y);
      while (stack.length > 0 && stack[stack.length - 1]!.indent >= depth) stack.pop();
      if (stack.length > 0) row[y] = stack[stack.length - 1]!.at;
      stack.push({ at: [k, y], indent: depth });
    }
    out.push(row);
    if (!seg.markerAfter) return;
    // Only a marker written right under a head, deeper than it, stands inside that head's block: one
    // after a body line at its own depth may stand for the rest of that block and the blocks after it.
    const m = seg.markerAfterIndent;
    // Carried only from a segment that is nothing but heads, each inside the one before (`e2e:`,
    // `steps:`; `class B {`): the update names where the next lines go. A hunk that ends on the next
    // function's head as context, then a marker, may go on anywhere (the marker stands for that
    // function's body and whatever follows it).
    // The segment must be one line that opens a block (an Allman `{` with it): a run of heads shown
    // as a hunk's context (`function show()`, `{`, `if (!user) {`) then a marker is as often a hunk
    // that goes on elsewhere (generated edits lost exact matches to it).
    const top = stack[stack.length - 1];
    const own = stack.filter((e) => e.at[0] === k);
    const solid = l.blank.filter((b) => !b).length;
    const headsOnly = own.length === 1 && own.length + absorbed === solid && isHead(l.norm[own[0]!.at[1]]!);
    // A flat section header (`[program:web]`) heads every line up to the next header: a marker inside
    // the section stands for some of its lines, and the lines after it are still the section's.
    // Not a Markdown heading: a marker in a document as often stands for the rest of the section and
    // the sections after it (25b md01: a table row after a marker under `## Installation`).
    const section = stack[0] !== undefined && stack[0].indent < 0 && m !== null && !isHeading(segments[stack[0].at[0]]!.lines, stack[0].at[1]) ? stack[0] : undefined;
    // Or a hunk that ends on a head, then a marker under it, where the next hunk's first line the
    // original has stands, at one of its places, under those same heads (`e2e:`, its `runs-on:`,
    // `steps:`, a marker, then `- name: Run e2e`): the original agrees the marker stays inside the
    // head. (Any hunk inside a head of its own, ending on a body line, made a generated edit lossy.)
    const endsOnHead = top !== undefined && top.at[0] === k && top.at[1] === solidRow(l, l.text.length, -1) && isHead(l.norm[top.at[1]]!);
    const confirmed = !headsOnly && endsOnHead && m !== null && top.indent < m && placedUnder !== undefined && k + 1 < segments.length &&
      placedUnder(stack.map((e) => e.at).reverse(), segments[k + 1]!.lines, top.indent);
    // Or a hunk that ends on a head with a marker under it, then goes on at that head's own depth
    // (`resources:`, `# ... unchanged ...`, `readinessProbe:`): the marker stands for that head's
    // body, and the next line is its sibling under the same outer heads.
    const besideBody = !headsOnly && endsOnHead && m !== null && top.indent < m && stack.length >= 2 && k + 1 < segments.length &&
      firstSolidDepth(segments[k + 1]!.lines) === top.indent;
    if (m === null || !top || top.at[0] !== k || top.indent >= m || !(headsOnly || confirmed || besideBody)) stack.length = 0;
    if (section && stack.length === 0) stack.push(section);
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= m!) stack.pop();
  });
  headsCache.set(segments, out);
  return out;
}

/** Depth (as the heads are read) of the first non-blank line of `l`, or -1 when it has none. */
function firstSolidDepth(l: Lines): number {
  const y = solidRow(l, -1, 1);
  return y < 0 ? -1 : headDepth(l, y);
}

/**
 * The first strong line of `next` (indented deeper than `depth`) that the original has stands, at
 * one of its places there, under the heads `heads` (update rows, innermost first).
 */
export type PlacedUnder = (heads: UpdateRow[], next: Lines, depth: number) => boolean;

/** The head of update line (k, i) across markers, or null. */
export function headAcross(segments: readonly Segment[], k: number, i: number, isHead: (norm: string) => boolean, placedUnder?: PlacedUnder): UpdateRow | null {
  return crossMarkerHeads(segments, isHead, placedUnder)[k]?.[i] ?? null;
}
