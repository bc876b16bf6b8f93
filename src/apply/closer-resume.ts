// A segment that opens with closing lines after a marker: `func Mean() {`, an indented
// `// ... existing code ...`, then `}` (or `});`, `end`, `)` of an import list). The marker stands
// for the rest of the block the previous segment opened, so the segment's first line is that block's
// own closing line in the original — not the first equal `}` a new function below it brings, and not
// the end of the file when the update stops there. Found by structure: the previous segment's opener
// at the closer's indentation, its place in the original, and the first original line back at that
// opener's level after it.
import { CLOSER_LINE, editedVersion, solidRow, type Lines } from './lines.js';
import type { Segment } from './merge-context.js';
import { startsWithCloser } from './brackets.js';
import { withoutSeparator } from './member-separators.js';

/**
 * `)` → `),`, `}` → `};`: the same closing line with a separator added or dropped (an item added after
 * the list it closes) is that line edited, rule (a), though closers are too weak to be edits by text.
 */
export function closerRepunctuated(a: string, b: string): boolean {
  if (a === b || !startsWithCloser(a) || !startsWithCloser(b)) return false;
  const base = a.replace(/[,;]$/, '');
  if (base === b.replace(/[,;]$/, '')) return true;
  // `}` → `} ~ healthRoute`, `});` → `}).catch(fail);`: the block still closes there, more follows.
  if (/^[)}\]]+$/.test(base) && b.startsWith(base) && /^(?:\s+[^)}\]\s]|\.)/.test(b.slice(base.length))) return true;
  return argumentAddedAfter(a, b);
}

/**
 * `]);` → `], 'sms');`, `});` → `}, { once: true });`: a call whose last argument is a literal over
 * several lines gains an argument after it (a caller of a changed signature); the line still closes
 * both, the new argument between the inner closer and the call's.
 */
function argumentAddedAfter(a: string, b: string): boolean {
  const m = /^([)}\]]{2,})([,;]?)$/.exec(a);
  if (!m) return false;
  const [, closers, sep] = m as unknown as [string, string, string];
  for (let i = 1; i < closers.length; i++) {
    const inner = closers.slice(0, i);
    const outer = closers.slice(i) + sep;
    if (b.startsWith(`${inner},`) && b.endsWith(outer) && b.length > inner.length + outer.length + 2 && !/[)}\]]/.test(b.slice(inner.length + 1, b.length - outer.length).trim().slice(0, 1))) return true;
  }
  return false;
}

function firstContent(l: Lines): number {
  let f = 0;
  while (f < l.text.length && l.blank[f]) f++;
  return f;
}

/** True when every content line of the segment only closes blocks (`});`, `}`, `end`). */
export function closersOnly(seg: Segment): boolean {
  const l = seg.lines;
  let any = false;
  for (let i = 0; i < l.text.length; i++) {
    if (l.blank[i]) continue;
    if (!CLOSER_LINE.test(l.norm[i]!)) return false;
    any = true;
  }
  return any;
}

/**
 * [segment line, original line] for the segment's closer (its first line, or the one after the
 * block's last lines shown, which tailPairs pairs) when it closes the block whose opener the previous segment shows (matched at `prevPairs`) and left open across a marker indented deeper
 * than the closer; null otherwise.
 */
export function closerResume(o: Lines, prev: Segment, prevPairs: ReadonlyArray<readonly [number, number]>, seg: Segment): [number, number] | null {
  if (!seg.markerBefore || prev.markerAfterIndent === null) return null;
  const s = seg.lines;
  const f = CLOSER_LINE.test(s.norm[firstContent(s)] ?? '') ? firstContent(s) : closerAfterTail(s, prev.lines, prev.markerAfterIndent);
  if (f < 0) return null;
  const level = s.indent[f]!;
  if (prev.markerAfterIndent <= level) return null;
  // The previous segment's last line at or left of the closer's level is the block's opener.
  const p = prev.lines;
  let x = p.text.length - 1;
  while (x >= 0 && (p.blank[x] || p.indent[x]! > level)) x--;
  if (x < 0 || p.indent[x] !== level || CLOSER_LINE.test(p.norm[x]!)) return null;
  const pair = prevPairs.find(([i]) => i === x);
  if (!pair) return null;
  const jp = pair[1];
  for (let y = jp + 1; y < o.text.length; y++) {
    if (o.blank[y] || o.indent[y]! > o.indent[jp]!) continue;
    // An Allman head's own `{` below it opens the block; its closer comes after.
    if (o.norm[y] === '{' && y === solidRow(o, jp, 1)) continue;
    // Its separator added or dropped (a member appended after it, or a marker after it) is the same closer.
    return o.indent[y] === o.indent[jp] && (o.norm[y] === s.norm[f] || closerRepunctuated(o.norm[y]!, s.norm[f]!)) && (showsWholeTail(s, o, [f, y]) || rewritesTail(s, o, f, jp, y)) ? [f, y] : null;
  }
  return null;
}

