// A marker written as a comment after an opening bracket or an arrow: `{ -- ...` (Haskell record), `{;; ...` (an EDN map),
// `items = [ // ...`, `call( # ...`, `| Times :: rest -> (* ... *)`. It stands for the rest of the original line that opens there
// and for the lines after it up to the next line the update shows. Before the merge such a line is
// read as that original line followed by a whole-line marker, when the original line is certain:
// it starts with the update's code, at the update line's indentation, and it is the only such line
// between the nearest lines around it that the original has once. Otherwise the line stays, and
// the no-loss check (loss.ts) reads it as a marker: the lines it may stand for are not licensed.
import { bracketDelta } from './brackets.js';
import { isMarkerLine } from './markers.js';

const NO_LINES: ReadonlySet<string> = new Set();

/**
 * Code ending in an opening bracket, a comma or an arrow (`| Times :: rest -> (* ... *)`, a match arm
 * or case branch whose body the marker stands for: set j ml01), then a comment to the line's end
 * (a line comment, or a block comment closing there) that is a marker.
 */
const SHAPE = /^(.*?(?:[{[(,]|->|=>))\s*((?:\/\/|--|#|;;)\s*.*|\(\*.*\*\)|\/\*.*\*\/)$/;

/** The code before a trailing marker comment and the comment, or null when the line has none. */
export function trailingMarker(line: string): { code: string; comment: string } | null {
  const m = SHAPE.exec(line.trim());
  if (!m || !m[1]!.trim()) return null;
  const comment = m[2]!;
  return isMarkerLine(comment, NO_LINES) ? { code: m[1]!.trimEnd(), comment } : null;
}

function indentOf(s: string): string {
  return s.slice(0, s.length - s.trimStart().length);
}

/** Update text with each placeable trailing-marker line written as its original line plus a marker line. */
export function expandTrailingMarkers(update: string, code: string): string {
  if (!update.includes('//') && !update.includes('--') && !update.includes('#') && !update.includes('(*') && !update.includes('/*') && !update.includes(';;')) return update;
  const eol = update.includes('\r\n') ? '\r\n' : '\n';
  const lines = update.split(/\r?\n/);
  let orig: string[] | null = null;
  let unique = new Map<string, number>();
  let changed = false;
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const tm = line.trim().length > 0 ? trailingMarker(line) : null;
    if (!tm) {
      out.push(line);
      continue;
    }
    if (!orig) {
      orig = code.split(/\r?\n/);
      unique = new Map();
      orig.forEach((l, j) => {
        const t = l.trim();
        if (t) unique.set(t, unique.has(t) ? -1 : j);
      });
    }
    // A line the original has as it is (a real comment after a bracket) is code.
    if (unique.has(line.trim())) {
      out.push(line);
      continue;
    }
    const x = placeLine(lines, i, tm.code, orig, unique);
    if (x < 0) {
      out.push(line);
      continue;
    }
    const indent = indentOf(line);
    // An original line complete on its own (a case branch after `->`, nothing deeper below it, no
    // bracket left open) is all the marker stands for: no marker line follows it.
    if (completeLine(orig, x)) out.push(orig[x]!);
    else out.push(orig[x]!, `${indent}${tm.comment}`);
    changed = true;
  }
  return changed ? out.join(eol) : update;
}

/** Original line x leaves no bracket open and the next non-blank line is not deeper. */
function completeLine(orig: string[], x: number): boolean {
  if (bracketDelta(orig[x]!) > 0) return false;
  for (let j = x + 1; j < orig.length; j++) if (orig[j]!.trim()) return indentOf(orig[j]!).length <= indentOf(orig[x]!).length;
  return true;
}

/** The one original line the update line at i opens, between the nearest unique lines around it; -1 when not certain. */
function placeLine(lines: string[], i: number, codeText: string, orig: string[], unique: Map<string, number>): number {
  const near = (step: 1 | -1): number | undefined => {
    for (let k = i + step; k >= 0 && k < lines.length; k += step) {
      const j = unique.get(lines[k]!.trim());
      if (j !== undefined && j >= 0) return j;
    }
    return undefined;
  };
  const lo = near(-1) ?? -1;
  const hi = near(1) ?? orig.length;
  if (hi <= lo) return -1;
  const indent = indentOf(lines[i]!);
  let found = -1;
  for (let j = lo + 1; j < hi; j++) {
    const t = orig[j]!;
    if (indentOf(t) !== indent || t.trim() === codeText || !t.trimStart().startsWith(codeText)) continue;
    if (found >= 0) return -1;
    found = j;
  }
  return found;
}
