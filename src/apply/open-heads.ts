// A snippet that opens with the heads of the blocks it edits and never closes the outer one
// (`module Billing` / `class SubscriptionRenewer` / marker …, no `end`s; `extension Api {` /
// `struct Page {` / …): the heads are a path to the place of the edit, not a claim that they stand
// next to each other. Read by adjacency alone (rule (b)), the original lines between two such heads
// (a doc comment, an annotation, the members before the edited one) would count as deleted. The
// update is read with those lines written in, copied from the original, in the merge and in the
// no-loss check alike (as unclosed-middle.ts does for closers left out before a dedent).
//
// Only for the update's first lines: a head the update leaves open (every later line is deeper,
// an Allman `{` right under it aside), followed by an original line found once that heads a block
// itself (the next line is deeper, or an opening bracket alone), both at the original's indentation,
// the second inside the first's block in the original. Not from the file's first line in an update
// without markers, which may be the whole new file.
import { solidRow, splitLines, type Lines } from './lines.js';
import { buildIndex } from './merge-context.js';
import { markerLines } from './markers.js';

/** A line that is only opening brackets (Allman style): it belongs to the head above it. */
const OPENER_ONLY = /^[{([]+$/;

/** Update line x opens a block: the next line is deeper, or an opening bracket alone at its indentation. */
function headsBlock(u: Lines, x: number): boolean {
  const n = solidRow(u, x, 1);
  return n >= 0 && (u.indent[n]! > u.indent[x]! || (u.indent[n] === u.indent[x] && OPENER_ONLY.test(u.norm[n]!)));
}

/** Every update line after x (an opening bracket alone right under it aside) is deeper than x: the update leaves x's block open. */
function leftOpen(u: Lines, x: number): boolean {
  let y = solidRow(u, x, 1);
  if (y >= 0 && u.indent[y] === u.indent[x] && OPENER_ONLY.test(u.norm[y]!)) y = solidRow(u, y, 1);
  if (y < 0) return false;
  for (; y >= 0; y = solidRow(u, y, 1)) if (u.indent[y]! <= u.indent[x]!) return false;
  return true;
}

/** Original rows (i, j) lie in one block headed at i: no row between is at or left of i's indentation (an opening bracket alone aside). */
function inside(orig: Lines, i: number, j: number): boolean {
  if (orig.indent[j]! <= orig.indent[i]! && !OPENER_ONLY.test(orig.norm[j]!)) return false;
  for (let y = i + 1; y < j; y++) {
    if (orig.blank[y] || orig.indent[y]! > orig.indent[i]!) continue;
    if (y === i + 1 && OPENER_ONLY.test(orig.norm[y]!)) continue;
    return false;
  }
  return true;
}

/** The update with the original lines between its leading open heads written in (unchanged when none). */
export function showHeadPath(update: string, code: string): string {
  const u = splitLines(update);
  const orig = splitLines(code);
  const isMarker = markerLines(u.text, orig.text);
  const rows = buildIndex(orig);
  const rowOf = (x: number): number => {
    const r = rows.get(u.norm[x]!);
    return r && r.length === 1 && orig.indent[r[0]!] === u.indent[x] ? r[0]! : -1;
  };
  const inserts = new Map<number, [number, number]>();
  let a = solidRow(u, -1, 1);
  // From the file's first line, without markers, it may be the whole new file (loss.ts readsAsWholeFile): that reading decides.
  let i = a >= 0 ? rowOf(a) : -1;
  if (i === solidRow(orig, -1, 1) && !isMarker.includes(true)) return update;
  while (a >= 0 && i >= 0) {
    const b = solidRow(u, a, 1);
    if (b < 0 || isMarker[b]) break;
    const opener = OPENER_ONLY.test(u.norm[b]!);
    // An opening bracket alone is the one right under the head's original row.
    const next = solidRow(orig, i, 1);
    const j = opener ? (next >= 0 && orig.norm[next] === u.norm[b] ? next : -1) : rowOf(b);
    if (j <= i || (!opener && !headsBlock(u, b)) || !leftOpen(u, a) || !inside(orig, i, j)) break;
    if (j > i + 1) inserts.set(a, [i + 1, j]);
    [a, i] = [b, j];
  }
  if (inserts.size === 0) return update;
  let out = '';
  for (let x = 0; x < u.text.length; x++) {
    out += u.text[x]! + u.eol[x]!;
    const gap = inserts.get(x);
    if (gap) for (let y = gap[0]; y < gap[1]; y++) out += orig.text[y]! + (u.eol[x] || u.dominantEol);
  }
  return out;
}
