// New lines, then an edited line, at a segment's edge: `# syntax=…` (anchor), `ARG NODE_VERSION=20`
// (new), `FROM node:${NODE_VERSION} AS deps` (the next original line, edited), then a marker. Growing
// from the anchor, the new line does not match the original's next line and the growth stopped, so
// the edited line was taken as new as well and the original line kept beside it. The segment's
// outermost line, read as an edit of the original line the growth stands at, is that line: the lines
// between are inserted before it. Only the outermost line qualifies (nothing of the segment follows
// it but blank lines), so new code in the middle of a segment is never paired past.
import { bracketDelta } from './brackets.js';
import { wrapsWholeLine } from './edge-line-edit.js';
import { declaresBare, hoistedAssignment } from './hoisted-declaration.js';
import type { Lines } from './lines.js';

/** Tests whether segment line i reads as an edit of original line j (edge-growth.ts's edge test). */
export type EdgeMatch = (i: number, j: number) => boolean;

/**
 * Pairs for the segment's outermost content line taken as the edit of original line j (with, when j
 * is blank, the blank segment line just inside the edited one paired to it), or null. `dir` is the
 * growth direction, `i` the first segment line the growth could not pair, `inOrig` bounds j.
 */
export function editedBeyondInsert(s: Lines, o: Lines, i: number, j: number, dir: 1 | -1, inOrig: (y: number) => boolean, match: EdgeMatch): Array<[number, number]> | null {
  let x = dir > 0 ? s.text.length - 1 : 0;
  while (x !== i && s.blank[x]) x -= dir;
  if ((x - i) * dir <= 0 || s.blank[x] || s.weak[x]) return null;
  const pairs: Array<[number, number]> = [];
  let y = j;
  if (o.blank[y]) {
    // The original's blank before the edited line pairs with the segment's blank before it.
    if (!s.blank[x - dir] || (x - dir - i) * dir < 0) return null;
    pairs.push([x - dir, y]);
    y += dir;
    if (!inOrig(y) || o.blank[y]) return null;
  }
  if (!match(x, y)) return null;
  pairs.push([x, y]);
  return dir > 0 ? pairs : pairs.reverse();
}

/** New lines a wrapped run's head may take before the wrapped line (a hoisted `let x;`, `try {`). */
const MAX_NEW_HEAD_LINES = 3;

/**
 * Segment line i onward (blank lines skipped): up to MAX_NEW_HEAD_LINES new lines that open a block, then, as the block's
 * first line, original line j wrapped (`aws s3 cp …` → `if aws s3 cp …; then` inside a new `for`, `send(b)`
 * → `acked = send(b)` inside `try:`, `const r = f()` → `r = f()` under a hoisted `let r;`). Returns the
 * segment row of the wrapped line, or -1. The statement must stay a statement: a new line that passes
 * the original as an argument (`print(plan(x))`) is new code that uses it, and the original stays.
 */
export function wrappedInNewBlock(s: Lines, o: Lines, i: number, j: number): number {
  while (i < s.text.length && s.blank[i]) i++;
  if (i >= s.text.length || o.blank[j] || o.weak[j]) return -1;
  let x = i;
  for (let n = 0; x < s.text.length && n <= MAX_NEW_HEAD_LINES; x++) {
    if (s.blank[x]) continue;
    if (s.indent[x]! > s.indent[i]!) break;
    // A lone `{` or `try` of the new head may be any line's text; its other lines are new.
    if (!s.weak[x] && o.norm.includes(s.norm[x]!)) return -1;
    n++;
  }
  if (x >= s.text.length || x === i || s.indent[x]! <= s.indent[i]!) return -1;
  const orig = o.norm[j]!;
  const shown = s.norm[x]!;
  // A lone name (`authorId` → `authorId?: string;`) is no statement: a new field or key may hold it.
  if (/[(\s]/.test(orig) && wrapsWholeLine(orig, shown)) {
    const before = shown.slice(0, shown.indexOf(orig.replace(/[;,]$/, '')));
    return bracketDelta(before) === 0 ? x : -1;
  }
  const name = hoistedAssignment(orig, shown);
  return name !== null && declaresBare(s, i, x, name) ? x : -1;
}

/**
 * Head side, the mirror of wrappedInNewBlock: the anchor (segment row a, original row b) sits one
 * block deeper than it stood, under up to MAX_NEW_HEAD_LINES new lines that open that block (`if
 * config.notify_success then` around `notify("task finished")`), and the segment line above those is
 * original line j, the line right above b (a weak `else`, `} else {`). That line keeps its own
 * indentation while the anchor's shifted, so it is matched at the wrapper's shift, not the anchor's.
 * Rows from i down are the growth's unpaired rows. Returns the segment row of the line, or -1.
 */
export function contextAboveWrapper(s: Lines, o: Lines, i: number, j: number, a: number, b: number): number {
  if (o.blank[j] || o.indent[b]! === s.indent[a]!) return -1;
  let x = i;
  let head = -1;
  for (let n = 0; x >= 0 && n <= MAX_NEW_HEAD_LINES; x--) {
    if (s.blank[x]) continue;
    if (s.indent[x]! < s.indent[a]! && s.norm[x] !== o.norm[j]) {
      // A new line of the wrapper: the original has it nowhere.
      if (!s.weak[x] && o.norm.includes(s.norm[x]!)) return -1;
      // The topmost new line is the outermost wrapper: no new line below it is shallower.
      if (head >= 0 && s.indent[x]! > s.indent[head]!) return -1;
      head = x;
      n++;
      continue;
    }
    break;
  }
  if (head < 0 || x < 0 || s.blank[x] || s.norm[x] !== o.norm[j]) return -1;
  // An `end` or `}` whose opener the segment shows as a new line closes that new block, not the original's.
  let up = x - 1;
  while (up >= 0 && (s.blank[up] || s.indent[up]! > s.indent[x]!)) up--;
  if (up >= 0 && !o.norm.includes(s.norm[up]!)) return -1;
  // The wrapper stands where the anchor stood; the line above keeps that shift.
  const shift = o.indent[b]! - s.indent[head]!;
  return o.indent[j]! - s.indent[x]! === shift ? x : -1;
}
