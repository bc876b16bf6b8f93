// A snippet that leaves blocks open in its middle: the changed lines of a block, then at once a
// line the original has further out (the next function's head), with the block's closing lines
// left out (`self.coyote = 0`, blank, `function Player:update(dt)`, and no `end` / `end` between).
// The dedent says the blocks ended there; read by adjacency alone (rule (b)), the original's
// closing lines would count as deleted. The update is read with those closing lines written in,
// copied from the original, in the merge and in the no-loss check alike (unclosed-tail.ts does
// the same for a snippet that stops inside its blocks at its end).
//
// Only where the line after the gap is an original line found once in the original, not itself a
// closing line, and shown less indented than the line before it; the original has, right before
// that line (blank lines aside), lines that only close (CLOSER_ONLY) at or right of its
// indentation; an earlier line of the same segment is an original line found once, inside the
// block those closers end (every line from it to the closers lies deeper than the line after the
// gap); and the segment shows none of those closing lines itself.
//
// The new lines stand for the rest of the block only where they carry its names (unclosed-tail.ts
// `carried`): a new `case` written after the last one shown, then the next function, leaves the
// block's `default:` arm unshown, not deleted. A marker goes before the closers then, so the rest
// between the last shown original line and the closers stays.
import { openedAt } from './brackets.js';
import { CLOSER_ONLY } from './closer-pins.js';
import { splitLines, type Lines } from './lines.js';
import { buildIndex } from './merge-context.js';
import { markerLines } from './markers.js';
import { carried, names } from './unclosed-tail.js';

/** Closing-only original lines right before row j (blank lines between them and j skipped), in file order. */
function closersBefore(orig: Lines, j: number): number[] {
  let y = j - 1;
  while (y >= 0 && orig.blank[y]) y--;
  const out: number[] = [];
  for (; y >= 0 && !orig.blank[y] && CLOSER_ONLY.test(orig.norm[y]!) && orig.indent[y]! >= orig.indent[j]!; y--) out.unshift(y);
  return out;
}

/** Some update line in [from, to] is the original row i, found once, inside the block that ends at row `end` (all rows between deeper than `level`). */
function opensInSegment(u: Lines, orig: Lines, from: number, to: number, end: number, level: number, rowOf: (norm: string) => number): boolean {
  for (let p = from; p <= to; p++) {
    if (u.blank[p]) continue;
    const i = rowOf(u.norm[p]!);
    if (i < 0 || i >= end || orig.indent[i]! < level) continue;
    let inside = true;
    for (let y = i + 1; y < end && inside; y++) if (!orig.blank[y] && orig.indent[y]! <= level) inside = false;
    if (inside) return true;
  }
  return false;
}

/** The update's closing-only lines that end at row a (blank lines end the run), in order. */
function closingRun(u: Lines, from: number, a: number): number[] {
  const run: number[] = [];
  for (let x = a; x >= from && !u.blank[x] && CLOSER_ONLY.test(u.norm[x]!); x--) run.unshift(x);
  return run;
}

/** Original lines searched above a closer for the line it closes. */
const MAX_OPENER_REACH = 400;

/**
 * Update row x is original closer y written under its opener: the line y closes is shown in
 * [from, x) and x stands as far right of it as y stands of that line in the original.
 */
function closesShownOpener(u: Lines, orig: Lines, from: number, x: number, y: number): boolean {
  const h = openedAt(orig.text, y, Math.max(0, y - MAX_OPENER_REACH));
  if (h < 0) return false;
  for (let xh = x - 1; xh >= from; xh--) {
    if (u.blank[xh] || u.norm[xh] !== orig.norm[h]) continue;
    return rel(u, x, xh) === rel(orig, y, h);
  }
  return false;
}

/** Row y's indentation relative to row base's. */
const rel = (l: Lines, y: number, base: number): number => l.indent[y]! - l.indent[base]!;

