// A marker inside a line that stands for whole original lines, not for elements of that line: a
// table written one entry per line, shown collapsed as `{"get", cmd_get}, /* ... */ {"save", cmd_save},`
// — its first and last entries with a marker between. The line is read as the original lines from
// the one equal to the text before the marker through the one equal to the text after it, when
// exactly one such run exists (both ends at the line's own indentation in the original, nothing
// between them shallower). inline-markers.ts expands markers among the elements of one line; this
// runs first, for markers whose two sides are different original lines.
import { isMarkerElement } from './inline-elements.js';
import { indentLength } from './lines.js';

/** Block comments inside a line: `/* … *\/`, `(* … *)`, `<!-- … -->`. */
const COMMENT = /\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/|\(\*.*?\*\)|<!--.*?-->/g;

/** Update text with each line that collapses a run of original lines written out as that run. */
export function expandSpannedMarkers(update: string, code: string): string {
  if (!update.includes('/*') && !update.includes('(*') && !update.includes('<!--')) return update;
  const eol = update.includes('\r\n') ? '\r\n' : '\n';
  const lines = update.split(/\r?\n/);
  let orig: string[] | null = null;
  let trimmed: string[] = [];
  let changed = false;
  const out: string[] = [];
  for (const line of lines) {
    const run = line.trim().length > 0 ? markerSides(line) : null;
    if (!run) {
      out.push(line);
      continue;
    }
    if (!orig) {
      orig = code.split(/\r?\n/);
      trimmed = orig.map((l) => l.trim());
    }
    const span = spannedRun(orig, trimmed, run.before, run.after);
    if (!span) {
      out.push(line);
      continue;
    }
    for (let j = span[0]; j <= span[1]; j++) out.push(orig[j]!);
    changed = true;
  }
  return changed ? out.join(eol) : update;
}

/** The text on either side of the line's one marker comment, both non-empty; null otherwise. */
function markerSides(line: string): { before: string; after: string } | null {
  let found: RegExpExecArray | null = null;
  for (const m of line.matchAll(COMMENT)) {
    if (!isMarkerElement(m[0])) continue;
    if (found) return null;
    found = m as RegExpExecArray;
  }
  if (!found) return null;
  const before = line.slice(0, found.index).trim();
  const after = line.slice(found.index + found[0].length).trim();
  return before && after ? { before, after } : null;
}

/**
 * The one run of original lines [x, y], x < y, whose first line reads `before` and last reads
 * `after`, at the same indentation, with no non-blank line between them shallower than that; null
 * when there is none or more than one (the lines between must be the block's own entries).
 */
function spannedRun(orig: string[], trimmed: string[], before: string, after: string): [number, number] | null {
  let found: [number, number] | null = null;
  for (let x = 0; x < orig.length; x++) {
    if (trimmed[x] !== before) continue;
    const level = indentLength(orig[x]!);
    for (let y = x + 1; y < orig.length; y++) {
      if (!trimmed[y]) continue;
      if (indentLength(orig[y]!) < level) break;
      // Another run starting at this level is that start's to judge (keeps the scan linear).
      if (trimmed[y] === before && indentLength(orig[y]!) === level) break;
      if (trimmed[y] === after && indentLength(orig[y]!) === level) {
        if (found) return null;
        found = [x, y];
        break;
      }
    }
  }
  return found;
}
