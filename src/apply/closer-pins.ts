// Rule (b) pins for a repeated closer (`}`, `end`) that the update shows next to a deletion:
//
// - A segment that opens, right after a marker indented deeper than it, with a closer closes the
//   block its predecessor left open (`func GetPolicy(…) {` / indented marker / `}` / `func
//   GetSession`): it is the closer of that opener's original block, not the nearest `}` above the
//   next anchor (the deleted function's own). A marker at the opener's own level may stand for
//   more than its body (`log() {` / `# ...` / `}` / `push() {` has been written for a span of
//   several functions): no pin then. The segment may show the block's last lines before its
//   closer (`-- ...` / `return buf` / `end`): they must be the original's lines right above that
//   closer. An Allman head left open by the marker (`int parse(…)` / `    /* ... */` / `}`, or its
//   `{` shown too) is such an opener when the original's `{` stands alone below it.
// - Where the update keeps the original's indentation at a pinned anchor, the nearest occurrence of
//   a repeated closer is the nearest at the same depth: after a method's `    }`, a column-0 `}` is
//   the class's, not the next method's `    }` (a trailing method deleted by showing the class end).
import { bracketDelta, closesAt } from './brackets.js';
import { showsWholeTail } from './closer-resume.js';
import type { Lines } from './lines.js';
import { solidRow } from './lines.js';

/** A line that only closes: `}`, `});`, `end`, `end;`, `fi`, `esac`, `]`. */
export const CLOSER_ONLY = /^(?:[}\])]+[;,)]*|end[;.]?|fi|esac|done)$/;

/** The row of the innermost block `l` leaves open at its end (net brackets, or a Ruby/Lua opener by indent), or -1. */
function openAtEnd(l: Lines, closerIndent: number): number {
  let depth = 0;
  for (let x = l.text.length - 1; x >= 0; x--) {
    if (l.blank[x]) continue;
    depth += bracketDelta(l.text[x]!);
    if (depth > 0) return l.indent[x] === closerIndent ? x : -1;
  }
  // No bracket left open: an indented block (`def f` / `do`) whose body the marker stands for.
  const last = solidRow(l, l.text.length, -1);
  return last >= 0 && l.indent[last] === closerIndent && /(?:\bdo(?:\s*\|[^|]*\|)?|^(?:def|class|module|function|local function|if|while|for|case|begin)\b.*)$/.test(l.norm[last]!) ? last : -1;
}

/** The original row closing the block headed by row o: by brackets, else the next row at o's depth that only closes. */
function originalCloser(orig: Lines, o: number): number {
  const c = closesAt(orig.text, o);
  if (c >= 0 || bracketDelta(orig.text[o]!) > 0) return c;
  const y = solidRow(orig, o, 1);
  // An Allman head: its block is the lone `{` below it.
  if (allmanHead(orig, o)) return closesAt(orig.text, y);
  if (y < 0 || orig.indent[y]! <= orig.indent[o]!) return -1;
  for (let x = y; x < orig.text.length; x++) {
    if (orig.blank[x] || orig.indent[x]! > orig.indent[o]!) continue;
    return orig.indent[x] === orig.indent[o] && CLOSER_ONLY.test(orig.norm[x]!) ? x : -1;
  }
  return -1;
}

/**
 * Update row i1, the first of segment `seg` (a marker before it), is a closer of the block the
 * previous segment `prev` leaves open, and original row p is that block's closer: the opener is
 * pinned by `pinned` (a line the original has once, or context) and closes at p.
 */
export function closesPreviousOpener(prev: Lines | undefined, markerIndent: number | null | undefined, seg: Lines, i1: number, orig: Lines, p: number, pinned: (prevRow: number) => number | undefined): boolean {
  if (!prev || i1 < 0 || !CLOSER_ONLY.test(seg.norm[i1]!) || !showsBlockTail(seg, i1, orig, p)) return false;
  if (markerIndent === null || markerIndent === undefined || markerIndent <= seg.indent[i1]!) return false;
  const open = openAtEnd(prev, seg.indent[i1]!);
  const u = open >= 0 ? open : solidRow(prev, prev.text.length, -1);
  if (u < 0 || prev.indent[u] !== seg.indent[i1]) return false;
  const o = pinnedOpener(prev, u, orig, pinned);
  if (o === undefined || o >= p) return false;
  // No bracket left open by the update: only an Allman head, whose lone `{` the original has below it.
  if (open < 0 && !allmanHead(orig, o)) return false;
  return originalCloser(orig, o) === p && orig.indent[o]! - orig.indent[p]! === prev.indent[u]! - seg.indent[i1]!;
}

/** The original row of opener row u: pinned itself, or an Allman `{` pinned by the head right above it. */
function pinnedOpener(prev: Lines, u: number, orig: Lines, pinned: (prevRow: number) => number | undefined): number | undefined {
  const o = pinned(u);
  if (o !== undefined || prev.norm[u] !== '{') return o;
  const head = solidRow(prev, u, -1);
  const oh = head < 0 ? undefined : pinned(head);
  return oh !== undefined && allmanHead(orig, oh) ? solidRow(orig, oh, 1) : undefined;
}

/** Original row o is followed by a lone `{` at its indentation (an Allman head). */
function allmanHead(orig: Lines, o: number): boolean {
  const y = solidRow(orig, o, 1);
  return y >= 0 && orig.norm[y] === '{' && orig.indent[y] === orig.indent[o];
}

/**
 * The segment's rows before its closer i1 are the block's last lines: all deeper than the closer,
 * each the original's row above p in turn.
 */
function showsBlockTail(seg: Lines, i1: number, orig: Lines, p: number): boolean {
  for (let x = solidRow(seg, i1, -1); x >= 0; x = solidRow(seg, x, -1)) if (seg.indent[x]! <= seg.indent[i1]!) return false;
  return showsWholeTail(seg, orig, [i1, p]);
}

/**
 * No original row strictly between from and to (exclusive) has the text of `target` at the same
 * indentation, and the update keeps the original's indentation offset at both rows (update rows
 * ua ↔ original a, ub ↔ original b): `target` is the nearest occurrence at its depth.
 */
export function nearestAtDepth(orig: Lines, from: number, to: number, target: number, sameText: (j: number) => boolean, seg: Lines, ua: number, a: number, ub: number, b: number): boolean {
  if (ua < 0 || ub < 0 || seg.indent[ua]! - orig.indent[a]! !== seg.indent[ub]! - orig.indent[b]!) return false;
  for (let j = from + 1; j < to; j++) if (!orig.blank[j] && orig.indent[j] === orig.indent[target] && sameText(j)) return false;
  return true;
}
