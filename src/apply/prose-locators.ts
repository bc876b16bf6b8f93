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
import { markerFor, withoutHunkNumber } from './hunk-separator.js';
import { indentText, lineCounts, splitLines, type Lines } from './lines.js';
import { blockEnd, definesName } from './definition-blocks.js';
import { beforeDefinition } from './instructed-place.js';
import { hunkCursor } from './hunk-openers.js';
import { separatingNote } from './location-comments.js';
import { escapeRe } from './escape-regexp.js';

/** The words of a placing comment: its side (after / before), the target's words, the owner named. */
const PROSE_PLACE = new RegExp(
  // an owner named first: `PostgresUserRepository — add …`, `public: add …`
  '^(?:(?<lead>`?[\\w$.:]+?`?(?:\\s+section)?)\\s*(?:—|–|:|,)\\s*)?' +
    '(?:(?:add|insert|put|place|paste|goes|go)\\b' +
    // the object: a pronoun, not a noun phrase (`add the tax before …` is a code comment)
    '(?:\\s+(?:this|these|it|them|here|the\\s+following|(?:this|these|the)\\s+new\\s+[\\w-]+(?:\\s+[\\w-]+)?|this\\s+[\\w-]+|these\\s+[\\w-]+))?' +
    // an owner the target stands in: `to LruCache (public section),`
    '(?:\\s+(?:to|in|into|inside)\\s+`?(?<to>[\\w$.:]+?)`?(?:\\s*\\([\\w\\s]+\\))?\\s*,?)?' +
    // `new handler, goes after …`, `new private helper, put it right before …`
    '|new\\s+[\\w-]+(?:\\s+[\\w-]+)?\\s*,(?:\\s*(?:goes|go|(?:add|put|place|insert)\\s+it))?' +
    // no verb, an owner then the place: `in the companion object, after MAX_ATTEMPTS:`
    '|(?<verbless>in|inside|within)\\s+(?:the\\s+)?`?(?<within>[\\w$.:]+?)`?(?:\\s+[\\w$]+){0,2}\\s*,)' +
    '\\s*(?:(?:right|just|directly|immediately)\\s+)?(?<side>after|below|following|above|before)\\s+(?:the\\s+)?(?<target>.+?)\\s*:?$',
  'i',
);

const STOP_WORDS = new Set(['the', 'and', 'one', 'existing', 'current', 'other', 'code', 'line', 'lines', 'block', 'here']);

interface ProsePlace {
  side: 'after' | 'before';
  /** Words of the target, in order (`mount effect`, `SIGNED_URL_TTL_SECONDS`, `put`). */
  words: string[];
  /** The target is written as a call (`retries()`): a function, not the field of the same name. */
  call: boolean;
  /** The owner the comment names (`LruCache`, `companion`, `public`), or null. */
  owner: string | null;
  /**
   * No verb first (`in the companion object, after MAX_ATTEMPTS:`, `public: add after prune()`): only
   * a target the original defines once, with an owner the original names, makes the comment a locator.
   */
  strict: boolean;
}

/** The place a comment body gives, or null when it is no prose locator. */
export function prosePlace(body: string): ProsePlace | null {
  const g = PROSE_PLACE.exec(withoutHunkNumber(body.trim()))?.groups;
  if (!g || g.target!.length > 60) return null;
  const words = g.target!.replace(/\(\)/g, '').split(/[^\w$]+/).filter((w) => w.length > 0);
  if (words.length === 0 || words.length > 5) return null;
  const owner = (g.lead ?? g.to ?? g.within)?.replace(/\s+section$/i, '') ?? null;
  return { side: /^(?:above|before)$/i.test(g.side!) ? 'before' : 'after', words, call: /\(\)/.test(g.target!), owner, strict: g.verbless !== undefined || g.lead !== undefined };
}

/**
 * The row of the one definition the words name (the last word first), or -1; inside the owner's
 * block when the owner names one definition of the original (two classes defining the same method).
 */
function targetRow(o: Lines, place: ProsePlace): number {
  const { words, owner } = place;
  const within = owner === null ? [-1, -1] : definitionRows(o, owner, 0, o.text.length);
  const [from, to] = within.length === 1 ? [within[0]!, blockEnd(o, within[0]!)] : [0, o.text.length];
  for (let w = words.length - 1; w >= 0; w--) {
    const word = words[w]!;
    if (STOP_WORDS.has(word.toLowerCase())) continue;
    const rows = definitionRows(o, word, from, to, place.call && w === words.length - 1);
    if (rows.length === 1) return rows[0]!;
    if (rows.length > 1) return -1;
  }
  return -1;
}

/** Up to two rows in [from, to) that define `name`; with `call`, only as a function (`name(`). */
function definitionRows(o: Lines, name: string, from: number, to: number, call = false): number[] {
  const rows: number[] = [];
  const called = new RegExp(`(?<![\\w$])${escapeRe(name)}\\s*\\(`);
  for (let j = from; j < to && rows.length < 2; j++) if (!o.blank[j] && definesName(o.text[j]!, name) && (!call || called.test(o.text[j]!))) rows.push(j);
  return rows;
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
  const originalNorms = new Set(o.norm);
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
    const at = place ? targetRow(o, place) : -1;
    if (!place || !namesThisFile(code, place.words) || i + 1 >= u.text.length || (place.strict && (at < 0 || !namesThisFile(code, [place.owner ?? ''])))) { out.push(line + u.eol[i]!); continue; }
    changed = true;
    const next = nextCodeRow(u, i + 1);
    // The hunk shows a line the original has once first: it anchors itself; the comment only goes.
    if (at < 0 || next < 0 || marker[next] || originalCount.get(u.norm[next]!) === 1) continue;
    const stop = hunkEnd(u, marker, i + 1, (k) => !originalNorms.has(u.norm[k]!) && separatingNote(u, k, o, code, originalNorms) !== null);
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
      if (end - at > 1 && next === i + 1) for (let k = blanksAfter(o, at, end); k > 0; k--) out.push(eol);
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
 * The blank lines that set off a new sibling after the target's block [at, end): those the original
 * has after it, or, when the block is the last in its parent (a shallower closer right after it), those
 * the original has between the target and the sibling above it.
 */
function blanksAfter(o: Lines, at: number, end: number): number {
  let n = 0;
  while (end + n < o.text.length && o.blank[end + n]) n++;
  if (n > 0 || end >= o.text.length || o.indent[end]! >= o.indent[at]!) return n;
  for (let j = beforeDefinition(o, at) - 1; j >= 0 && o.blank[j]; j--) n++;
  return n;
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
 * heading after a blank line, a note that sets the next hunk apart (`// imports`, location-comments.ts),
 * or the update's end.
 */
function hunkEnd(u: Lines, marker: readonly boolean[], i: number, separates: (k: number) => boolean): number {
  let k = i;
  while (k < u.text.length && !marker[k] && !(u.blank[k - 1] && !u.blank[k] && (opensNextHunk(commentBody(u.text[k]!)) || separates(k)))) k++;
  // Blank lines before the next hunk belong to neither.
  while (k > i && u.blank[k - 1]) k--;
  return k;
}

/** A comment that heads the next hunk: a prose locator, or a numbered heading (`// 4) CacheOptions + DEFAULTS`). */
function opensNextHunk(body: string | null): boolean {
  return body !== null && (prosePlace(body) !== null || withoutHunkNumber(body.trim()) !== body.trim());
}
