// The bracketed lists of one line and their elements, for inline markers (inline-markers.ts):
// `f(a, /* ... */, c)`, `["x", ..., "z"]`, `(sm: 640px, …)`, `{ RED, /* ... */ }`. Quoted text and
// block comments are atoms; a line comment ends the scan. One pass over the line.
import { CLOSING_BRACKET } from './brackets.js';
import { isMarkerLine } from './markers.js';

export interface Element {
  /** Span of the element's text in the line, trimmed of the spaces around it. */
  start: number;
  end: number;
}

export interface BracketList {
  /** Index of the opening bracket. */
  open: number;
  /** Index of the closing bracket, or -1 when the list goes on past the line. */
  close: number;
  /** Non-blank elements between the separators (a trailing comma's empty element is dropped). */
  elements: Element[];
}

const NO_MARKERS: ReadonlySet<string> = new Set();

/**
 * A `'` opens a string only after a non-word character or a string prefix (`f'`, `rb'`): `don't` in
 * a YAML scalar is no string. `"` and backticks always do (`f"..."`, `$"..."`, `u8"..."`).
 */
function opensString(line: string, k: number): boolean {
  if (line[k] !== "'") return true;
  return k === 0 || !/[\w\\]/.test(line[k - 1]!) || /(?:^|[^\w])[fFrRbBuU]{1,2}$/.test(line.slice(Math.max(0, k - 3), k));
}

function pushElement(line: string, list: BracketList, from: number, to: number): void {
  let a = from;
  let b = to;
  while (a < b && /\s/.test(line[a]!)) a++;
  while (b > a && /\s/.test(line[b - 1]!)) b--;
  if (b > a) list.elements.push({ start: a, end: b });
}

/**
 * The bracketed lists of `line`, inner lists before the lists holding them; null when the brackets
 * do not pair up. With `valueFrom`, the line's text from there to a `;` or the line's end is read as
 * one more list, last in the answer (a CSS `font-family: a, b, c;`, a Python `import a, b`).
 */
export function bracketLists(line: string, valueFrom?: number): BracketList[] | null {
  const out: BracketList[] = [];
  const stack: Array<{ list: BracketList; from: number; closer: string }> = [];
  let k = valueFrom ?? 0;
  if (valueFrom !== undefined) stack.push({ list: { open: valueFrom - 1, close: -1, elements: [] }, from: valueFrom, closer: ';' });
  for (; k < line.length; k++) {
    const c = line[k]!;
    if ((c === '"' || c === "'" || c === '`') && opensString(line, k)) {
      let j = k + 1;
      while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
      if (j >= line.length) return null; // an unclosed quote: not a line to read element by element
      k = j;
    } else if (c === '/' && line[k + 1] === '*') {
      const j = line.indexOf('*/', k + 2);
      if (j < 0) break;
      k = j + 1;
    } else if (c === '<' && line.startsWith('<!--', k)) {
      const j = line.indexOf('-->', k + 4);
      if (j < 0) break;
      k = j + 2;
    } else if (c === '-' && line.startsWith('--[[', k)) {
      // A Lua block comment: its brackets are the comment's, not lists.
      const j = line.indexOf(']]', k + 4);
      if (j < 0) break;
      k = j + 1;
    } else if (c === '/' && line[k + 1] === '/' && (k === 0 || /\s/.test(line[k - 1]!))) {
      break;
    } else if (c === '#' && (k === 0 || /\s/.test(line[k - 1]!)) && (k + 1 >= line.length || line[k + 1] === ' ')) {
      break;
    } else if (c in CLOSING_BRACKET) {
      stack.push({ list: { open: k, close: -1, elements: [] }, from: k + 1, closer: CLOSING_BRACKET[c]! });
    } else if (c === ';' && valueFrom !== undefined && stack.length === 1) {
      break;
    } else if (c === ')' || c === ']' || c === '}') {
      const top = stack.pop();
      if (!top || top.closer !== c) return null;
      pushElement(line, top.list, top.from, k);
      top.list.close = k;
      out.push(top.list);
    } else if (c === ',' && stack.length > 0) {
      const top = stack[stack.length - 1]!;
      pushElement(line, top.list, top.from, k);
      top.from = k + 1;
    }
  }
  // Lists still open at the end of the line go on past it; the value list ends with the line.
  for (let s = stack.length - 1; s >= 0; s--) {
    const top = stack[s]!;
    pushElement(line, top.list, top.from, k);
    if (top.closer === ';') top.list.close = k;
    out.push(top.list);
  }
  return out;
}

