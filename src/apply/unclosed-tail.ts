// A snippet that stops inside the blocks it opened: the model wrote the changed lines of a block
// and left out the closing lines (`None => writeln!(…)?,` and no `}` after the new `match`). The
// update is read with those closers written out, in the merge and in the no-loss check alike:
// each block the snippet's last segment opens and leaves open gets its closing line, from the
// innermost out, up to and including the innermost block the original already has (its header is
// an original line). That block then ends where the original's did, so the new lines replace the
// rest of its body; blocks further out stay open (the code after them is kept).
//
// Only when the snippet ends with new code inside the innermost block (not with an original line,
// where a model that stops has only stopped, and not with the opening line itself, which is an
// edited header), and no marker follows its last line.
import { CLOSING_BRACKET, closesAt, forEachCodeBracket, startsWithCloser } from './brackets.js';
import { normalize, splitLines, type Lines } from './lines.js';
import { markerLines } from './markers.js';
import { openKeywordBlocks } from './keyword-blocks.js';
import { CLOSER_ONLY } from './closer-pins.js';
import { lineIdentity, soleIdentityRows } from './line-identity.js';

interface Opener {
  line: number;
  /** Brackets this line opens and leaves open, in order. */
  chars: string[];
  /** The closing line's text when a word closes the block (`end`: keyword-blocks.ts). */
  closer?: string;
}

/**
 * Brackets each line leaves open, over lines [a, b]: a stack scan outside quoted text and `//`
 * comments. Closers of blocks opened before line a are ignored.
 */
function openBlocks(text: readonly string[], a: number, b: number): Opener[] {
  const stack: Array<{ line: number; c: string }> = [];
  let unbalanced = false;
  for (let y = a; y <= b && !unbalanced; y++) {
    forEachCodeBracket(text[y]!, (c) => {
      if (CLOSING_BRACKET[c]) stack.push({ line: y, c });
      else if (stack.length > 0 && CLOSING_BRACKET[stack[stack.length - 1]!.c] === c) stack.pop();
      else if (stack.length > 0) {
        unbalanced = true;
        return false;
      }
    });
  }
  if (unbalanced) return [];
  const out: Opener[] = [];
  for (const { line, c } of stack) {
    const last = out[out.length - 1];
    if (last && last.line === line) last.chars.push(c);
    else out.push({ line, chars: [c] });
  }
  return out;
}

/** The closing text of an opener: the original's usual closer for openers that end alike (`});` after `=> {`), else the brackets reversed. */
function closerText(origOpeners: Map<string, Map<string, number>>, opener: string, chars: string[]): string {
  const seq = chars.slice().reverse().map((c) => CLOSING_BRACKET[c]!).join('');
  const tally = origOpeners.get(`${seq}|${opener.slice(-3)}`) ?? origOpeners.get(seq);
  if (!tally) return seq;
  let best = seq;
  let bestN = 0;
  for (const [t, n] of tally) if (n > bestN) [best, bestN] = [t, n];
  return best;
}

