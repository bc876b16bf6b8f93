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

// A Markdown heading heads the lines up to the next heading of the same or a higher level, though
// they stand at its column: levels `#`…`######` are read at depths -6…-1, so the owner machinery
// puts `### Install` under the `## macOS` above it and a paragraph under `### Install`. Lines inside
// fenced code blocks are code, not headings (`# comment` in a ```bash block).

/** An ATX heading: one to six `#`, a space, text. */
const HEADING = /^(#{1,6})\s+\S/;
/** A fence line opening or closing a code block. */
const FENCE = /^(?:```|~~~)/;
/**
 * A column-0 line that is code or configuration rather than prose: a `{` or `;` ending, a closer, a
 * keyword that opens a statement, a `key = value` or `key: value` line. Where such lines are more
 * than a tenth of the column-0 lines, a `# …` line is a comment, not a heading.
 */
const CODE_LINE = /[{;]$|^[)}\]]|^(?:def|class|import|from|function|const|let|var|if|for|while|return|export|package|fn|func|use|module|set|echo)\b|^[\w.$-]+\s*=|^[\w.$-]+:(?:\s|$)/;
/** Most code-shaped column-0 lines a Markdown text has per ten other lines. */
const CODE_SHARE = 0.1;

/** Per row: the heading level (1…6) of each ATX heading of a Markdown text outside fences, else 0; null when the text is no Markdown. */
const headingLevels = new WeakMap<Lines, Uint8Array | null>();

/**
 * The heading levels of a Markdown text: some column-0 line outside fences is an ATX heading, and
 * the text reads as a document: a fence or a table row, and hardly any code-shaped line outside
 * fences (a shell script's `## Build` comment above `make clean` heads nothing).
 */
function markdownLevels(l: Lines): Uint8Array | null {
  if (headingLevels.has(l)) return headingLevels.get(l)!;
  const levels = new Uint8Array(l.text.length);
  let headings = 0;
  let fences = 0;
  let tables = 0;
  let code = 0;
  let other = 0;
  let inFence = false;
  for (let y = 0; y < l.text.length; y++) {
    if (l.blank[y]) continue;
    const n = l.norm[y]!;
    if (FENCE.test(n)) {
      inFence = !inFence;
      fences++;
      continue;
    }
    if (inFence) continue;
    const m = l.indent[y] === 0 ? HEADING.exec(n) : null;
    if (m) {
      levels[y] = m[1]!.length;
      headings++;
    } else if (n.startsWith('|')) tables++;
    else if (l.indent[y] === 0 && CODE_LINE.test(n)) code++;
    else other++;
  }
  // Headings and plain lines alone are as often a script's `# Build` / `# Test` comments over commands.
  const document = fences > 0 || tables > 0 || documentParts.has(l);
  const out = headings > 0 && code <= CODE_SHARE * other && document ? levels : null;
  headingLevels.set(l, out);
  return out;
}

/** Pieces of an update to a Markdown original: one heading among them is evidence enough. */
const documentParts = new WeakSet<Lines>();

/** Reads `parts` (an update's segments) as parts of the original's document when the original is Markdown. */
export function markDocumentParts(orig: Lines, parts: readonly Lines[]): void {
  if (markdownLevels(orig) === null) return;
  for (const l of parts) {
    if (documentParts.has(l)) continue;
    documentParts.add(l);
    headingLevels.delete(l);
  }
}

/** Row y is a Markdown heading (outside fences) of a Markdown text. */
export function isHeading(l: Lines, y: number): boolean {
  return (markdownLevels(l)?.[y] ?? 0) > 0;
}

/** Row y is a flat section header of a sectioned text, or a heading of a Markdown text. */
export function isFlatSection(l: Lines, y: number): boolean {
  return l.indent[y] === 0 && !l.blank[y] && ((SECTION.test(l.norm[y]!) && isSectioned(l)) || isHeading(l, y));
}

/** The depth a head at row y opens at: its indentation, one less for a flat section header, -6…-1 for headings `#`…`######`. */
export function headDepth(l: Lines, y: number): number {
  const level = markdownLevels(l)?.[y] ?? 0;
  if (level > 0) return level - 7;
  return isFlatSection(l, y) ? -1 : l.indent[y]!;
}

/** Some row strictly between p and q is a flat section header. */
export function flatSectionBetween(l: Lines, p: number, q: number): boolean {
  if (q - p <= 1 || (!isSectioned(l) && markdownLevels(l) === null)) return false;
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