/**
 * Where a line's unbracketed value list starts: after the first `: `, ` = ` or ` import ` outside
 * brackets and quotes (`font-family: Inter, …, sans-serif;`), or -1.
 */
export function valueListStart(line: string): number {
  const m = /^[^"'`()[\]{}]*?(?::\s|\s=\s|\simport\s)/.exec(line);
  return m ? m[0].length : -1;
}

const BLOCK_COMMENT = /^(?:\{\s*\/\*+.*\*+\/\s*\}|\/\*+.*\*+\/|<!--+.*-+->|\(\*+.*\*+\)|--\[\[.*\]\])$/;

/**
 * True when an element, as written, is a marker: bare `...` / `…` or a block comment whose text
 * reads as one (`/* ... existing items ... *\/`). `...args`, `args...`, `..` and strings are code.
 */
export function isMarkerElement(text: string): boolean {
  const t = text.trim();
  if (t === '...' || t === '…') return true;
  return BLOCK_COMMENT.test(t) && (isMarkerLine(t, NO_MARKERS) || ELIDED_ITEMS.test(commentText(t)));
}

/**
 * A comment that is a whole element and names what it stands for, without dots: `[/* existing
 * types *\/, "m6i"]`, `(/* other args *\/)`. Alone in an element slot a comment can only stand in for
 * elements; as a whole line such words would be prose, so only elements read them this way.
 */
const ELIDED_ITEMS = /^(?:existing|other|remaining|previous|more|rest of(?: the)?|the rest(?: of the)?|all(?: the)?(?: other)?)(?:\s+[\w-]+){0,3}$/i;

/** The words of a block comment element: `/* existing types *\/` → `existing types`. */
function commentText(t: string): string {
  return t.replace(/^\{\s*|\s*\}$/g, '').replace(/^(?:\/\*+|<!--+|\(\*+|--\[\[)|(?:\*+\/|-+->|\*+\)|\]\])$/g, '').trim();
}

/**
 * The key of a keyed element — `features = ["a"]`, `md: 768px`, `"b": 2`, `timeout=5` — or null.
 * `==`, `=>`, `::` and `:=` do not key an element, nor does a URL's scheme (`https://a.example.com`).
 */
export function elementKey(text: string): string | null {
  const m = /^(["'`]?)([\w$.@-]+)\1\s*(?::(?![:=]|\/\/)|=(?![=>]))\s*\S/.exec(text);
  return m ? m[2]! : null;
}

/**
 * A keyed element whose value is a bracket holding only a marker — `line_items_attributes: [...]`,
 * `headers: {/* ... *\/}` — stands for the original element of that key, value and all.
 */
export function collapsedValue(text: string): boolean {
  if (elementKey(text) === null) return false;
  const m = /^(["'`]?)[\w$.@-]+\1\s*[:=]\s*([[({])(.*)([\])}])$/.exec(text);
  return m !== null && CLOSING_BRACKET[m[2]!] === m[4] && isMarkerElement(m[3]!);
}

/** A marker comment written against an element without its own comma: `/* ... *\/ xl: 1200px`. */
export interface GluedMarker {
  marker: Element;
  code: Element;
  /** Which side of the element the marker is on. */
  side: 'before' | 'after';
}

/** Element `e` of `line` read as a marker comment glued to an element, or null. */
export function gluedMarker(line: string, e: Element): GluedMarker | null {
  const t = line.slice(e.start, e.end);
  const lead = /^(\/\*.*?\*\/|<!--.*?-->|--\[\[.*?\]\])\s+(?=\S)/.exec(t) ?? BARE_DOTS_BEFORE.exec(t);
  if (lead && isMarkerElement(lead[1]!)) {
    return { marker: { start: e.start, end: e.start + lead[1]!.length }, code: { start: e.start + lead[0].length, end: e.end }, side: 'before' };
  }
  const dots = BARE_DOTS_AFTER.exec(t);
  const open = t.endsWith('*/') ? t.lastIndexOf('/*') : t.endsWith('-->') ? t.lastIndexOf('<!--') : t.endsWith(']]') ? t.lastIndexOf('--[[') : dots ? dots.index + dots[0].length - dots[1]!.length : -1;
  if (open > 0 && /\s/.test(t[open - 1]!) && isMarkerElement(t.slice(open))) {
    const code = t.slice(0, open).trimEnd();
    if (code && !/[*/]$/.test(code)) return { marker: { start: e.start + open, end: e.end }, code: { start: e.start, end: e.start + code.length }, side: 'after' };
  }
  return null;
}

/**
 * Bare dots written against an element with a space and no comma (`["plan", ... "channel"]`,
 * `["a" ... "d"]`): a marker, as a glued comment is, when the rest is one string or word. Spread and
 * variadics (`...rest`, `xs...`) have no space there; a list without commas (`[ ... gdal geos ]` in
 * Nix) is read word by word elsewhere, and a fold (`(args + ...)`) is more than one word.
 */
const BARE_DOTS_BEFORE = /^(\.{3}|…)\s+(?=(?:"[^"]*"|'[^']*'|`[^`]*`|[\w$@.:-]+)$)/;
const BARE_DOTS_AFTER = /^(?:"[^"]*"|'[^']*'|`[^`]*`|[\w$@.:-]+)\s+(\.{3}|…)$/;

/**
 * A list written without commas (`(app analytics auth billing)` in a shell array, CMake arguments,
 * a Nix list) read word by word: whitespace separates, quotes and inner brackets are atoms. Null when
 * the list has commas or fewer than two words.
 */
export function wordList(line: string, list: BracketList): BracketList | null {
  if (list.close < 0 || list.elements.length !== 1) return null;
  const out: BracketList = { open: list.open, close: list.close, elements: [] };
  let depth = 0;
  let from = -1;
  for (let k = list.open + 1; k <= list.close; k++) {
    const c = line[k]!;
    if (k === list.close || (depth === 0 && /\s/.test(c))) {
      if (from >= 0) out.elements.push({ start: from, end: k });
      from = -1;
      continue;
    }
    if (from < 0) from = k;
    if (c === '"' || c === "'" || c === '`') {
      let j = k + 1;
      while (j < list.close && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
      if (j >= list.close) return null;
      k = j;
    } else if (c in CLOSING_BRACKET) depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
  }
  return depth === 0 && out.elements.length >= 2 ? out : null;
}

/** List `l` of `line` holds a marker element, a marker comment glued to an element, or a collapsed value (`key: [...]`). */
export function holdsMarker(line: string, l: BracketList): boolean {
  return l.elements.some((e) => isMarkerElement(line.slice(e.start, e.end)) || gluedMarker(line, e) !== null || collapsedValue(line.slice(e.start, e.end)));
}

/**
 * A closed or open list of `line` holds a marker (`holdsMarker`), or bare dots as a word of a list
 * without commas (`{:port 3000 ...}` in Clojure or Nix), not the language's own `x[...]` or `[...]int`.
 */
export function holdsMarkerElement(line: string): boolean {
  const lists = bracketLists(line);
  if (!lists) return false;
  return lists.some((l) => {
    if (line[l.open] === '[' && (/[\w\])]/.test(line[l.open - 1] ?? '') || /\w/.test(line[l.close + 1] ?? ''))) return false;
    if (holdsMarker(line, l)) return true;
    const w = wordList(line, l.close >= 0 ? l : { ...l, close: line.length });
    return w !== null && w.elements.some((e) => /^(?:\.{3}|…)$/.test(line.slice(e.start, e.end)));
  });
}
