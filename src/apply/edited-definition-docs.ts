// Doc comments of definitions the update edits. A writer who carries one change through several
// definitions (a field added with its uses, a parameter with its callers) copies each definition's
// head to place the edit under it and leaves the comment above the head out, the way it leaves the
// rest of the file out: `}` / blank / `func ReleaseByTag(…) {` / the edited call. Rule (b) of the
// no-loss check would read the closer before and the head as shown adjacent and let the comment go.
// The edit under the head is what tells this apart from a comment deleted on purpose: a deletion is
// the hunk's change itself (nothing else changes around it), while here the hunk exists for the
// edit below the head. Applied to the merged output in every mode (merge.ts), whichever path placed
// the hunks; the no-loss check itself still licenses the gap, as random deletions of comments need.
import { commentLine } from './licence-rules.js';
import { indentBlockEnd, lineCounts, renderLines, solidRow, splitLines, type Lines } from './lines.js';
import { splitUpdate, type Segment } from './merge-context.js';
import { expandUpdate } from './marker-expansion.js';
import { lineIdentity } from './line-identity.js';

/** An instruction that speaks of comments or docs may remove them. */
export const SPEAKS_OF_COMMENTS = /\b(?:comments?|docs?|docstrings?|documentation|javadoc|jsdoc|notes?)\b/i;

