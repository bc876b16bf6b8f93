// An anchor the update shows under a block head of its own. A new check written like an existing
// one (`if (CheckOut.DayNumber …) { yield return new ValidationResult(…); }` beside `if (CheckOut <=
// CheckIn) { … }`) repeats the old body's lines; read as the old lines, they license the old block
// between them as removed. When the original's head over the line is still in the output, the old
// block was not rewritten: the update's line is a copy in new code, not the original one.
import { bracketDelta, openedAt, startsWithCloser } from './brackets.js';
import { CLOSING_TAG_LINE, indentBlockEnd, perText, solidRow, type Lines } from './lines.js';
import { ownerRow } from './line-identity.js';

/** The head of the brace block row x sits in (or, for a closer, closes); an Allman `{` gives the row above it. -1: none. */
function blockHead(l: Lines, x: number): number {
  let o = -1;
  if (startsWithCloser(l.norm[x]!) && bracketDelta(l.text[x]!) < 0) o = openedAt(l.text, x, 0);
  else {
    let depth = 0;
    for (let j = x - 1; j >= 0; j--) {
      depth += bracketDelta(l.text[j]!);
      if (depth > 0) {
        o = j;
        break;
      }
    }
  }
  return o >= 0 && l.norm[o] === '{' ? solidRow(l, o, -1) : o;
}

/**
 * Update row i (showing original row j's text) sits under a head the original does not have, while
 * the head over j is a line the original has once and the output keeps (`keptRow`).
 */
export function copiedUnderNewHead(u: Lines, i: number, orig: Lines, j: number, isOriginal: (norm: string) => boolean, once: (norm: string) => boolean, keptRow: (row: number) => boolean): boolean {
  const hu = blockHead(u, i);
  const ho = blockHead(orig, j);
  if (hu < 0 || ho < 0) return false;
  return !isOriginal(u.norm[hu]!) && once(orig.norm[ho]!) && keptRow(ho);
}

/**
 * Segment rows whose lines the original has once but that the update shows as the body of a copied
 * block inside new code: the line's head is new (`if err := enc.Encode(out); err != nil {`), the
 * original's head over it is shown nowhere (`if err != nil {`), and the new head sits, one level
 * further in, in a block of new code that has new lines of its own before it (`if *asJSON {`, `out
 * := …`, `enc := …`). As anchors they pull the new block onto the old check and read the old head as
 * its edit (28bp go18). A block moved whole into a new wrapper shows the wrapper's first lines as its
 * own (no new line before it): it stays anchored.
 */
export function copiedBlockRows(s: Lines, orig: Lines, index: ReadonlyMap<string, readonly number[]>, shown: ReadonlySet<string>): Map<number, CopiedRow> {
  const out = new Map<number, CopiedRow>();
  for (let i = 0; i < s.text.length; i++) {
    if (s.blank[i] || s.weak[i] || index.get(s.norm[i]!)?.length !== 1) continue;
    const j = index.get(s.norm[i]!)![0]!;
    const written = writtenOutLine(s, i, orig, j, shown);
    if (written >= 0) {
      out.set(i, { writes: written });
      continue;
    }
    const hu = ownerRow(s, i);
    const ho = ownerRow(orig, j);
    if (hu < 0 || ho < 0 || index.has(s.norm[hu]!) || shown.has(orig.norm[ho]!)) continue;
    const wrapper = ownerRow(s, hu);
    if (wrapper < 0 || index.has(s.norm[wrapper]!) || ownerRow(orig, ho) < 0) continue;
    if (newLineBeside(s, index, wrapper, hu, -1) && newLineBeside(s, index, wrapper, hu, 1)) out.set(i, { writes: -1 });
  }
  return out;
}

/**
 * Row i heads a block whose first line, joined to it, begins another original line the update does
 * not show (`<td>` + `{{ user.name }}` → `<td>{{ user.name }}</td>`): the block is that line written
 * over several lines, and i's text only copies the original's own block head at j (27ac vue01).
 * Returns that original row, or -1.
 */
function writtenOutLine(s: Lines, i: number, orig: Lines, j: number, shown: ReadonlySet<string>): number {
  const first = solidRow(s, i, 1);
  if (first < 0 || s.indent[first]! <= s.indent[i]! || ownerRow(s, first) !== i) return -1;
  const joined = squeeze(s.norm[i]! + s.norm[first]!);
  const squeezed = squeezedRows(orig);
  for (let r = 0; r < orig.text.length; r++) {
    if (r === j || orig.blank[r] || shown.has(orig.norm[r]!)) continue;
    const t = squeezed[r]!;
    if (t.length > joined.length && t.startsWith(joined)) return r;
  }
  return -1;
}

function squeeze(t: string): string {
  return t.replace(/\s+/g, '');
}

/** Each row of a split squeezed, once per text: every block head of the update scans the whole original. */
const squeezedRows = perText((l: Lines): readonly string[] => l.norm.map(squeeze));

/**
 * Block h holds, on x's side dir (before or after x, at its own level), a line the original lacks
 * that is more than a closer: new code goes on around x's block (a wrapped run ends its wrapper).
 */
function newLineBeside(s: Lines, index: ReadonlyMap<string, readonly number[]>, h: number, x: number, dir: 1 | -1): boolean {
  for (let y = x + dir; y > h && y < s.text.length; y += dir) {
    if (s.blank[y]) continue;
    if (s.indent[y]! <= s.indent[h]!) break;
    if (ownerRow(s, y) === h && !index.has(s.norm[y]!) && !startsWithCloser(s.norm[y]!)) return true;
  }
  return false;
}