/** Closing lines the original writes for its openers, keyed by the brackets closed and by the opener's last characters. */
function originalClosers(text: readonly string[], norm: readonly string[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const add = (key: string, closer: string): void => {
    let m = out.get(key);
    if (!m) out.set(key, (m = new Map()));
    m.set(closer, (m.get(closer) ?? 0) + 1);
  };
  const stack: Array<{ line: number; c: string }> = [];
  for (let y = 0; y < text.length; y++) {
    const t = text[y]!;
    const closed: Array<{ line: number; c: string }> = [];
    forEachCodeBracket(t, (c) => {
      if (CLOSING_BRACKET[c]) stack.push({ line: y, c });
      else {
        const top = stack.pop();
        if (top && top.line !== y) closed.push(top);
      }
    });
    // A line that only closes (`});`): what it closes, keyed by the opener's brackets.
    if (closed.length === 0 || !startsWithCloser(norm[y]!)) continue;
    const opener = closed[0]!.line;
    if (closed.some((o) => o.line !== opener)) continue;
    const seq = closed.map((o) => CLOSING_BRACKET[o.c]!).join('');
    if (!norm[y]!.startsWith(seq)) continue;
    add(seq, norm[y]!);
    add(`${seq}|${norm[opener]!.slice(-3)}`, norm[y]!);
  }
  return out;
}

/**
 * The snippet's new last lines stand for the rest of the original block headed by update line h
 * (go's `return nil, fmt.Errorf(…)` for `return nil, ErrNotFound`, a new `match` for
 * `stack.push(a * b);`): in every original block with that header that holds the snippet's last
 * original line, the lines after that line up to the block's end are no more than the new lines.
 */
function restReplaced(u: Lines, orig: Lines, start: number, last: number, h: number, origLines: Set<string>, carry = false): boolean {
  let a = last;
  while (a > h && (u.blank[a] || !origLines.has(u.norm[a]!))) a--;
  let added = 0;
  for (let x = a + 1; x <= last; x++) if (!u.blank[x]) added++;
  if (added === 0 || a < start) return false;
  let found = false;
  // Where the snippet ends with closers of its own blocks, one block with that header (the one the
  // snippet edits; a twin in another `impl` has other lines) must have its rest carried by the new lines.
  let carriedSomewhere = !carry;
  const used = new Set<string>();
  for (let x = a + 1; x <= last; x++) for (const n of names(u.norm[x]!)) used.add(n);
  for (let j = 0; j < orig.text.length; j++) {
    if (!sameHeader(orig.norm[j]!, u.norm[h]!)) continue;
    let b = j;
    while (b < orig.text.length && closesAt(orig.text, b) < 0 && b - j < 2) b++;
    const c = b < orig.text.length ? closesAt(orig.text, b) : -1;
    if (c < 0) continue;
    let at = -1;
    for (let y = j; y < c; y++) if (orig.norm[y] === u.norm[a]) at = y;
    if (at < 0) continue;
    found = true;
    // The new lines end as a line of the rest ends (`: "gray";` closing a one-line ternary rewritten
    // over several lines): they are that line's edit, and the model stopped there, before the lines after it.
    if (stopsAtEditedLine(orig, at, c, u.norm[last]!)) return false;
    let rest = 0;
    for (let y = at + 1; y < c; y++) if (!orig.blank[y]) rest++;
    if (rest > added) return false;
    let all = true;
    for (let y = at + 1; y < c && carry; y++) if (!orig.blank[y] && !carried(names(orig.norm[y]!), used)) all = false;
    if (all) carriedSomewhere = true;
  }
  return found && carriedSomewhere;
}

/** An original header and an update line that head the same block: equal, or naming the same definition. */
function sameHeader(origNorm: string, updateNorm: string): boolean {
  if (origNorm === updateNorm) return true;
  const id = lineIdentity(updateNorm);
  return id !== null && lineIdentity(origNorm) === id;
}

/** The names a line uses (identifiers of three characters or more). */
export function names(norm: string): Set<string> {
  return new Set(norm.match(/[A-Za-z_$][\w$]{2,}/g) ?? []);
}

/** More than half of a rest row's names occur in the new lines (a row without names, `};`, is closed by them): the row is rewritten there. */
export function carried(row: Set<string>, used: Set<string>): boolean {
  let n = 0;
  for (const name of row) if (used.has(name)) n++;
  return 2 * n > row.size || row.size === 0;
}

/**
 * The snippet's last line before the closing lines that end it and close blocks its own new lines
 * opened (a bracket scan over [start, last]; an opener line the original has is no new block).
 */
function newBlockClosersFrom(u: Lines, start: number, last: number, origLines: ReadonlySet<string>): number {
  const openedOn: number[] = [];
  const closesNew: boolean[] = [];
  for (let y = start; y <= last; y++) {
    let onlyNew = true;
    let closes = 0;
    forEachCodeBracket(u.text[y]!, (c) => {
      if (CLOSING_BRACKET[c]) openedOn.push(y);
      else {
        const from = openedOn.pop();
        closes++;
        if (from === undefined || from === y || origLines.has(u.norm[from]!)) onlyNew = false;
      }
    });
    closesNew[y - start] = closes > 0 && onlyNew && CLOSER_ONLY.test(u.norm[y]!);
  }
  let x = last;
  while (x > start && (u.blank[x] || closesNew[x - start])) x--;
  return x;
}

/** Shortest line end that ties the snippet's last line to an original line (shorter ends — `);`, `}` — are everywhere). */
const MIN_SHARED_END = 8;

/** Some original row y in (at, c) ends with `tail` (not equal to it) and non-blank rows follow it before c. */
function stopsAtEditedLine(orig: Lines, at: number, c: number, tail: string): boolean {
  if (tail.length < MIN_SHARED_END) return false;
  for (let y = at + 1; y < c; y++) {
    if (orig.blank[y] || orig.norm[y] === tail || !orig.norm[y]!.endsWith(tail)) continue;
    for (let z = y + 1; z < c; z++) if (!orig.blank[z]) return true;
  }
  return false;
}

/** The update with the closing lines its unclosed last segment implies appended (unchanged when none). */
export function closeUnclosedTail(update: string, code: string): string {
  const u = splitLines(update);
  let last = u.text.length - 1;
  while (last >= 0 && u.blank[last]) last--;
  if (last < 0) return update;
  const orig = splitLines(code);
  const isMarker = markerLines(u.text, orig.text);
  if (isMarker[last]) return update;
  let start = last;
  while (start > 0 && !isMarker[start - 1]) start--;
  const brackets = openBlocks(u.text, start, last);
  const open: Opener[] = brackets.length > 0 ? brackets : openKeywordBlocks(u, start, last, orig).map((b) => ({ ...b, chars: [] }));
  if (open.length === 0) return update;
  // The snippet ends with new code inside its innermost block.
  if (open[open.length - 1]!.line >= last) return update;
  const origLines = new Set<string>();
  for (let j = 0; j < orig.norm.length; j++) if (!orig.blank[j]) origLines.add(orig.norm[j]!);
  // Closing lines of blocks the snippet's own new lines opened (`}` after a new `if … else`, `};`
  // after a new `catch |err| switch`) are new code too: the snippet stops after them.
  const content = newBlockClosersFrom(u, start, last, origLines);
  if (origLines.has(u.norm[content]!)) return update;
  // Blocks whose header the original has, from the outermost in, up to the first new one (inside
  // a new block every block is new, whatever its text). Close every block inside the innermost
  // such block, and that block itself.
  // A bracket alone on its line (Allman style) belongs to the header above it.
  const head = (line: number): number => {
    if (!/^[{([]+$/.test(u.norm[line]!)) return line;
    let h = line - 1;
    while (h > start && u.blank[h]) h--;
    return h >= start ? h : line;
  };
  // A header edited in place (`loadProfile(id, signal?)`) heads the original's block of that name, not a new one.
  const named = soleIdentityRows(orig);
  const original = (n: string): boolean => origLines.has(n) || named.has(lineIdentity(n) ?? '');
  let kept = 0;
  while (kept < open.length && original(u.norm[head(open[kept]!.line)]!)) kept++;
  // Ending with such closers, the new lines stand for the rest only where they carry its names (the
  // rewritten `write!(…)` inside a new `if`): a new guard before the body leaves the body open.
  const existing = kept > 0 && restReplaced(u, orig, start, content, head(open[kept - 1]!.line), origLines, content < last);
  // An original block whose rest is longer than the new lines stays open: the model stopped there.
  const closing = open.slice(existing ? kept - 1 : kept).reverse();
  if (closing.length === 0) return update;
  const closers = originalClosers(orig.text, orig.norm);
  const eol = u.dominantEol;
  const added: string[] = [];
  for (const o of closing) {
    const t = u.text[o.line]!;
    added.push(t.slice(0, t.length - t.trimStart().length) + (o.closer ?? closerText(closers, normalize(t), o.chars)));
  }
  // A new block written after a blank line (its own paragraph) ends with one too.
  const outer = head(closing[closing.length - 1]!.line);
  if (!existing && outer > start && u.blank[outer - 1]) added.push('');
  const body = u.text.slice(0, last + 1).map((t, i) => t + (i < last ? u.eol[i] || eol : '')).join('');
  return body + eol + added.join(eol) + (u.finalNewline ? eol : '');
}
