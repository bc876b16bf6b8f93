// Prose locators: a comment in which the model tells the applier where the next lines go —
// `// add this right after the constructor`, `// add right below SIGNED_URL_TTL_SECONDS`,
// `// New component, right above the styles:`, `// add to LruCache, after put():`. It is an
// instruction, not content: the expected file never has it.
// Such a comment is taken out of the update. When its target is a definition the original has
// exactly once and the lines it places show no original line of their own, the target's lines are
// written in its place as context (after a marker), so the hunk anchors right after the target (or
// right before it): the new lines otherwise float, or match a look-alike of the code they copy.
//
// Only a comment that is no original line, opens a hunk (the update's start, after a marker or
// after a blank line) and is one of these imperative forms: a verb with no object but `this`,
// `these`, `it` … (a code comment such as `// add the tax before rounding` stays), or `new <kind>,`.
// Nothing is removed: the context lines are the original's own.
import { commentBody, markerLines } from './markers.js';
import { markerFor } from './hunk-separator.js';
import { indentText, lineCounts, splitLines, type Lines } from './lines.js';
import { blockEnd, definesName } from './definition-blocks.js';
import { beforeDefinition } from './instructed-place.js';
import { hunkCursor } from './hunk-openers.js';

/** The words of a placing comment: its side (after / before) and the target's words. */
const PROSE_PLACE = new RegExp(
  '^(?:(?:add|insert|put|place|paste|goes|go)\\b' +
    // the object: a pronoun, not a noun phrase (`add the tax before …` is a code comment)
    '(?:\\s+(?:this|these|it|them|here|the\\s+following|(?:this|these|the)\\s+new\\s+[\\w-]+(?:\\s+[\\w-]+)?|this\\s+[\\w-]+|these\\s+[\\w-]+))?' +
    // an owner the target stands in: `to LruCache (public section),`
    '(?:\\s+(?:to|in|into|inside)\\s+`?[\\w$.:]+`?(?:\\s*\\([\\w\\s]+\\))?\\s*,?)?' +
    // `new handler, goes after …`, `new private helper, put it right before …`
    '|new\\s+[\\w-]+(?:\\s+[\\w-]+)?\\s*,(?:\\s*(?:goes|go|(?:add|put|place|insert)\\s+it))?)' +
    '\\s*(?:(?:right|just|directly|immediately)\\s+)?(after|below|following|above|before)\\s+(?:the\\s+)?(.+?)\\s*:?$',
  'i',
);

const STOP_WORDS = new Set(['the', 'and', 'one', 'existing', 'current', 'other', 'code', 'line', 'lines', 'block', 'here']);

interface ProsePlace {
  side: 'after' | 'before';
  /** Words of the target, in order (`mount effect`, `SIGNED_URL_TTL_SECONDS`, `put`). */
  words: string[];
}

/** The place a comment body gives, or null when it is no prose locator. */
export function prosePlace(body: string): ProsePlace | null {
  const m = PROSE_PLACE.exec(withoutHunkNumber(body.trim()));
  if (!m || m[2]!.length > 60) return null;
  const words = m[2]!.replace(/\(\)/g, '').split(/[^\w$]+/).filter((w) => w.length > 0);
  if (words.length === 0 || words.length > 5) return null;
  return { side: /^(?:above|before)$/i.test(m[1]!) ? 'before' : 'after', words };
}

/** A comment without the number a model gives its hunks (`1) in getOrLoad, …`, `3. new helper, …`). */
export function withoutHunkNumber(body: string): string {
  return body.replace(/^\(?\d{1,2}[).]\s+/, '');
}

/** The row of the one definition the words name (the last word first), or -1. */
function targetRow(o: Lines, words: readonly string[]): number {
  for (let w = words.length - 1; w >= 0; w--) {
    const word = words[w]!;
    if (STOP_WORDS.has(word.toLowerCase())) continue;
    const rows: number[] = [];
    for (let j = 0; j < o.text.length && rows.length < 2; j++) if (!o.blank[j] && definesName(o.text[j]!, word)) rows.push(j);
    if (rows.length === 1) return rows[0]!;
    if (rows.length > 1) return -1;
  }
  return -1;
}

/** True when some target word of three letters or more is in the original: the place is this file's. */
function namesThisFile(code: string, words: readonly string[]): boolean {
  const lower = code.toLowerCase();
  return words.some((w) => w.length >= 3 && !STOP_WORDS.has(w.toLowerCase()) && lower.includes(w.toLowerCase()));
}

