// A marker inside a line but outside every bracket of it, where no list reading applies:
// `&& apt-get install -y ... curl \`, `VALUES ('a'), /* ... */, ('d'), ('e')`. The text before the
// marker names the original line (it starts with that text); the marker stands for the original's
// text from there up to where the text after the marker picks it up again: an ending both share
// (a `\` continuation, a `;`, ` FROM t`) stays last; before it, the shown elements either begin with
// the original's last ones (they overlap) or, sharing no word with them, follow all of them.
// Pure text; the caller picks the original line.
import { isMarkerElement } from './inline-elements.js';

/** A marker token in a line: bare dots or a block comment, standing alone between separators. */
const MARKER_TOKEN = /(?<=^|[\s,])(\.\.\.|…|\/\*.*?\*\/|<!--.*?-->)(?=[\s,;]|$)/g;
/** Characters that end an element of an unbracketed list. */
const BOUNDARY = /[\s,]/;

export interface LineElision {
  /** The trimmed line's text before the marker (with its separator): what the original line starts with. */
  head: string;
  /** The text after the marker. */
  tail: string;
  marker: string;
}

/** The one marker token of a trimmed line, outside its brackets and quotes; null when none or several. */
export function lineElision(t: string): LineElision | null {
  const found: Array<{ at: number; text: string }> = [];
  for (const m of t.matchAll(MARKER_TOKEN)) {
    if (isMarkerElement(m[1]!) && depthAt(t, m.index!) === 0) found.push({ at: m.index!, text: m[1]! });
  }
  if (found.length !== 1) return null;
  const { at, text } = found[0]!;
  const head = t.slice(0, at);
  if (head.trim().length < 4 || !/[A-Za-z]/.test(head)) return null;
  return { head, tail: t.slice(at + text.length), marker: text };
}

/** Bracket depth at index k, quotes skipped; -1 when the brackets do not pair up before k. */
function depthAt(t: string, k: number): number {
  let depth = 0;
  for (let i = 0; i < k; i++) {
    const c = t[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const j = t.indexOf(c, i + 1);
      if (j < 0 || j >= k) return -1;
      i = j;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    if (depth < 0) return -1;
  }
  return depth;
}

/** The trimmed original line `o` (which starts with `e.head`) with the marker expanded, or null. */
export function expandElision(e: LineElision, o: string): string | null {
  const rest = o.slice(e.head.length);
  const lead = /^[\s,;]*/.exec(e.tail)![0];
  const shown = e.tail.slice(lead.length);
  // Nothing after the marker: `x: int = ...` is a Python stub's value as much as an elision.
  if (!shown) return null;
  if (!rest.trim()) return null;
  // An ending both share (`\`, `;`, ` FROM users`) stays last; the elements go before it.
  const n = Math.max(commonEnding(rest, shown), closingPunctuation(rest, shown));
  const ending = shown.slice(shown.length - n);
  const before = rest.slice(0, rest.length - n);
  const added = shown.slice(0, shown.length - n);
  // The shown elements begin with the original's last ones: they overlap there.
  for (let k = 0; k < before.length; k++) {
    if ((k > 0 && !BOUNDARY.test(before[k - 1]!)) || BOUNDARY.test(before[k]!)) continue;
    const end = before.slice(k);
    if (end.length >= 3 && /\w/.test(end) && added.startsWith(end) && (added.length === end.length || /[\s,;)\]}\\]/.test(added[end.length]!))) {
      return e.head + before.slice(0, k) + added + ending;
    }
  }
  // Nothing shared: the shown elements come after all of the original's (a shared word would be a
  // repeat or an edit, which this cannot tell apart).
  const words = new Set(before.split(/[\s,]+/).filter(Boolean));
  if (added.split(/[\s,]+/).some((w) => words.has(w))) return null;
  return e.head + before + lead + added + ending;
}

/** Length of the longest ending `a` and `b` share that starts at an element boundary in both and leaves `b` something before it. */
function commonEnding(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  for (; n > 0; n--) {
    if (n >= b.length) continue;
    const startsAtBoundary = (s: string) => BOUNDARY.test(s[s.length - n]!) || BOUNDARY.test(s[s.length - n - 1] ?? ' ');
    if (startsAtBoundary(a) && startsAtBoundary(b) && b.slice(0, b.length - n).trim()) return n;
  }
  return 0;
}

/** Length of the closing punctuation (`;`, `:`, `)`, `\\`) both end with, glued to their last elements (`"OPTIONS":`). */
function closingPunctuation(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length - 1 && a[a.length - 1 - n] === b[b.length - 1 - n] && /[;:)\]}\\]/.test(a[a.length - 1 - n]!)) n++;
  return n;
}
