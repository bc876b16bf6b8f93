// A list the original writes on one line and the update writes out one element a row, with no
// marker among the rows (a reflow, elements possibly added), shown alone between markers:
//   original   from sklearn.metrics import RocCurveDisplay, classification_report, roc_auc_score
//   update     from sklearn.metrics import (
//                  RocCurveDisplay,
//                  classification_report,
//                  precision_recall_curve,
//                  roc_auc_score,
//              )
//              # ...
// Every row is new text, so nothing placed them: they went where a lone `)` matched, and the
// one-line original stayed beside them. When exactly one original line has the head and its
// elements are all among the rows', the rows are that line rewritten: the original lines around it
// are written next to them on the marker's side (laid-out-lists.ts anchorRows), so the merge puts the
// rows where that line was, and the no-loss check reads that line as replaced in place.
import { bracketLists, isMarkerElement, valueListStart } from './inline-elements.js';
import { anchorRows } from './laid-out-lists.js';
import { isMarkerLine } from './markers.js';
import { spreadList } from './spread-lists.js';

/** The elements of original line `t` when it writes the list that head row `head` opens on one line, or null. */
function oneLineElements(t: string, head: string, closeRow: string): string[] | null {
  const open = head.length - 1;
  if (t.startsWith(head)) {
    const l = bracketLists(t)?.find((x) => x.open === open);
    // The same list closed on the line, with the closer row's own tail (`} from "./config";`).
    if (!l || l.close < 0 || t.slice(l.close) !== closeRow) return null;
    return l.elements.map((e) => t.slice(e.start, e.end));
  }
  // Python's `from x import (a, b)` is `from x import a, b`: the parentheses only allow the rows.
  const bare = head.slice(0, open).trimEnd();
  if (head[open] !== '(' || closeRow !== ')' || !t.startsWith(`${bare} `) || valueListStart(t) !== bare.length + 1) return null;
  const v = bracketLists(t, bare.length + 1);
  const l = v?.[v.length - 1];
  return l ? l.elements.map((e) => t.slice(e.start, e.end)) : null;
}

/** The first non-blank update row past row i in direction `step` is a marker, or there is none. */
function besideMarker(trimmed: string[], i: number, step: 1 | -1, origSet: ReadonlySet<string>): boolean {
  let k = i + step;
  while (k >= 0 && k < trimmed.length && !trimmed[k]) k += step;
  return k < 0 || k >= trimmed.length || isMarkerLine(trimmed[k]!, origSet);
}

/** The update with the original lines around each reflowed list written next to it on its marker's side. */
export function placeReflowedLists(update: string, code: string): string {
  if (!/[[({][ \t]*\r?\n/.test(update)) return update;
  const cr = update.includes('\r\n') ? '\r' : '';
  const lines = update.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const trimmed = lines.map((l) => l.trim());
  const origLines = code.split(/\r?\n/);
  const origTrimmed = origLines.map((l) => l.trim());
  const origSet = new Set(origTrimmed);
  if (!trimmed.some((t) => isMarkerLine(t, origSet))) return update;
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const placed = reflowAt(lines, trimmed, i, origLines, origTrimmed, origSet);
    if (!placed) {
      out.push(lines[i]!);
      continue;
    }
    out.push(...placed.rows);
    i = placed.end;
    changed = true;
  }
  return changed ? out.join(`${cr}\n`) : update;
}

/** The rows of the list update row i opens, with their placing context, and its last row; or null. */
function reflowAt(lines: string[], trimmed: string[], i: number, origLines: string[], origTrimmed: string[], origSet: ReadonlySet<string>): { rows: string[]; end: number } | null {
  const head = trimmed[i]!;
  if (!/[[({]$/.test(head) || head.length < 4 || origSet.has(head)) return null;
  const spread = spreadList(lines, trimmed, i, head.length - 1);
  if (!spread) return null;
  const shown = spread.list.elements.map((e) => spread.text.slice(e.start, e.end));
  if (shown.some(isMarkerElement)) return null;
  const closeRow = trimmed[spread.end]!;
  let j = -1;
  for (let y = 0; y < origTrimmed.length; y++) {
    const elements = oneLineElements(origTrimmed[y]!, head, closeRow);
    if (elements === null) continue;
    if (j >= 0) return null;
    // Every original element is among the rows: a reflow, not another list with that head.
    if (elements.length === 0 || !elements.every((e) => shown.includes(e))) return null;
    j = y;
  }
  // Only a hunk that is the list alone (a marker or the update's edge on each side): rows followed
  // by code of the hunk are placed by that code (a signature written out over its parameters).
  if (j < 0 || !besideMarker(trimmed, i, -1, origSet) || !besideMarker(trimmed, spread.end, 1, origSet)) return null;
  const above = anchorRows(lines, i, j, -1, origLines, origTrimmed, origSet, true);
  const below = anchorRows(lines, spread.end, j, 1, origLines, origTrimmed, origSet, true);
  if (above.length === 0 && below.length === 0) return null;
  return { rows: [...above, ...lines.slice(i, spread.end + 1), ...below], end: spread.end };
}
