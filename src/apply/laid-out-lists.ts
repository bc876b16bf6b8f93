// A list the original writes on one line and the update lays out one element a row, with a marker
// row among the elements (spread-lists.ts is the converse: an original spread over rows, an update
// line holding the marker):
//   original   plugins: [react(), svgr(), tsconfigPaths()],
//   update     plugins: [
//                react(),
//                /* ... */
//                tsconfigPaths(),
//                visualizer(),
//              ],
// The marker row stands for the original's elements between its shown neighbours, as a marker
// element of the one-line list would; read as a whole-line marker it stood for nothing, and the
// elements it hid were lost with the replaced line. The rows are folded into one line (the marker
// row as a `...` element) for the inline expansion (inline-markers.ts) and unfolded afterwards in
// the update's layout: its head row, one element a row at its indentation, its trailing comma, its
// closer row.
import { bracketLists } from './inline-elements.js';
import { indentLength } from './lines.js';
import { isMarkerLine } from './markers.js';
import { respread, spreadList, type SpreadList } from './spread-lists.js';

/** A run of update rows folded into one line. */
export interface Fold {
  /** The update's rows as written (without `\r`), restored when the folded line is not expanded. */
  rows: string[];
  /** The rows as spreadList read them (marker rows as `...,`), and where the list opens in the folded line. */
  read: string[];
  spread: SpreadList;
  open: number;
}

/** Longest run of rows folded (lines). */
const MAX_ROWS = 200;

/**
 * The update's rows with every laid-out list that holds a marker row, and whose head the original
 * writes as a one-line list (and never as a row of its own), folded into one line; `folds` maps the
 * folded line's index to its rows. Null when nothing is folded.
 */
export function foldLaidOutLists(lines: readonly string[], origTrimmed: readonly string[], origSet: ReadonlySet<string>): { lines: string[]; folds: Map<number, Fold> } | null {
  const out: string[] = [];
  const folds = new Map<number, Fold>();
  for (let i = 0; i < lines.length; i++) {
    const fold = foldAt(lines, i, origTrimmed, origSet);
    if (!fold) {
      out.push(lines[i]!);
      continue;
    }
    folds.set(out.length, fold);
    const head = lines[i]!;
    out.push(head.slice(0, indentLength(head)) + fold.spread.text);
    i += fold.rows.length - 1;
  }
  return folds.size > 0 ? { lines: out, folds } : null;
}

function foldAt(lines: readonly string[], i: number, origTrimmed: readonly string[], origSet: ReadonlySet<string>): Fold | null {
  const head = lines[i]!.trim();
  if (!/[[({]$/.test(head) || head.length < 3) return null;
  // The original writes this list on one line: a row with the same head whose list closes on it.
  const open = head.length - 1;
  const oneLine = origTrimmed.some((t) => t.length > head.length && t.startsWith(head) && (bracketLists(t)?.some((l) => l.open === open && l.close > open) ?? false));
  if (!oneLine) return null;
  const indent = indentLength(lines[i]!);
  const read: string[] = [lines[i]!];
  let markers = 0;
  let itemIndent: string | null = null;
  for (let k = i + 1; k < lines.length && k <= i + MAX_ROWS; k++) {
    const row = lines[k]!;
    const t = row.trim();
    if (!t) return null;
    if (indentLength(row) <= indent) {
      if (markers === 0 || itemIndent === null) return null;
      read.push(row);
      const spread = spreadList(read, read.map((r) => r.trim()), 0, open);
      return spread ? { rows: lines.slice(i, k + 1), read, spread, open: indent + open } : null;
    }
    if (isMarkerLine(t, origSet) || isMarkerLine(t.replace(/,$/, ''), origSet)) {
      markers++;
      read.push(`${itemIndent ?? row.slice(0, indentLength(row))}...,`);
      continue;
    }
    itemIndent ??= row.slice(0, indentLength(row));
    read.push(row);
  }
  return null;
}

/**
 * The rows a folded line stands for after the inline expansion: the expanded list written back in
 * the update's layout, or the update's own rows when it was not expanded (or cannot be written back).
 */
export function unfold(expanded: string | null, fold: Fold): string[] {
  if (expanded === null || expanded.includes('\n')) return fold.rows;
  // The marker stood for elements: an expansion that left a `...` in place expanded nothing certain.
  const l = bracketLists(expanded)?.find((x) => x.open === fold.open);
  if (!l || l.elements.some((e) => /^(?:\.{3}|…)$/.test(expanded.slice(e.start, e.end)))) return fold.rows;
  return respread(expanded, fold.open, fold.spread, fold.read) ?? fold.rows;
}

/** Original lines looked at above a laid-out list for one that places it. */
const ANCHOR_ROWS = 3;

/**
 * The original lines to show above (step -1) or below (+1) a laid-out list expanded from original
 * line j, when the update row on that side of it is a marker: the nearest line on that side of j
 * that the original has once, and those between. The laid-out rows are all new text (their head,
 * `import {`, starts several original lines), so the line merge has nothing to place them by and
 * may take them for an edit of another line with that head, or the line next to them for the one
 * they replace; the original lines around the one they replace place them there. None when no line
 * in reach is unique, or when the update shows that line itself. With `edge`, the update's edge on
 * that side counts as a marker (an update with markers never vouches for its edges).
 */
export function anchorRows(lines: readonly string[], i: number, j: number, step: 1 | -1, origLines: readonly string[], origTrimmed: readonly string[], origSet: ReadonlySet<string>, edge = false): string[] {
  let k = i + step;
  while (k >= 0 && k < lines.length && !lines[k]!.trim()) k += step;
  const atEdge = k < 0 || k >= lines.length;
  if (j < 0 || (atEdge && !edge) || (!atEdge && !isMarkerLine(lines[k]!.trim(), origSet))) return [];
  for (let y = j + step, seen = 0; y >= 0 && y < origTrimmed.length && seen < ANCHOR_ROWS; y += step) {
    const t = origTrimmed[y]!;
    if (!t) continue;
    seen++;
    if (origTrimmed.indexOf(t) !== y || origTrimmed.lastIndexOf(t) !== y) continue;
    // A line the update shows itself places the rows already (the marker between stands for nothing).
    if (lines.some((l) => l.trim() === t)) return [];
    return step < 0 ? origLines.slice(y, j) : origLines.slice(j + 1, y + 1);
  }
  return [];
}