/**
 * The closer a segment shows after the last lines of the block the previous segment left open
 * (`return buf` / `end`): its first row back at that block's opener's indentation, every row before
 * it deeper; -1 when that row is no closer.
 */
function closerAfterTail(s: Lines, prev: Lines, markerIndent: number): number {
  let x = solidRow(prev, prev.text.length, -1);
  while (x >= 0 && prev.indent[x]! >= markerIndent) x = solidRow(prev, x, -1);
  if (x < 0) return -1;
  const level = prev.indent[x]!;
  for (let y = firstContent(s); y < s.text.length; y++) {
    if (s.blank[y] || s.indent[y]! > level) continue;
    return s.indent[y] === level && CLOSER_LINE.test(s.norm[y]!) ? y : -1;
  }
  return -1;
}

/**
 * The segment's lines before the closer rewrite the open block's last lines (`proxy_read_timeout 60s;`
 * shown as `300s;`, a new directive after it): none of them stands anywhere in the original as it is (but for a trailing separator),
 * and one is an edit of a line between the block's opener `jp` and its closer `y`. Such lines can only
 * belong to that block; lines the original has elsewhere may be another block's (a sibling object's key).
 */
function rewritesTail(s: Lines, o: Lines, f: number, jp: number, y: number): boolean {
  let edited = false;
  for (let x = solidRow(s, f, -1); x >= 0; x = solidRow(s, x, -1)) {
    const own = withoutSeparator(s.norm[x]!);
    if (o.norm.some((n) => withoutSeparator(n) === own)) return false;
    for (let j = jp + 1; j < y && !edited; j++) if (!o.blank[j] && editedVersion(o.norm[j]!, s.norm[x]!)) edited = true;
  }
  return edited;
}

/** Every solid segment line before the closer is the original's line in turn right above its closer (tailPairs). */
export function showsWholeTail(s: Lines, o: Lines, closer: readonly [number, number]): boolean {
  let before = 0;
  for (let x = 0; x < closer[0]; x++) if (!s.blank[x]) before++;
  return tailPairs(s, o, closer).length === before;
}

/**
 * The segment's lines before a resumed closer ([segment row, original row]) paired with the
 * original lines right above that closer, as far as they read the same (the block's last lines).
 */
export function tailPairs(s: Lines, o: Lines, closer: readonly [number, number]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let j = closer[1];
  for (let x = solidRow(s, closer[0], -1); x >= 0; x = solidRow(s, x, -1)) {
    j = solidRow(o, j, -1);
    if (j < 0 || s.norm[x] !== o.norm[j]) break;
    out.unshift([x, j]);
  }
  return out;
}

/**
 * Head pairs grown back from a segment's first anchor over a closing line whose opener the segment
 * itself shows unmatched (`fn invalid(…) {`, its body, `}`, blank, then the anchor): that `}` closes
 * the new function, not the original block ending there (a struct's `}`). Drops the head pairs up to
 * and including the first such closer, so the new lines go after the original's.
 */
export function dropNewBlockClosers(s: Lines, head: Array<[number, number]>): void {
  if (head.length === 0) return;
  const paired = new Set(head.map(([i]) => i));
  let cut = -1;
  for (let h = 0; h < head.length; h++) {
    const x = head[h]![0];
    if (s.blank[x] || !CLOSER_LINE.test(s.norm[x]!)) continue;
    // Its opener: the nearest line above at the closer's level or left of it.
    let y = x - 1;
    while (y >= 0 && (s.blank[y] || s.indent[y]! > s.indent[x]!)) y--;
    if (y >= 0 && !paired.has(y) && !CLOSER_LINE.test(s.norm[y]!)) cut = h;
  }
  if (cut >= 0) head.splice(0, cut + 1);
}
