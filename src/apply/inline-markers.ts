// Inline markers: a marker element inside a bracketed list stands for the original line's elements
// at that place in the same list: `[/* ... */, "refunded"]`, `this.request(..., signal)`,
// `(sm: 640px, /* ... */, lg: 1024px, xl: 1280px)`, `enum: [..., cancelled, refunded]`. Before the
// merge, each such update line is matched to its original line (same text up to the list's opening
// bracket; among several, the one the update's nearest unique lines place it between) and the
// marker is replaced by the original's elements between the elements the update shows on either
// side of it, copied with the original's separators. Nothing is expanded when the match is not
// certain: the line then stays as written and the no-loss pass keeps the original line.
import { bracketLists, collapsedValue, elementKey, gluedMarker, holdsMarker, isMarkerElement, valueListStart, wordList, type BracketList } from './inline-elements.js';
import { expandElision, lineElision } from './line-elision.js';
import { anchorRows, foldLaidOutLists, unfold } from './laid-out-lists.js';
import { isMarkerLine } from './markers.js';
import { CONTINUATION_LINE } from './lines.js';
import { escapeRe } from './escape-regexp.js';
import { respread, spreadList, type SpreadList } from './spread-lists.js';

/** Cheap pre-check: a line that can hold a marker element at all. */
const MAYBE_MARKER = /\.\.\.|…|\/\*|<!--|\(\*|--\[\[/;
/** How far the update is searched for the unique lines that place a marker line. */
const ANCHOR_REACH = 200;
/** Element lists longer than this are not aligned (the element alignment is quadratic). */
const MAX_ELEMENTS = 400;

export interface Original {
  lines: string[];
  trimmed: string[];
  /** Trimmed original line → index, for lines the original has once; -1 for repeated ones. */
  unique: Map<string, number>;
  set: ReadonlySet<string>;
}

interface Candidate {
  j: number;
  text: string;
  list: BracketList;
  /** The original list spread over several lines, read as the one line `text` (spread-lists.ts). */
  spread?: SpreadList;
}

export function readOriginal(code: string): Original {
  const lines = code.split(/\r?\n/);
  const trimmed = lines.map((l) => l.trim());
  const unique = new Map<string, number>();
  trimmed.forEach((t, j) => {
    if (t) unique.set(t, unique.has(t) ? -1 : j);
  });
  return { lines, trimmed, unique, set: new Set(trimmed) };
}

/** The nearest update line before (step -1) or after (+1) line i that the original has once, and whether a marker line lies between. */
function anchorNear(update: string[], i: number, step: 1 | -1, orig: Original): { at: number | undefined; gap: boolean } {
  let gap = false;
  for (let k = i + step, n = 0; k >= 0 && k < update.length && n < ANCHOR_REACH; k += step, n++) {
    const t = update[k]!.trim();
    if (!t) continue;
    const j = orig.unique.get(t);
    if (j !== undefined && j >= 0) return { at: j, gap };
    if (isMarkerLine(t, orig.set)) gap = true;
  }
  return { at: undefined, gap };
}

/** The one original line an update line at i extends, among candidates sharing its head; null when not certain. */
export function pickCandidate<C extends { j: number }>(cands: C[], update: string[], i: number, orig: Original, tieBreak?: (left: C[]) => C | null): C | null {
  if (cands.length === 0) return null;
  const before = anchorNear(update, i, -1, orig);
  const after = anchorNear(update, i, 1, orig);
  // With no marker between it and this line, a unique line the update shows bounds where this one is.
  cands = cands.filter((c) => (before.at === undefined || before.gap || c.j > before.at) && (after.at === undefined || after.gap || c.j < after.at));
  if (cands.length <= 1) return cands[0] ?? null;
  let inside = cands.filter((c) => (before.at === undefined || c.j > before.at) && (after.at === undefined || c.j < after.at));
  if (inside.length > 1) {
    const indent = update[i]!.length - update[i]!.trimStart().length;
    const same = inside.filter((c) => orig.lines[c.j]!.length - orig.lines[c.j]!.trimStart().length === indent);
    if (same.length > 0) inside = same;
  }
  if (inside.length > 1 && before.at !== undefined) {
    // Shown under a section header (`[dependencies]`, then markers only): in that section, not a later one's twin line.
    const end = sectionEnd(orig, before.at, update, i);
    if (end >= 0) inside = inside.filter((c) => c.j < end);
  }
  if (inside.length === 1) return inside[0]!;
  if (inside.length === 0) return null;
  // Several left: the update runs on from its anchor to this line with no marker in between, so it is the first one after it.
  if (before.at !== undefined && !before.gap) return inside[0]!;
  if (after.at !== undefined && !after.gap) return inside[inside.length - 1]!;
  return tieBreak?.(inside) ?? null;
}

/**
 * Among lines of the same head that nothing else tells apart (`import { … } from "./cells"` among
 * other `import {` lines), the one whose list holds the elements the update shows, when it alone does.
 */
function bySharedElements(cands: Candidate[], line: string, g: BracketList): Candidate | null {
  // Elements as written, with a marker comment glued to one split off it (`/* ... */ .product(…)`).
  const shown = new Set(pieces(line, g).filter((p) => !p.marker).map((p) => line.slice(p.start, p.end)));
  return soleBest(cands, (c) => c.list.elements.filter((e) => shown.has(c.text.slice(e.start, e.end))).length);
}

/** The candidate that alone scores highest, above 0; null when none does or the highest is tied. */
function soleBest<C>(cands: readonly C[], score: (c: C) => number): C | null {
  let best: C | null = null;
  let bestScore = 0;
  let tie = false;
  for (const c of cands) {
    const n = score(c);
    if (n > bestScore) [best, bestScore, tie] = [c, n, false];
    else if (n === bestScore && n > 0) tie = true;
  }
  return tie ? null : best;
}

/**
 * Among lines nothing else tells apart, the one whose list the update's markers can be expanded
 * from, when it alone can (or alone shares the most shown elements among those that can): a marker stands for elements, so a line with none where it stands
 * (`{ buffer, pos }` for `buffer, /* ... *\/ pos, posNext`) is not the line it abbreviates.
 */
function soleExpandable(cands: Candidate[], line: string, g: BracketList, orig: Original): Candidate | null {
  const ok = cands.filter((c) => expandList(line, g, c, orig) !== null);
  return ok.length === 1 ? ok[0]! : bySharedElements(ok, line, g);
}

/** Update lines looked at above a line for the original context that places it. */
const CONTEXT_ABOVE = 3;

/**
 * Among lines nothing else tells apart, the one whose original lines just above are the update's
 * lines just above it (`name: "FeedKit",` over one of several `dependencies: [...]`), when it alone
 * has the longest such run.
 */
function byContextAbove<C extends { j: number }>(cands: C[], update: string[], i: number, orig: Original): C | null {
  const above: string[] = [];
  for (let k = i - 1; k >= 0 && above.length < CONTEXT_ABOVE; k--) {
    const t = update[k]!.trim();
    if (!t) continue;
    if (isMarkerLine(t, orig.set)) break;
    above.push(t);
  }
  return soleBest(cands, (c) => {
    let run = 0;
    for (let y = c.j - 1; y >= 0 && run < above.length; y--) {
      if (!orig.trimmed[y]) continue;
      if (orig.trimmed[y] !== above[run]) break;
      run++;
    }
    return run;
  });
}

/** A whole line that is a TOML / INI section header: `[dependencies]`, `[[bin]]`, `[server "a"]`. */
const SECTION_HEADER = /^\[\[?[^\],]+\]\]?$/;

/**
 * When original line h is a section header at column 0 and the update shows no other section
 * header between it and update line i: the row where h's section ends (the next header at column
 * 0, or the file's end); -1 otherwise.
 */
function sectionEnd(orig: Original, h: number, update: string[], i: number): number {
  if (!SECTION_HEADER.test(orig.trimmed[h]!) || orig.lines[h]!.trim() !== orig.lines[h]) return -1;
  let k = i - 1;
  while (k >= 0 && update[k]!.trim() !== orig.trimmed[h]) {
    if (SECTION_HEADER.test(update[k]!.trim())) return -1;
    k--;
  }
  let j = h + 1;
  while (j < orig.lines.length && !(SECTION_HEADER.test(orig.trimmed[j]!) && orig.lines[j] === orig.trimmed[j])) j++;
  return j;
}

/**
 * Longest common subsequence of the update's shown elements and the original's: update index →
 * original index. Keyed elements (`features = [...]`, `md: 768px`, `"b": 2`) match on their key: the
 * shown one is that element edited, so a marker before it does not stand for the old one too.
 */
function alignElements(u: string[], marker: boolean[], o: string[]): number[] {
  const n = u.length;
  const m = o.length;
  const uKeys = u.map(elementKey);
  const oKeys = o.map(elementKey);
  // A call whose callee both lists hold once (`requireRole("admin", "finance")` for
  // `requireRole("admin")`) is that element edited, as a keyed element is.
  const uCalls = onceCalled(u, marker);
  const oCalls = onceCalled(o, o.map(() => false));
  u.forEach((_, a) => {
    const callee = uCalls[a];
    if (uKeys[a] === null && callee && !o.includes(u[a]!) && oCalls.includes(callee)) {
      uKeys[a] = `${callee}(`;
      oKeys[oCalls.indexOf(callee)] = `${callee}(`;
    }
  });
  const same = (a: number, b: number): boolean => !marker[a] && (u[a] === o[b] || (uKeys[a] !== null && uKeys[a] === oKeys[b]));
  const dp = new Uint16Array((n + 1) * (m + 1));
  const at = (a: number, b: number) => a * (m + 1) + b;
  for (let a = n - 1; a >= 0; a--) {
    for (let b = m - 1; b >= 0; b--) {
      dp[at(a, b)] = same(a, b) ? dp[at(a + 1, b + 1)]! + 1 : Math.max(dp[at(a + 1, b)]!, dp[at(a, b + 1)]!);
    }
  }
  const match = new Array<number>(n).fill(-1);
  for (let a = 0, b = 0; a < n && b < m; ) {
    if (same(a, b) && dp[at(a, b)] === dp[at(a + 1, b + 1)]! + 1) match[a++] = b++;
    else if (dp[at(a + 1, b)]! >= dp[at(a, b + 1)]!) a++;
    else b++;
  }
  return match;
}

/** Each element's callee (`name(` or `obj.name(` at its start) where no other element calls it; else null. */
function onceCalled(elements: string[], marker: boolean[]): Array<string | null> {
  const callees = elements.map((t, k) => (marker[k] ? null : (/^([\w$.]+)\s*\(/.exec(t)?.[1] ?? null)));
  return callees.map((c) => (c !== null && callees.filter((d) => d === c).length === 1 ? c : null));
}

interface Piece {
  start: number;
  end: number;
  marker: boolean;
  /** A marker comment written against the next ('before') or previous ('after') element, without a comma. */
  glued?: 'before' | 'after';
  /** A keyed element with a marker for its value (`key: [...]`): the original element of that key. */
  collapsed?: boolean;
}

/** The list's elements, with marker comments glued to an element split off it. */
function pieces(line: string, g: BracketList): Piece[] {
  const out: Piece[] = [];
  for (const e of g.elements) {
    if (isMarkerElement(line.slice(e.start, e.end))) {
      out.push({ ...e, marker: true });
      continue;
    }
    if (collapsedValue(line.slice(e.start, e.end))) {
      out.push({ ...e, marker: false, collapsed: true });
      continue;
    }
    const glued = gluedMarker(line, e);
    if (!glued) out.push({ ...e, marker: false });
    else if (glued.side === 'before') out.push({ ...glued.marker, marker: true, glued: 'before' }, { ...glued.code, marker: false });
    else out.push({ ...glued.code, marker: false }, { ...glued.marker, marker: true, glued: 'after' });
  }
  return out;
}

/**
 * The update line with the markers of list `g` expanded from the original line `c`, or null. `sole`:
 * `c` is the only original line with the list's head, so nothing else could be the line abbreviated.
 */
function expandList(line: string, g: BracketList, c: Candidate, orig: Original, sole = false): string | null {
  const ps = pieces(line, g);
  const u = ps.map((p) => line.slice(p.start, p.end));
  const marker = ps.map((p) => p.marker);
  const oe = c.list.elements;
  const o = oe.map((e) => c.text.slice(e.start, e.end));
  // A `...` the original list holds too is code there (Python's Ellipsis, C varargs), not a marker.
  if (u.some((t, k) => marker[k] && o.includes(t))) return null;
  if (u.length > MAX_ELEMENTS || o.length > MAX_ELEMENTS) return null;
  // A list of nothing but a marker (`headers: {...}`) is the original list as written, spacing and all.
  if (u.length === 1 && marker[0] && o.length > 0 && line[g.open] === c.text[c.list.open]) {
    return keepContinuation(line.slice(0, g.open + 1) + c.text.slice(c.list.open + 1, c.list.close) + line.slice(g.close), line.length - g.close, c, orig);
  }
  const match = alignElements(u, marker, o);
  // A collapsed element matched by its key is the original element; one matched to none is not certain.
  if (ps.some((p, a) => p.collapsed && match[a]! < 0)) return null;
  const ranges: Array<[number, number, number]> = []; // [update element, first original, last original]
  for (let a = 0; a < u.length; a++) {
    if (!marker[a]) continue;
    let prev = -1;
    for (let x = a - 1; x >= 0 && prev < 0; x--) if (match[x]! >= 0) prev = match[x]!;
    let next = o.length;
    for (let x = a + 1; x < u.length && next === o.length; x++) if (match[x]! >= 0) next = match[x]!;
    // A marker past the list's last shown element (or before its first) where the original has no
    // more: it stands for nothing and goes with its separator (`{ "jest": true, ... }` for `{ "jest": true }`).
    // Not bare dots in parentheses: there they are C's and Go's varargs (`fmt, ...)`), new code.
    const bareDotsInCall = line[g.open] === '(' && /^(?:\.{3}|…)$/.test(u[a]!);
    const atEdge = ((next === o.length && prev === o.length - 1) || (prev === -1 && next === 0)) && !bareDotsInCall;
    // A marker inside the list that stands for nothing, right beside a new element, marks where that
    // element goes (`"pending", /* ... */ "snoozed", "closed"` for `"pending", "closed"`): it goes with
    // its separator. Not any list that adds elements: the marker's emptiness is what tells a line from
    // its look-alikes (`{ host, /* ... */ port, retries }` is not `{ host, port }`; probes-inlinez ts01).
    const besideNew = [a - 1, a + 1].some((x) => x >= 0 && x < u.length && !marker[x] && match[x]! < 0 && !ps[x]!.collapsed);
    // So does a marker comment anywhere in a list that adds an element, when the line is the only one
    // with its head (`['auth:sanctum', /* ... */ 'throttle:api', 'ensure.active']`): no look-alike to
    // tell apart. Bare dots stay refused (inline-markers-outside-lists.test.ts).
    const addsToSole = sole && !/^(?:\.{3}|…)$/.test(u[a]!) && u.some((t, x) => !marker[x] && match[x]! < 0 && !ps[x]!.collapsed);
    // Two markers between the same shown elements, or one inside the list that stands for nothing: not certain.
    if ((next - prev < 2 && !(atEdge && u.length > 1) && !besideNew && !addsToSole) || ranges.some((r) => r[1] === prev + 1)) return null;
    ranges.push([a, prev + 1, next - 1]);
  }
  // The separator a glued marker's elements need where the original's own is not at hand.
  const sep = (x: number): string => (x >= 0 && x + 1 < oe.length ? c.text.slice(oe[x]!.end, oe[x + 1]!.start) : oe.length > 1 ? c.text.slice(oe[0]!.end, oe[1]!.start) : ', ');
  // Edits as [from, to, text] of the update line, applied right to left (they do not overlap).
  const edits: Array<[number, number, string]> = [];
  for (const [a, first, last] of ranges) {
    const p = ps[a]!;
    if (first > last) {
      // A marker glued to the next element (`/* ... */ "snoozed"`) goes alone; its list separator stays.
      edits.push(a > 0 && p.glued !== 'before' ? [ps[a - 1]!.end, p.end, ''] : [p.start, ps[a + 1]!.start, '']);
      continue;
    }
    const items = c.text.slice(oe[first]!.start, oe[last]!.end);
    if (p.glued === 'before') edits.push([p.start, ps[a + 1]!.start, items + sep(last)]);
    else if (p.glued === 'after') edits.push([ps[a - 1]!.end, p.end, sep(first - 1) + items]);
    else edits.push([p.start, p.end, items]);
  }
  ps.forEach((p, a) => {
    if (p.collapsed) edits.push([p.start, p.end, o[match[a]!]!]);
  });
  edits.sort((x, y) => y[0] - x[0]);
  let out = line;
  for (const [from, to, text] of edits) out = out.slice(0, from) + text + out.slice(to);
  return keepContinuation(out, line.length - g.close, c, orig);
}

/**
 * `FindAsync(/* ... *\/);` for an original `FindAsync(id, ct)` whose statement goes on over the
 * next line (`?? throw ...`): the `;` the update closes the condensed statement with is not an edit.
 */
function keepContinuation(out: string, tailFromEnd: number, c: Candidate, orig: Original): string {
  const uTail = out.slice(out.length - tailFromEnd + 1).trimEnd();
  const oTail = c.text.slice(c.list.close + 1).trimEnd();
  if (uTail !== `${oTail};`) return out;
  let k = c.j + 1;
  while (k < orig.trimmed.length && !orig.trimmed[k]) k++;
  if (k >= orig.trimmed.length || !CONTINUATION_LINE.test(orig.trimmed[k]!)) return out;
  return out.slice(0, out.length - tailFromEnd + 1) + oTail;
}

/** Bare dots in a subscript (`Callable[..., T]`, `x[..., 0]`, `Tuple[int, ...]`) are the language's own. */
function isSubscript(line: string, g: BracketList): boolean {
  return line[g.open] === '[' && g.open > 0 && /[\w\])]/.test(line[g.open - 1]!);
}

/** How a list is read: by commas, as a line's unbracketed value list, or word by word (no commas). */
type ListMode = 'commas' | 'value' | 'words';

/** Update line i with list g expanded from the original line with the same head, or null. */
function expandAt(update: string[], i: number, line: string, g: BracketList, mode: ListMode, orig: Original, onPick?: OnPick): string | null {
  const indent = line.length - line.trimStart().length;
  const head = line.slice(indent, g.open + 1);
  if (head.slice(0, -1).trim().length < 2) return null;
  if (isSubscript(line, g) && g.elements.some((e) => /^(?:\.{3}|…)$/.test(line.slice(e.start, e.end)))) return null;
  const cands: Candidate[] = [];
  orig.trimmed.forEach((t, j) => {
    if (!t.startsWith(head)) return;
    const lists = bracketLists(t, mode === 'value' ? head.length : undefined);
    let list = mode === 'value' ? lists?.[lists.length - 1] : lists?.find((l) => l.open === head.length - 1);
    if (list && mode === 'words') list = wordList(t, list) ?? undefined;
    if (list && list.close >= 0) cands.push({ j, text: t, list });
    // The original spreads the list over the rows below, one element a row (spread-lists.ts).
    else if (list && mode === 'commas' && list.elements.length === 0) {
      const spread = spreadList(orig.lines, orig.trimmed, j, head.length - 1);
      if (spread) cands.push({ j, text: spread.text, list: spread.list, spread });
    }
  });
  const c = pickCandidate(cands, update, i, orig, (left) => bySharedElements(left, line, g) ?? byContextAbove(left, update, i, orig) ?? soleExpandable(left, line, g, orig));
  const out = c && expandList(line, g, c, orig, cands.length === 1);
  if (out) onPick?.(g.open, c.j);
  if (!out || !c.spread) return out;
  return respread(out, g.open, c.spread, orig.lines)?.join('\n') ?? null;
}

/** Told the original line a list of the update line (opening at `open`) was expanded from. */
type OnPick = (open: number, j: number) => void;

/** Update line i with every marker it holds expanded, or null when none could be. */
function expandLine(update: string[], i: number, orig: Original, onPick?: OnPick): string | null {
  return expandLists(update, i, orig, onPick) ?? expandOutsideLists(update, i, orig);
}

/** A marker outside the line's brackets (line-elision.ts), from the one original line it names. */
function expandOutsideLists(update: string[], i: number, orig: Original): string | null {
  const line = update[i]!;
  const t = line.trim();
  const e = lineElision(t);
  // A token the original also writes alone is code there (Python's Ellipsis, a comment the file
  // has); dots inside a word (`go test ./...`) are not that token.
  const alone = e && new RegExp(`(?<=^|[\\s,])${escapeRe(e.marker)}(?=[\\s,;]|$)`);
  if (!e || orig.trimmed.some((o) => alone!.test(o))) return null;
  const cands = orig.trimmed.flatMap((o, j) => (o.startsWith(e.head) && o !== t ? [{ j, text: o }] : []));
  const c = pickCandidate(cands.length > 0 ? cands : editedHeadCandidates(e.head, orig), update, i, orig);
  const out = c && expandElision(e, c.text);
  return out ? line.slice(0, line.length - line.trimStart().length) + out : null;
}

/**
 * Original lines a marker line with an edited head stands for (`.PHONY: help build test-integration
 * tidy ... clean` where the original has no `test-integration`): a line starting with the head's
 * first two words that holds the head's last word once, read as the head followed by what the
 * original has after that word, so that the marker stands for the original's words from there on.
 */
function editedHeadCandidates(head: string, orig: Original): Array<{ j: number; text: string }> {
  const words = head.trim().split(/\s+/);
  const first = `${words[0]!} ${words[1] ?? ''}`;
  const last = words[words.length - 1]!;
  if (words.length < 4 || first.length < 6) return [];
  const lastAt = new RegExp(`(?<=\\s)${escapeRe(last)}(?=\\s|$)`, 'g');
  return orig.trimmed.flatMap((o, j) => {
    if (!o.startsWith(first + ' ')) return [];
    const at = [...o.matchAll(lastAt)];
    return at.length === 1 ? [{ j, text: head + o.slice(at[0]!.index! + last.length).replace(/^\s+/, '') }] : [];
  });
}

/** Update line i with every marker element of its bracketed or value lists expanded, or null. */
function expandLists(update: string[], i: number, orig: Original, onPick?: OnPick): string | null {
  let line = update[i]!;
  let changed = false;
  let limit = Infinity;
  for (let guard = 0; guard < 8; guard++) {
    const lists = bracketLists(line);
    if (!lists) return null;
    // The rightmost list still to do that holds a marker: expanding it moves nothing to its left.
    let g: BracketList | null = null;
    for (const l of lists) if (l.close >= 0 && l.open < limit && (!g || l.open > g.open) && holdsMarker(line, l)) g = l;
    if (!g) break;
    limit = g.open;
    const next = expandAt(update, i, line, g, 'commas', orig, onPick);
    // A list written back over several rows ends the line's expansion.
    if (next?.includes('\n')) return next;
    if (next) {
      line = next;
      changed = true;
    }
  }
  if (changed) return line;
  // A list without commas holding a bare `...` word: a shell array, CMake or Nix arguments.
  const lists = bracketLists(line);
  for (const l of lists ?? []) {
    const w = wordList(line, l);
    if (!w || !w.elements.some((e) => /^(?:\.{3}|…)$/.test(line.slice(e.start, e.end)))) continue;
    const next = expandAt(update, i, line, w, 'words', orig);
    if (next) return next;
  }
  // No bracket around the marker: the line's value list (`font-family: Inter, …, sans-serif;`).
  const from = valueListStart(line.trimStart());
  if (from < 0) return null;
  const indent = line.length - line.trimStart().length;
  const values = bracketLists(line, indent + from);
  const v = values?.[values.length - 1];
  if (!v || v.elements.length < 2 || !holdsMarker(line, v)) return null;
  return expandAt(update, i, line, v, 'value', orig);
}

/**
 * The update's laid-out lists (laid-out-lists.ts) expanded from the one-line original lists they
 * lay out, each between the original lines that place it; a list that is not expanded keeps its
 * rows, for the per-line expansion. `done` holds the rows not to expand again. Null when none is.
 */
function expandLaidOut(lines: string[], crs: string[], cr: string, orig: Original): { lines: string[]; crs: string[]; done: Set<number> } | null {
  const folded = foldLaidOutLists(lines, orig.trimmed, orig.set);
  if (!folded) return null;
  const out: string[] = [];
  const outCrs: string[] = [];
  const done = new Set<number>();
  for (let i = 0, x = 0; i < folded.lines.length; i++) {
    const fold = folded.folds.get(i);
    const n = fold?.rows.length ?? 1;
    let from = -1;
    const rows = fold ? unfold(expandLine(folded.lines, i, orig, (open, j) => (from = open === fold.open ? j : from)), fold) : null;
    if (!fold || !rows || rows === fold.rows) {
      out.push(...lines.slice(x, x + n));
      outCrs.push(...crs.slice(x, x + n));
    } else {
      const around = (step: 1 | -1) => anchorRows(folded.lines, i, from, step, orig.lines, orig.trimmed, orig.set);
      const placed = [...around(-1), ...rows, ...around(1)];
      for (let k = 0; k < placed.length; k++) done.add(out.length + k);
      out.push(...placed);
      outCrs.push(...placed.map((_, k) => (k < placed.length - 1 ? cr : crs[x + n - 1]!)));
    }
    x += n;
  }
  return done.size > 0 ? { lines: out, crs: outCrs, done } : null;
}

/** The update with every inline marker it can place expanded from the original; other lines stay. */
export function expandInlineMarkers(update: string, code: string): string {
  if (!MAYBE_MARKER.test(update)) return update;
  let lines = update.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const cr = update.includes('\r\n') ? '\r' : '';
  let crs: string[] = update.split('\n').map((l) => (l.endsWith('\r') ? '\r' : ''));
  const orig = readOriginal(code);
  // A one-line list laid out over rows with a marker row: expanded as that one line first.
  const laid = expandLaidOut(lines, crs, cr, orig);
  if (laid) [lines, crs] = [laid.lines, laid.crs];
  let changed = laid !== null;
  const out = lines.map((l, i) => {
    if (laid?.done.has(i) || !MAYBE_MARKER.test(l) || isMarkerLine(l, orig.set)) return l + crs[i]!;
    const e = expandLine(lines, i, orig);
    if (e === null) return l + crs[i]!;
    changed = true;
    return e.split('\n').join(`${crs[i]!}\n`) + crs[i]!;
  });
  return changed ? out.join('\n') : update;
}