const shownSets = new WeakMap<readonly { lines: Lines }[], Set<string>>();

/** A copied block row: `writes` is the original row its block writes out over several lines, or -1 (a copy inside new code). */
export interface CopiedRow {
  writes: number;
}

/** `rows` of segment `seg` without its copied block rows (copiedBlockRows); `segments` gives every line the update shows. */
export function withoutCopiedBlocks(rows: number[], seg: { lines: Lines }, segments: readonly { lines: Lines }[], orig: Lines, index: ReadonlyMap<string, readonly number[]>): number[] {
  const copied = copiedRowsOf(seg, segments, orig, index);
  return copied.size === 0 ? rows : rows.filter((i) => !copied.has(i));
}

/** copiedBlockRows of segment `seg`, every line the update shows read from `segments`. */
export function copiedRowsOf(seg: { lines: Lines }, segments: readonly { lines: Lines }[], orig: Lines, index: ReadonlyMap<string, readonly number[]>): Map<number, CopiedRow> {
  let shown = shownSets.get(segments);
  if (!shown) {
    shown = new Set(segments.flatMap((x) => x.lines.norm));
    shownSets.set(segments, shown);
  }
  return copiedBlockRows(seg.lines, orig, index, shown);
}

/**
 * Notes for a segment whose head was refused as writing out another original line: the merge places
 * the block by its other lines and may keep that line beside it, so it says the placement is a guess.
 */
export function writtenOutNotes(k: number, seg: { lines: Lines }, segments: readonly { lines: Lines }[], orig: Lines, index: ReadonlyMap<string, readonly number[]>): string[] {
  const notes: string[] = [];
  for (const [i, c] of copiedRowsOf(seg, segments, orig, index)) {
    if (c.writes >= 0) notes.push(`segment ${k + 1}: "${seg.lines.norm[i]}" opens original line ${c.writes + 1} written over several lines, not the original's own "${seg.lines.norm[i]}"`);
  }
  return notes;
}

const ELEMENT_OPENER = /^<([\w.:-]+)(?:\s[^>]*)?>$/;

/**
 * Segment row h, the first solid row after a marker, opens an element (`<intent-filter>`) the
 * original has at the first solid row from `lo` (right after the previous hunk's last anchor), so
 * anchoring there expands the marker to nothing. When the body the update writes under it shares no
 * line with that element's body, that body is shown nowhere (`shown`), and the element's next
 * sibling has the same tag, the row is a new sibling written like the first one (a marker `<!-- ...
 * existing intent filters ... -->`, then a new `<intent-filter>`): read as the old one, the filters
 * the marker stands for would be replaced. The opener may be repeated (bare `<intent-filter>`, `<tr>`
 * heads); each later sibling of the run with that opener then keeps a body line shown nowhere:
 * anchored on a later sibling whose one line the new body copies (`category.DEFAULT`), the new
 * element would read as that sibling's edit and its other lines as replaced. Returns the last row of
 * that run of same-tag siblings (what the marker stands for), or -1.
 */
export function copiedElementHead(s: Lines, h: number, orig: Lines, lo: number, rowsOf: (norm: string) => readonly number[] | undefined, shown: (norm: string) => boolean): number {
  const tag = h < 0 ? undefined : ELEMENT_OPENER.exec(s.norm[h]!)?.[1];
  const at = tag ? rowsOf(s.norm[h]!) : undefined;
  const j = solidRow(orig, lo - 1, 1);
  if (!tag || !at?.includes(j)) return -1;
  const oldBody = elementBody(orig, j);
  if (oldBody.size === 0 || [...oldBody].some(shown)) return -1;
  let newLines = 0;
  for (let y = h + 1; y < indentBlockEnd(s, h); y++) {
    if (s.blank[y]) continue;
    if (oldBody.has(s.norm[y]!)) return -1;
    if (!rowsOf(s.norm[y]!)) newLines++;
  }
  if (newLines === 0) return -1;
  // The run of same-tag siblings from j; at least one after it.
  let last = -1;
  const heads = new Set<number>();
  for (let x = j; x >= 0 && orig.indent[x] === orig.indent[j] && ELEMENT_OPENER.exec(orig.norm[x]!)?.[1] === tag;) {
    const closer = solidRow(orig, indentBlockEnd(orig, x) - 1, 1);
    if (closer < 0 || orig.indent[closer] !== orig.indent[j] || CLOSING_TAG_LINE.exec(orig.norm[closer]!)?.[1] !== tag) break;
    heads.add(x);
    last = closer;
    x = solidRow(orig, closer, 1);
  }
  // Every later sibling of the run with the same opener keeps a line the update does not show, so
  // the new element cannot be its edit either. Copies outside the run (a `<thead>` row) are no
  // place the marker stands for.
  for (const x of at) {
    if (x === j || !heads.has(x)) continue;
    const body = elementBody(orig, x);
    if (body.size === 0 || [...body].every(shown)) return -1;
  }
  return last > indentBlockEnd(orig, j) ? last : -1;
}

/** The distinct non-blank lines inside the element opened at row j (to its dedent). */
function elementBody(orig: Lines, j: number): Set<string> {
  const body = new Set<string>();
  const end = indentBlockEnd(orig, j);
  for (let y = j + 1; y < end; y++) if (!orig.blank[y]) body.add(orig.norm[y]!);
  return body;
}
