// A snippet that wraps existing lines in a new block (`do {` … `} catch {` … `}`, `try {` …,
// `x = f() catch |err| {` … `};`) closes that block with a line equal to the original's closers.
// Such a closer is new: it closes the block the update opened, so it must not be paired with the
// original's next `}` (that would replace the original lines up to it, or stop the segment there).
// Closers are matched by structure: a segment closer and an original closer are the same line only
// when the segment line that opens the one stands for the original line that opens the other.
import { codeBracketDelta, openedAt, startsWithCloser } from './brackets.js';
import { CLOSING_TAG_LINE, type Lines } from './lines.js';

export interface BlockPairs {
  /** Segment line x closes a block the segment opens on an inserted line (no original line stands there). */
  closesNewBlock(x: number): boolean;
  /** Segment line x and original line y close different blocks (their openers are not one line). */
  closesOtherBlock(x: number, y: number): boolean;
}

/**
 * Structure checks over the segment lines paired so far (`paired`: segment line → original line,
 * filled by the caller as it pairs). A segment opener that is not paired stands in the original gap
 * between its paired neighbours: it is the edit of an opener there, or inserted when the gap opens
 * no block. Lines that close no bracket block the segment opens (`end`, dedents, the closer of a
 * block opened above the segment) are never judged.
 */
export function blockPairs(s: Lines, o: Lines, paired: ReadonlyMap<number, number>): BlockPairs {
  const opener = (x: number): number => (s.blank[x] ? -1 : openedAt(s.text, x, 0, codeBracketDelta));
  /** The line that starts the statement whose block x closes: through `catch {` after a `}` to the `try {`, or a tag's opening line. */
  const statementOpener = (x: number): number => {
    if (s.blank[x]) return -1;
    // A paired `{` is the original's own; an inserted one stands for the head above it.
    const head = (p: number): number => (p >= 0 && !paired.has(p) ? allmanHead(s, p) : p);
    let p = head(openedAt(s.text, x, 0, codeBracketDelta));
    if (p < 0 && CLOSING_TAG_LINE.test(s.norm[x]!)) return tagOpener(s, x);
    while (p >= 0 && CONTINUATION.test(s.norm[p]!)) {
      let q = p - 1;
      while (q >= 0 && s.blank[q]) q--;
      if (q < 0 || s.indent[q] !== s.indent[p] || !startsWithCloser(s.norm[q]!)) break;
      const r = head(openedAt(s.text, q, 0, codeBracketDelta));
      if (r < 0) break;
      p = r;
    }
    return p;
  };
  /** Original lines (lo, hi) between the pairs around unpaired segment line p. */
  const gap = (p: number): [number, number] => {
    let lo = -1, hi = o.text.length, below = -1, above = Infinity;
    for (const [i, j] of paired) {
      if (i < p && i > below) [below, lo] = [i, j];
      if (i > p && i < above) [above, hi] = [i, j];
    }
    return [lo, hi];
  };
  const opensIn = ([lo, hi]: [number, number]): boolean => {
    for (let y = lo + 1; y < hi; y++) if (!o.blank[y] && codeBracketDelta(o.text[y]!) > 0) return true;
    return false;
  };
  return {
    closesNewBlock(x) {
      const p = statementOpener(x);
      return p >= 0 && !paired.has(p) && !opensIn(gap(p));
    },
    closesOtherBlock(x, y) {
      // A line with code before its closers, its closers edited (Lisp's `{:status :ok}))` → `{:status :ok})`), is that code's line.
      if (!startsWithCloser(s.norm[x]!) && s.norm[x] !== o.norm[y] && withoutClosers(s.norm[x]!) === withoutClosers(o.norm[y]!)) return false;
      const p = opener(x);
      if (p < 0) return false;
      if (o.blank[y]) return true;
      const q = paired.get(p);
      if (q !== undefined) return openedAt(o.text, y, q, codeBracketDelta) !== q;
      // An unpaired opener: the original's opener of y must lie in the gap where it stands, or be
      // paired with an equal segment line (of two equal `{` lines the fill paired either one).
      const [lo, hi] = gap(p);
      const at = openedAt(o.text, y, lo + 1, codeBracketDelta);
      if (at >= 0 && at < hi) return false;
      const q2 = openedAt(o.text, y, 0, codeBracketDelta);
      for (const [i, j] of paired) if (j === q2 && s.norm[i] === s.norm[p]) return false;
      return true;
    },
  };
}

/** A line that continues the statement of the block closed just above it (`catch {` under `}`). */
const CONTINUATION = /^(?:else|elsif|elif|else if|rescue|ensure|except|catch|finally)\b/;

/** The opening tag of closing tag x: the nearest line above at its indentation, when it opens a tag. */
function tagOpener(s: Lines, x: number): number {
  for (let p = x - 1; p >= 0; p--) {
    if (s.blank[p] || s.indent[p]! > s.indent[x]!) continue;
    return s.indent[p] === s.indent[x] && /^<[\w.:-]*[\s>]|^<>$|^<[\w.:-]+$/.test(s.norm[p]!) ? p : -1;
  }
  return -1;
}

/** An Allman `{` alone stands for the head line right above it at its indentation (`catch (IOException e)`). */
function allmanHead(s: Lines, p: number): number {
  if (p < 0 || s.norm[p] !== '{') return p;
  let q = p - 1;
  while (q >= 0 && s.blank[q]) q--;
  return q >= 0 && s.indent[q] === s.indent[p] && !startsWithCloser(s.norm[q]!) ? q : p;
}

/** A line's code without the closers and separators that end it. */
export function withoutClosers(norm: string): string {
  return norm.replace(/[)}\]\s,;.]+$/, '');
}