/** The update without its prose locators, with the target's lines written where one places an anchorless hunk; null when it has none. */
export function proseLocators(update: string, code: string): string | null {
  const u = splitLines(update);
  const o = splitLines(code);
  const marker = markerLines(u.text, o.text);
  const eol = u.dominantEol;
  const originalCount = lineCounts(o);
  const out: string[] = [];
  // Where each update row went in `out`, and lines moved before a row still to come.
  const rowAt: number[] = [];
  const pending = new Map<number, string[]>();
  const splices: { at: number; lines: string[] }[] = [];
  let changed = false;
  const hunks = hunkCursor(u, marker);
  for (let i = 0; i < u.text.length; i++) {
    const line = u.text[i]!;
    rowAt[i] = out.length;
    if (pending.has(i)) out.push(...pending.get(i)!);
    const opening = hunks.at(i);
    if (!opening) { out.push(line + u.eol[i]!); continue; }
    const opens = opening.opens || u.blank[i - 1]!;
    const body = originalCount.has(u.norm[i]!) ? null : commentBody(line);
    const place = opens && body ? prosePlace(body) : null;
    if (!place || !namesThisFile(code, place.words) || i + 1 >= u.text.length) { out.push(line + u.eol[i]!); continue; }
    changed = true;
    const next = nextCodeRow(u, i + 1);
    const at = targetRow(o, place.words);
    // The hunk shows a line the original has once first: it anchors itself; the comment only goes.
    if (at < 0 || next < 0 || marker[next] || originalCount.get(u.norm[next]!) === 1) continue;
    const stop = hunkEnd(u, marker, i + 1);
    const hunk = inTargetIndent(u, i + 1, stop, o.indent[at]!, o.usesTabs);
    // The update shows the target itself in another hunk (hunks out of the file's order): the new
    // code goes next to it there, where that hunk anchors it.
    const beside = besideShownTarget(u, o.norm[at]!, place.side, i, stop);
    if (beside >= 0) {
      const rows = hunk.map((t) => (/\n$/.test(t) ? t : t + eol));
      const moved = place.side === 'before' ? [...rows, eol] : [eol, ...rows];
      // The blank lines that set this hunk apart from the one before go with it.
      const floor = beside <= i ? rowAt[beside]! : 0;
      while (out.length > floor && out[out.length - 1]!.trim() === '') out.pop();
      if (beside <= i) splices.push({ at: rowAt[beside]!, lines: moved });
      else pending.set(beside, moved);
      i = stop - 1;
      hunks.reopen();
      continue;
    }
    if (place.side === 'after') {
      const end = blockEnd(o, at);
      out.push(markerFor(line) + eol);
      for (let j = at; j < end; j++) out.push(o.text[j]! + eol);
      // A block is set off from the new code by the blank lines the original has after it.
      if (end - at > 1 && next === i + 1) for (let j = end; j < o.text.length && o.blank[j]; j++) out.push(eol);
      out.push(...hunk);
      // The update ends with the new code: what follows the target in the original is not shown, and stays.
      if (nextCodeRow(u, stop) < 0) out.push(...(u.eol[stop - 1] ? [] : [eol]), markerFor(line) + eol);
    } else {
      const first = beforeDefinition(o, at);
      // The hunk ends on the target's own lines already (`const styles = …({` last): nothing to add.
      if (u.norm.slice(i + 1, stop).includes(o.norm[at]!)) continue;
      out.push(markerFor(line) + eol);
      out.push(...hunk);
      if (!u.blank[stop - 1] && first > 0 && o.blank[first - 1]) out.push(eol);
      for (let j = first; j <= at; j++) out.push(o.text[j]! + eol);
      out.push(markerFor(line) + eol);
    }
    // The hunk was written above.
    i = stop - 1;
    hunks.reopen();
  }
  if (!changed) return null;
  for (const { at, lines } of splices.sort((a, b) => b.at - a.at)) out.splice(at, 0, ...lines);
  return out.join('');
}

/**
 * The update row before which new code placed `side` of a target goes when the update shows the
 * target's header once outside rows [a, b): its leading comments for `before`, the row after its
 * block for `after`; -1 when it does not show it once, or that row falls inside [a, b].
 */
function besideShownTarget(u: Lines, header: string, side: 'after' | 'before', a: number, b: number): number {
  const rows: number[] = [];
  for (let k = 0; k < u.text.length; k++) if ((k < a || k >= b) && u.norm[k] === header) rows.push(k);
  if (rows.length !== 1) return -1;
  const row = side === 'before' ? beforeDefinition(u, rows[0]!) : blockEnd(u, rows[0]!);
  return row >= a && row <= b ? -1 : row;
}

/**
 * Rows [a, b) of the update, moved right onto the target's depth when the snippet wrote them
 * shallower (methods copied out of their class): its first line at its least depth.
 */
function inTargetIndent(u: Lines, a: number, b: number, depth: number, tabs: boolean): string[] {
  const rows = u.text.slice(a, b).map((t, k) => t + u.eol[a + k]!);
  let least = Infinity;
  for (let k = a; k < b; k++) if (!u.blank[k]) least = Math.min(least, u.indent[k]!);
  const first = nextCodeRow(u, a);
  if (least === Infinity || least >= depth || first < 0 || first >= b || u.indent[first] !== least) return rows;
  return rows.map((t, k) => (u.blank[a + k] ? t : indentText(u.indent[a + k]! + depth - least, tabs) + t.trimStart()));
}

/** The first non-blank row from i, or -1. */
function nextCodeRow(u: Lines, i: number): number {
  while (i < u.text.length && u.blank[i]) i++;
  return i < u.text.length ? i : -1;
}

/**
 * The end (exclusive) of the hunk from row i: the next marker, the next prose locator or numbered
 * heading after a blank line, or the update's end.
 */
function hunkEnd(u: Lines, marker: readonly boolean[], i: number): number {
  let k = i;
  while (k < u.text.length && !marker[k] && !(u.blank[k - 1] && !u.blank[k] && opensNextHunk(commentBody(u.text[k]!)))) k++;
  // Blank lines before the next hunk belong to neither.
  while (k > i && u.blank[k - 1]) k--;
  return k;
}

/** A comment that heads the next hunk: a prose locator, or a numbered heading (`// 4) CacheOptions + DEFAULTS`). */
function opensNextHunk(body: string | null): boolean {
  return body !== null && (prosePlace(body) !== null || withoutHunkNumber(body.trim()) !== body.trim());
}