/** The update with the closing lines its segments leave out before a dedent written in (unchanged when none). */
export function closeUnclosedMiddles(update: string, code: string): string {
  const u = splitLines(update);
  const orig = splitLines(code);
  const isMarker = markerLines(u.text, orig.text);
  const rows = buildIndex(orig);
  const rowOf = (norm: string): number => {
    const r = rows.get(norm);
    return r && r.length === 1 ? r[0]! : -1;
  };
  const inserts = new Map<number, number[]>();
  // Rows after which the rest of the block is left out (a marker goes before the closers).
  const unshown = new Set<number>();
  let segStart = 0;
  let prev = -1;
  for (let b = 0; b < u.text.length; b++) {
    if (u.blank[b]) continue;
    if (isMarker[b]) {
      segStart = b + 1;
      prev = -1;
      continue;
    }
    const a = prev;
    prev = b;
    // A closing line after the dedent is the update closing blocks itself.
    if (a < 0 || u.indent[a]! <= u.indent[b]! || CLOSER_ONLY.test(u.norm[b]!)) continue;
    const j = rowOf(u.norm[b]!);
    if (j < 0) continue;
    const closers = closersBefore(orig, j);
    // The update may close the inner blocks itself (an `if`'s `end`) and leave out the outer ones
    // (the method's): the closers it shows right before the dedent are the original's first ones.
    const run = closingRun(u, segStart, a);
    if (run.length >= closers.length || run.some((x, k) => u.norm[x] !== orig.norm[closers[k]!] || rel(u, x, b) !== rel(orig, closers[k]!, j))) continue;
    const left = closers.slice(run.length);
    if (!opensInSegment(u, orig, segStart, a, closers[0]!, orig.indent[j]!, rowOf)) continue;
    let shown = false;
    for (let x = segStart; x <= a && !shown; x++) {
      // At another depth (relative to the line after the gap) an equal closer closes another block.
      // Under its opener, shown re-indented (a call wrapped in a new block), it sits where that opener says.
      shown = !run.includes(x) && left.some((y) => orig.norm[y] === u.norm[x] && (rel(u, x, b) === rel(orig, y, j) || closesShownOpener(u, orig, segStart, x, y)));
    }
    if (shown) continue;
    inserts.set(a, left);
    if (restUnshown(u, orig, segStart, a, closers[0]!, rowOf)) unshown.add(a);
  }
  if (inserts.size === 0) return update;
  let out = '';
  for (let x = 0; x < u.text.length; x++) {
    out += u.text[x]! + u.eol[x]!;
    if (unshown.has(x)) out += ' '.repeat(u.indent[x]!) + '...' + u.eol[x]!;
    for (const y of inserts.get(x) ?? []) out += orig.text[y]! + u.eol[x]!;
  }
  return out;
}

/**
 * The original has lines between the segment's last original line (found once, in [from, a], inside
 * the block: deeper than its closer) and
 * the closers at `closer`, and the new lines after that line do not carry their names: the writer
 * added lines there and stopped, leaving the rest of the block out.
 */
function restUnshown(u: Lines, orig: Lines, from: number, a: number, closer: number, rowOf: (norm: string) => number): boolean {
  let x = a;
  while (x >= from && (u.blank[x] || rowOf(u.norm[x]!) < 0)) x--;
  // A file whose own lines hold a bare `...` would read the marker as code.
  if (x < from || x === a || orig.norm.some((n) => n === '...' || n === '…')) return false;
  const at = rowOf(u.norm[x]!);
  // Shown only down to the block's head (`fn checksum(…) {`), the new lines are its whole new body.
  if (at >= closer || orig.indent[at]! <= orig.indent[closer]!) return false;
  const used = new Set<string>();
  for (let y = x + 1; y <= a; y++) for (const n of names(u.norm[y]!)) used.add(n);
  for (let y = at + 1; y < closer; y++) {
    if (orig.blank[y]) continue;
    if (!carried(names(orig.norm[y]!), used)) return true;
  }
  return false;
}