/** A comment line (a `*` line only when prose follows: `*counts.get(k)` is a Rust dereference). */
export function proseComment(norm: string): boolean {
  return commentLine(norm) && !/^\*[^\s/*]/.test(norm);
}

/** Lines at a head's own depth (annotations, decorators) allowed before its block's first deeper line. */
const HEAD_LINES = 3;

/**
 * The name a type signature declares (`area :: Shape -> Double`: Haskell, PureScript), or null. A
 * signature heads its function's equations, written at its own column (`area (Circle r) = …`), and
 * belongs above the equation head like a doc comment: a writer who shows `area = \case` to add an arm
 * leaves both out. The space before `::` keeps C++ and Rust paths (`std::vec`) out.
 */
export function signatureName(norm: string): string | null {
  return /^([a-z_][\w']*)\s+::\s/.exec(norm)?.[1] ?? null;
}

/** The line starts with `name` as a whole word (an equation of the function a signature declares). */
function startsWithName(norm: string, name: string): boolean {
  return norm.startsWith(name) && !/[\w']/.test(norm.charAt(name.length));
}

/** Original row `j` is one of the equations (or their deeper lines) of signature row `h` named `name`. */
function equationOf(orig: Lines, h: number, j: number, name: string): boolean {
  return orig.indent[j]! > orig.indent[h]! || (orig.indent[j] === orig.indent[h] && startsWithName(orig.norm[j]!, name));
}

/**
 * End (exclusive) of the block original row `h` heads: the deeper lines after it, reached within
 * HEAD_LINES lines at its own depth (annotations, an Allman `{`); -1 when `h` heads none.
 */
function blockEnd(orig: Lines, h: number): number {
  const sig = signatureName(orig.norm[h]!);
  if (sig !== null) {
    // A signature's block is its equations, at its own column, up to the first other line.
    let end = -1;
    for (let j = h + 1; j < orig.text.length; j++) {
      if (orig.blank[j]) continue;
      if (!equationOf(orig, h, j, sig)) break;
      end = j + 1;
    }
    return end;
  }
  for (let j = h + 1, same = 0; j < orig.text.length; j++) {
    if (orig.blank[j]) continue;
    if (orig.indent[j]! > orig.indent[h]!) return indentBlockEnd(orig, j - 1);
    if (orig.indent[j] !== orig.indent[h] || ++same >= HEAD_LINES || proseComment(orig.norm[j]!)) return -1;
  }
  return -1;
}

/**
 * The comment rows directly above original row `h` (no blank line between), when `h` heads a block;
 * an equation head's type signature right above it counts with them (rows bottom up).
 */
function docAbove(orig: Lines, h: number): number[] {
  const rows: number[] = [];
  const sig = h > 0 && !orig.blank[h - 1] ? signatureName(orig.norm[h - 1]!) : null;
  if (sig !== null && orig.indent[h - 1] === orig.indent[h] && signatureName(orig.norm[h]!) === null && startsWithName(orig.norm[h]!, sig)) rows.push(h - 1);
  for (let j = h - 1 - rows.length; j >= 0 && !orig.blank[j] && proseComment(orig.norm[j]!) && orig.indent[j]! >= orig.indent[h]!; j--) rows.push(j);
  return rows.length > 0 && blockEnd(orig, h) >= 0 ? rows : [];
}

/**
 * The original row a segment line shows: the line the original has once, or else the one original
 * head with a doc comment that names the same definition (a head whose signature changed).
 */
function shownRow(orig: Lines, norm: string, rowOf: (norm: string) => number | undefined, known: (norm: string) => boolean): number | null {
  const once = rowOf(norm);
  if (once !== undefined) return once;
  const id = known(norm) ? null : lineIdentity(norm);
  if (id === null) return null;
  let found: number | null = null;
  for (let j = 1; j < orig.text.length; j++) {
    if (orig.blank[j] || !proseComment(orig.norm[j - 1]!) || lineIdentity(orig.norm[j]!) !== id || docAbove(orig, j).length === 0) continue;
    if (found !== null) return null;
    found = j;
  }
  return found;
}

/** A doc comment left out: its original rows (bottom up) and the update's line for the head under it. */
interface LeftOutDoc {
  rows: number[];
  head: string;
}

/**
 * Original doc-comment rows the update leaves out above a definition it shows with an edit of its
 * own: the segment shows the head (as it was, or edited) with no comment right above it, and the
 * head or a line of its block after it, before the segment ends, is text the original does not have.
 */
function leftOutDocs(orig: Lines, segments: readonly Segment[], instruction: string | null, rowOf: (norm: string) => number | undefined, known: (norm: string) => boolean): LeftOutDoc[] {
  const found: LeftOutDoc[] = [];
  if (instruction !== null && SPEAKS_OF_COMMENTS.test(instruction)) return found;
  const shown = new Set(segments.flatMap((seg) => seg.lines.norm));
  const acrossMarkers: LeftOutDoc[] = [];
  for (let s = 0; s < segments.length; s++) {
    const l = segments[s]!.lines;
    for (let i = 1; i < l.text.length; i++) {
      if (l.blank[i] || l.weak[i] || proseComment(l.norm[i]!)) continue;
      let above = i - 1;
      while (above > 0 && l.blank[above]) above--;
      // A comment or a signature (the head's own, rewritten: `size :: Item -> Integer`) shown above it: not left out.
      if (proseComment(l.norm[above]!) || (above < i && signatureName(l.norm[above]!) !== null)) continue;
      const h = shownRow(orig, l.norm[i]!, rowOf, known);
      if (h === null) continue;
      // A comment the update shows anywhere (new lines put between it and the head) is not left out.
      const rows = docAbove(orig, h);
      if (rows.length === 0 || rows.some((j) => shown.has(orig.norm[j]!))) continue;
      const edited = editedUnder(orig, h, segments, s, i, rowOf, known);
      if (edited === 'here') found.push({ rows, head: l.norm[i]! });
      else if (edited === 'past-marker') acrossMarkers.push({ rows, head: l.norm[i]! });
    }
  }
  // An edit past a marker in the head's block is the writer's only when the update leaves out the
  // doc comments of several definitions it edits (one change carried through them); alone, it reads
  // as well as a comment deleted by one hunk and another edit further down the block.
  return found.length + acrossMarkers.length >= 2 ? [...found, ...acrossMarkers] : found;
}

/**
 * The output with each left-out doc comment written back right above its head, where the output
 * lacks it there (a merge through the syntax pass judges loss against the original with the edited
 * definitions swapped in, where the edit under the head no longer shows). Null when nothing changes.
 */
export function withEditedDefinitionDocs(original: string, update: string, instruction: string | null, output: string): string | null {
  const orig = splitLines(original);
  const count = lineCounts(orig, { solidOnly: true });
  const rowOf = new Map<string, number>();
  for (let j = 0; j < orig.text.length; j++) if (count.get(orig.norm[j]!) === 1) rowOf.set(orig.norm[j]!, j);
  const { segments } = splitUpdate(expandUpdate(update, original), orig, original);
  const docs = leftOutDocs(orig, segments, instruction, (n) => rowOf.get(n), (n) => count.has(n));
  if (docs.length === 0) return null;
  const out = splitLines(output);
  const above = new Map<number, number[]>();
  for (const d of docs) {
    const at: number[] = [];
    for (let k = 0; k < out.text.length; k++) if (out.norm[k] === d.head) at.push(k);
    if (at.length !== 1) continue;
    const k = at[0]!;
    // Some of it is there (kept by the no-loss pass, never dropped, or edited on purpose): left as it is.
    if ((k > 0 && proseComment(out.norm[k - 1]!)) || d.rows.some((j) => out.norm.includes(orig.norm[j]!))) continue;
    above.set(k, [...d.rows].reverse());
  }
  if (above.size === 0) return null;
  const lines: Array<{ text: string; eol: string }> = [];
  for (let k = 0; k < out.text.length; k++) {
    for (const j of above.get(k) ?? []) lines.push({ text: orig.text[j]!, eol: orig.eol[j] || orig.dominantEol });
    lines.push({ text: out.text[k]!, eol: out.eol[k] || orig.dominantEol });
  }
  return renderLines(lines, orig.dominantEol, out.finalNewline);
}

/**
 * Segment `s`'s line `i` (original row `h`) or a line of the block it heads (up to its closer) is
 * new text. A marker deeper than the head may stand for part of that block: the walk goes on in the
 * next segment when that segment's first line the original has once lies in the block.
 */
function editedUnder(orig: Lines, h: number, segments: readonly Segment[], s: number, i: number, rowOf: (norm: string) => number | undefined, known: (norm: string) => boolean): 'here' | 'past-marker' | null {
  const head = segments[s]!.lines;
  if (!known(head.norm[i]!)) return 'here';
  const col = head.indent[i]!;
  const end = blockEnd(orig, h);
  const found = (t: number): 'here' | 'past-marker' => (t === s ? 'here' : 'past-marker');
  // Under a signature, equations at its column are its block, and so is a marker there.
  const sig = signatureName(orig.norm[h]!);
  const member = (l: Lines, x: number): boolean => l.indent[x]! > col || (sig !== null && l.indent[x] === col && startsWithName(l.norm[x]!, sig));
  let deeper = false;
  for (let t = s, from = i + 1; t < segments.length; t++, from = 0) {
    const l = segments[t]!.lines;
    if (t > s && !opensWithEquation(l, sig, known) && !inBlock(l, h, end, rowOf, known, (x) => member(l, x))) return null;
    for (let x = from; x < l.text.length; x++) {
      if (l.blank[x]) continue;
      if (member(l, x)) deeper = true;
      else if (deeper || t > s) return known(l.norm[x]!) ? null : found(t);
      if (!known(l.norm[x]!)) return found(t);
    }
    const after = segments[t]!.markerAfterIndent;
    if (after === null || after < col || (after === col && sig === null)) return null;
  }
  return null;
}

/** `l` opens with a new equation of the function signature `sig` declares: the marker before it stood for the others. */
function opensWithEquation(l: Lines, sig: string | null, known: (norm: string) => boolean): boolean {
  const first = solidRow(l, -1, 1);
  return sig !== null && first >= 0 && !known(l.norm[first]!) && startsWithName(l.norm[first]!, sig);
}

/**
 * The first line of `l` that the original has once stands in rows (h, end). A segment with no such
 * line (all of it new but `return nil` and closers) is in the block when it opens with a new line
 * of the block (`member`: deeper than the head, or an equation of a signature's function): the
 * marker before it stood for the start of that block's body.
 */
function inBlock(l: Lines, h: number, end: number, rowOf: (norm: string) => number | undefined, known: (norm: string) => boolean, member: (x: number) => boolean): boolean {
  let first = -1;
  for (let x = 0; x < l.text.length; x++) {
    if (l.blank[x]) continue;
    if (first < 0) first = x;
    const r = rowOf(l.norm[x]!);
    if (r !== undefined) return r > h && r < end;
  }
  return first >= 0 && member(first) && !known(l.norm[first]!);
}
