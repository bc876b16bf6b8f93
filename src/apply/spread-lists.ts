// An inline marker written on one line for a list the original spreads over several lines, one
// element a line: `module.exports = { /* ... */, clean };` for
//   module.exports = {
//     loadConfig,
//     build,
//   };
// The original list is read as one line (its head, its elements joined, its closer) so the inline
// expansion aligns elements as for any one-line list; the expanded line is then written back in the
// original's layout (one element a line, its indentation, its trailing comma), new elements included.
import { bracketLists, type BracketList } from './inline-elements.js';
import { CLOSING_BRACKET } from './brackets.js';
import { indentLength } from './lines.js';

/** Longest list read this way (lines). */
const MAX_SPREAD = 400;
/** A comment inside an element line: its text would be taken for part of an element. */
const COMMENT = /\/\/|\/\*|(?:^|\s)#|<!--|(?:^|\s)--\s/;

export interface SpreadList {
  /** The original list as one line: trimmed head line, elements joined by ', ', closer line trimmed. */
  text: string;
  list: BracketList;
  /** Original rows of the head line and of the closer line. */
  head: number;
  end: number;
  /** Indentation of the element lines, and whether the last element carries a comma too. */
  itemIndent: string;
  trailingComma: boolean;
}

/**
 * The list that original row j opens at its end (`{`, `[`, `(` last on the line, at bracket index
 * `open` of the trimmed row), spread one element a line to a closer line at j's indentation; null
 * when the rows between are not one plain element each.
 */
export function spreadList(lines: readonly string[], trimmed: readonly string[], j: number, open: number): SpreadList | null {
  const t = trimmed[j]!;
  const closer = CLOSING_BRACKET[t[open]!];
  if (open !== t.length - 1 || !closer) return null;
  const indent = indentLength(lines[j]!);
  const items: string[] = [];
  let itemIndent: string | null = null;
  let trailingComma = false;
  for (let k = j + 1; k < lines.length && k <= j + MAX_SPREAD; k++) {
    const row = trimmed[k]!;
    if (!row) return null;
    if (row.startsWith(closer)) {
      if (indentLength(lines[k]!) !== indent || items.length === 0) return null;
      const text = `${t}${items.join(', ')}${row}`;
      const list = bracketLists(text)?.find((l) => l.open === open);
      if (!list || list.close < 0 || list.elements.length !== items.length) return null;
      return { text, list, head: j, end: k, itemIndent: itemIndent!, trailingComma };
    }
    const ind = lines[k]!.slice(0, indentLength(lines[k]!));
    if (itemIndent === null) itemIndent = ind;
    if (ind !== itemIndent || ind.length <= indent || COMMENT.test(row)) return null;
    const item = row.endsWith(',') ? row.slice(0, -1).trimEnd() : row;
    // One element a line: its brackets pair up and it holds no comma of its own list.
    const own = bracketLists(`(${item})`);
    if (!item || !own || own[own.length - 1]!.elements.length !== 1 || own.some((l) => l.close < 0)) return null;
    // Only the last element may go without its comma.
    if (items.length > 0 && !trailingComma) return null;
    trailingComma = row.endsWith(',');
    items.push(item);
  }
  return null;
}

/**
 * The expanded one-line list (`line`, list opening at `open`) written back in the original's layout:
 * the original head row, one element a row, the original closer row. Null when the line's text
 * around the list is not the original's (an edit outside the list is not this rule's to place).
 */
export function respread(line: string, open: number, s: SpreadList, lines: readonly string[]): string[] | null {
  const l = bracketLists(line)?.find((x) => x.open === open);
  if (!l || l.close < 0) return null;
  const indent = line.length - line.trimStart().length;
  const headRow = lines[s.head]!;
  if (line.slice(0, open + 1).trimStart() !== headRow.trim()) return null;
  const closeRow = lines[s.end]!;
  if (line.slice(l.close).trim() !== closeRow.trim() || indent !== indentLength(headRow)) return null;
  const items = l.elements.map((e) => line.slice(e.start, e.end));
  const rows = items.map((e, k) => `${s.itemIndent}${e}${k < items.length - 1 || s.trailingComma ? ',' : ''}`);
  return [headRow, ...rows, closeRow];
}
