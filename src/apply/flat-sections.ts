// Flat section headers (`[program:web]`, `[server.prod]`, `[[tool.mypy.overrides]]`) head the lines
// below them up to the next header, though those lines stand at the header's own indentation. Heads
// are otherwise found by indentation (ownerRow, headerOf, crossMarkerHeads): reading such a header one
// column shallower than its column lets the same head machinery (another head is another block, the
// same owner, heads across markers) tell `environment=` of one program from the equal line of another.
import type { Lines } from './lines.js';
import { assignmentKey } from './lines.js';

/** A TOML/INI section header at the start of a line; a comma makes it a list literal, not a section. */
const SECTION = /^\[\[?[^\],\s][^\],]*\]\]?$/;
/** Lines a sectioned text has at column 0 besides headers: comments and closers of multi-line values. */
const FLAT_EXTRA = /^(?:[#;]|[)\]}],?$)/;
/** Share of column-0 lines (headers aside) that must be keys, comments or closers. */
const FLAT_SHARE = 0.8;

const sectioned = new WeakMap<Lines, boolean>();

/**
 * The text is laid out in flat sections: some column-0 line is a section header, and nearly every
 * other column-0 line is a `key = value` line, a comment or a closer. A C# `[Serializable]` above a
 * class, or a list literal alone on a line, is no section header.
 */
function isSectioned(l: Lines): boolean {
  let hit = sectioned.get(l);
  if (hit !== undefined) return hit;
  let headers = 0;
  let flat = 0;
  let other = 0;
  for (let y = 0; y < l.text.length; y++) {
    if (l.blank[y] || l.indent[y] !== 0) continue;
    const n = l.norm[y]!;
    if (SECTION.test(n)) headers++;
    else if (assignmentKey(n) !== null || FLAT_EXTRA.test(n)) flat++;
    else other++;
  }
  hit = headers > 0 && flat >= FLAT_SHARE * (flat + other);
  sectioned.set(l, hit);
  return hit;
}

/** Row y is a flat section header of a sectioned text. */
export function isFlatSection(l: Lines, y: number): boolean {
  return l.indent[y] === 0 && !l.blank[y] && SECTION.test(l.norm[y]!) && isSectioned(l);
}

/** The depth a head at row y opens at: its indentation, one less for a flat section header. */
export function headDepth(l: Lines, y: number): number {
  return isFlatSection(l, y) ? -1 : l.indent[y]!;
}

/** Some row strictly between p and q is a flat section header. */
export function flatSectionBetween(l: Lines, p: number, q: number): boolean {
  if (q - p <= 1 || !isSectioned(l)) return false;
  for (let y = p + 1; y < q; y++) if (isFlatSection(l, y)) return true;
  return false;
}

/**
 * Original row j sets a key in a flat section that sets it nowhere else, and `norm` sets the same
 * key: a section holds a key once, so the line shown is j's edit whatever its new value
 * (`pushurl = no_push` for `pushurl = git@…`), not a second line for that key beside it.
 */
export function sameSectionKey(o: Lines, j: number, norm: string): boolean {
  const key = assignmentKey(norm);
  if (key === null || assignmentKey(o.norm[j]!) !== key || !isSectioned(o)) return false;
  let start = j;
  while (start >= 0 && !isFlatSection(o, start)) start--;
  if (start < 0) return false;
  let count = 0;
  for (let y = start + 1; y < o.text.length && !isFlatSection(o, y); y++) if (!o.blank[y] && assignmentKey(o.norm[y]!) === key) count++;
  return count === 1;
}
