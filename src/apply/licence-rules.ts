// Stricter licences for the no-loss check (loss.ts), each written for a construct that held-out
// set d lost code through while the checker agreed:
// - `distinctEdit`: an update line replaces original line j (rule (a)) only when it is more like j
//   than j's siblings are (`builder.Property(x => x.Description)…` shares with
//   `builder.Property(x => x.CreatedAt)…` no more than every other mapping line does: a new item);
// - `closerOwnersMatch`: a closer edited in place (`}` → `};`) closes the same block;
// - `unmentionedDefinitionRows`: a whole definition the update never names (a class's other methods
//   behind a comment the merge did not read as a marker) is not dropped by rules (a) or (b);
// - `loneOpener`: an Allman `{` belongs to the head above it: rule (b) does not pair it with another head.
import { blockEnd } from './definition-blocks.js';
import { lineIdentity, ownerRow } from './line-identity.js';
import { rowIdentity } from './block-names.js';
import { assignmentKey, editedVersion, renamedInPlace, sameStatementEdited, sharedEnds, tokens, type Lines } from './lines.js';
import { elementParts } from './element-content.js';
import { extendedInPlace } from './extended-line.js';
import { editsSharedPart } from './shared-part-edit.js';
import { soleMemberRewritten } from './sole-member.js';

/** Tokens two lines share at their start and at their end (not overlapping). */
export function ends(a: string[], b: string[]): number {
  const [pre, suf] = sharedEnds(a, b);
  return pre + suf;
}

/** Longest common subsequence of two token lists (lines: at most MAX_TOKENS tokens each are compared). */
export function common(a: string[], b: string[]): number {
  const x = a.length > MAX_TOKENS ? a.slice(0, MAX_TOKENS) : a;
  const y = b.length > MAX_TOKENS ? b.slice(0, MAX_TOKENS) : b;
  let prev = new Uint16Array(y.length + 1);
  let cur = new Uint16Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    for (let k = 1; k <= y.length; k++) cur[k] = x[i - 1] === y[k - 1] ? prev[k - 1]! + 1 : Math.max(prev[k]!, cur[k - 1]!);
    [prev, cur] = [cur, prev];
  }
  return prev[y.length]!;
}

const MAX_TOKENS = 120;

/** A line's siblings as the sibling test saw them: best scores against the line, and their tokens. */
interface Siblings {
  ends: number;
  common: number;
  tokens: string[][];
}

/** Per original text: each line's siblings, by line (negative: key kept). */
const siblingBests = new WeakMap<Lines, Map<number, Siblings>>();

/** Siblings looked at on each side of a line (same owner, same indentation). */
const SIBLING_WINDOW = 60;

/**
 * Update line `r` reads as an edit of original line j rather than as a new sibling of it: it shares
 * more of its tokens (in order) with j than any sibling of j does: lines at j's
 * indentation under the same header or under a parallel one (the `errors.push(…)` of each `if`).
 * When r keeps j's key or name (`Lines = …` → `Lines = lineList,`), only siblings of that key compete.
 * Lines without siblings are judged by the other rules. `competes` narrows the siblings further
 * (shown-parent-edit.ts: not those under other heads than the update shows).
 */
export function distinctEdit(orig: Lines, j: number, r: string, competes?: (y: number) => boolean): boolean {
  // Two elements in the same tags (`<td className="x">…</td>`) are told apart by their content (element-content.ts).
  const ej = elementParts(orig.norm[j]!);
  const byContent = ej !== null && elementParts(r)?.wrap === ej.wrap;
  const text = (n: string): string => (byContent ? elementParts(n)?.content ?? n : n);
  const tj = tokens(text(orig.norm[j]!));
  const tr = tokens(text(r));
  if (ends(tj, tr) >= tj.length && tj.length === tr.length) return true;
  // A kept key or name (`Lines = …`, `int sum(…) {` with a parameter changed): siblings of other keys or names do not compete.
  const nameOf = (n: string): string | null => lineIdentity(n) ?? assignmentKey(n);
  const kj = nameOf(orig.norm[j]!);
  const keyKept = !byContent && kj !== null && nameOf(r) === kj;
  const owner = ownerRow(orig, j);
  const level = orig.indent[j]!;
  const floor = owner < 0 ? 0 : orig.indent[owner]!;
  const grand = owner < 0 ? -1 : ownerRow(orig, owner);
  const related = (y: number): boolean => {
    const oy = ownerRow(orig, y);
    // Parallel blocks that are not named (`if` checks), not other definitions or keys.
    return oy === owner || (oy >= 0 && owner >= 0 && orig.indent[oy] === floor && ownerRow(orig, oy) === grand && lineIdentity(orig.norm[oy]!) === null && lineIdentity(orig.norm[owner]!) === null);
  };
  const cacheKey = byContent ? orig.text.length + j : keyKept ? -1 - j : j;
  let cached = siblingBests.get(orig);
  if (!cached) siblingBests.set(orig, (cached = new Map()));
  const hit = competes ? undefined : cached.get(cacheKey);
  if (hit) return apartFromSiblings(tj, tr, hit);
  // Two measures, each against its own best sibling: shared ends (a statement with a value changed)
  // and shared tokens in order (a line rewritten around its own text). Either tells j's edit apart.
  let bestEnds = -1;
  let bestCommon = -1;
  const siblings: string[][] = [];
  for (const dir of [-1, 1] as const) {
    let seen = 0;
    for (let y = j + dir; y >= 0 && y < orig.text.length && seen < SIBLING_WINDOW; y += dir) {
      if (orig.blank[y]) continue;
      if (orig.indent[y]! < floor) break;
      if (orig.indent[y]! !== level || orig.weak[y] || orig.norm[y] === orig.norm[j]) continue;
      seen++;
      if (!related(y) || (competes && !competes(y))) continue;
      if (keyKept && nameOf(orig.norm[y]!) !== kj) continue;
      const ty = tokens(text(orig.norm[y]!));
      siblings.push(ty);
      bestEnds = Math.max(bestEnds, ends(tj, ty));
      bestCommon = Math.max(bestCommon, common(tj, ty));
    }
  }
  const found: Siblings = { ends: bestEnds, common: bestCommon, tokens: siblings };
  if (!competes) cached.set(cacheKey, found);
  return apartFromSiblings(tj, tr, found);
}

/**
 * r is more like j than any sibling is (either measure), or, where some siblings are as close, r edits
 * only what j shares with each of them (shared-part-edit.ts: the same change made on several siblings).
 */
function apartFromSiblings(tj: string[], tr: string[], s: Siblings): boolean {
  const e = ends(tj, tr);
  const c = common(tj, tr);
  if (s.ends < 0 || e > s.ends || c > s.common) return true;
  return editsSharedPart(tj, tr, s.tokens.filter((ty) => ends(tj, ty) >= e || common(tj, ty) >= c));
}

/**
 * A closer the update shows edited (`}` → `};`, `)` → `),`) at update row i stands for original
 * closer j only when the blocks they close have corresponding headers: the same line, or one edited.
 */
export function closerOwnersMatch(s: Lines, i: number, orig: Lines, j: number): boolean {
  const hs = ownerRow(s, i);
  const ho = ownerRow(orig, j);
  // A segment that does not show the header (it starts inside the block) tells nothing.
  if (hs < 0 || ho < 0) return true;
  const a = orig.norm[ho]!;
  const b = s.norm[hs]!;
  return a === b || editedVersion(a, b) || sameStatementEdited(a, b);
}

/** Identities of the update's lines (what it names anywhere). */
export function shownIdentities(segments: Array<{ lines: Lines }>): Set<string> {
  const out = new Set<string>();
  for (const seg of segments) {
    for (let i = 0; i < seg.lines.text.length; i++) {
      if (seg.lines.blank[i]) continue;
      const id = rowIdentity(seg.lines, i, lineIdentity);
      if (id !== null) out.add(id);
    }
  }
  return out;
}

/** A line that opens a string-literal docstring (`"""`, `'''`, with a Python string prefix). */
const DOCSTRING_OPEN = /^[rRbBuU]?("""|''')/;

/**
 * The docstring right under header h (its first body statement, through the line that closes it),
 * when the block the update shows in its place (`shown`, its lines' keys) holds no docstring of its
 * own: a writer who shows `class RateLimiter:` above the one method it edits left the class doc
 * out, it did not write a new block without one. Empty otherwise.
 */
export function leftOutDocRows(orig: Lines, h: number, to: number, shown: ReadonlySet<string>): Set<number> {
  const rows = new Set<number>();
  for (const k of shown) if (DOCSTRING_OPEN.test(k)) return rows;
  let j = h + 1;
  while (j < to && orig.blank[j]) j++;
  const m = j < to ? DOCSTRING_OPEN.exec(orig.norm[j]!) : null;
  if (!m || orig.indent[j]! <= orig.indent[h]!) return rows;
  const quote = m[1]!;
  // One line (`"""Doc."""`) or up to the line that closes it.
  let end = j;
  if (orig.norm[j]!.indexOf(quote, m[0].length) < 0) {
    end = j + 1;
    while (end < to && !orig.norm[end]!.includes(quote)) end++;
    if (end >= to) return rows;
  }
  for (let x = j; x <= end; x++) rows.add(x);
  return rows;
}

/**
 * Original rows in [from, to) that belong to a whole definition inside that range whose name the
 * update never shows: such a definition is not replaced or dropped by omission.
 */
export function unmentionedDefinitionRows(orig: Lines, from: number, to: number, shown: Set<string>): Set<number> {
  const rows = new Set<number>();
  for (let h = Math.max(0, from); h < to; h++) {
    if (orig.blank[h]) continue;
    const id = rowIdentity(orig, h, lineIdentity);
    if (id === null || shown.has(id)) continue;
    const end = blockEnd(orig, h);
    if (end > to || end <= h + 1) continue;
    for (let x = h; x < end; x++) rows.add(x);
    h = end - 1;
  }
  return rows;
}

/** A line that only opens a block (Allman `{`): it belongs to the head right above it. */
export function loneOpener(norm: string): boolean {
  return norm === '{';
}

/**
 * An edited update line at row i of `s` stands for original line j only inside j's block: when its
 * header is new text, that header must read as the edit of j's header (a new `if` copying the
 * shape of the original's is not it, so neither is the line inside it). A header grown at one place
 * keeps all it had (`<script>` → `<script lang="ts">`, `for {` → `for ctx.Err() == nil {`, a command
 * assigned: `aws … \` → `ID=$(aws … \`): its edit too, however little of it the new text is.
 */
export function ownerEditMatches(s: Lines, i: number, orig: Lines, j: number, isOriginal: (norm: string) => boolean): boolean {
  const hs = ownerRow(s, i);
  const ho = ownerRow(orig, j);
  if (hs < 0 || ho < 0) return true;
  const a = orig.norm[ho]!;
  const b = s.norm[hs]!;
  if (a === b || isOriginal(b)) return true;
  // The one member of a block the update shows whole, rewritten under a new name (sole-member.ts).
  if (soleMemberRewritten(s, hs, orig) === ho) return true;
  return (editedVersion(a, b) || sameStatementEdited(a, b) || renamedInPlace(a, b) || extendedInPlace(a, b)) && distinctEdit(orig, ho, b);
}

/** An attribute, annotation or decorator line (`[ApiController]`, `@Override`, `#[derive(Debug)]`). */
const ANNOTATION = /^(?:\[[A-Za-z_][\w.]*(?:\(.*\))?(?:\s*,\s*[A-Za-z_][\w.]*(?:\(.*\))?)*\]|@[A-Za-z_][\w.]*(?:\(.*\))?|#!?\[[A-Za-z_][\w:]*(?:\(.*\)|\s*=.*)?\])$/;

/** A whole line that is an attribute, annotation or decorator (not Ruby's `@items << x`). */
export function annotationLine(norm: string): boolean {
  return ANNOTATION.test(norm);
}

/**
 * Original rows directly above row q (no blank between) that annotate it: attributes belong to the
 * declaration they precede, so an update showing that declaration under the line above them (a
 * class header right after `namespace … {`) has left them out, not removed them.
 */
export function attachedAnnotations(orig: Lines, q: number): number[] {
  const rows: number[] = [];
  for (let j = q - 1; j >= 0 && !orig.blank[j] && ANNOTATION.test(orig.norm[j]!); j--) rows.push(j);
  return rows;
}

/** A comment-only line (`/* unchanged lookup *\/`, `// rest as before`, `# same as before`; not a
 *  `#include`, `#[attr]` or shebang). */
export function commentLine(norm: string): boolean {
  return COMMENT_LINE.test(norm);
}

// `%` opens an Erlang, LaTeX or MATLAB comment; not when a bracket follows (a Python `% (a, b)` continuation).
const COMMENT_LINE = /^(?:\/\/|\/\*|\*|#(?![!\[{]|include\b|define\b|if|endif\b|pragma\b|region\b)|--|<!--|\(\*|;|%(?:%|\s+(?![(\[{])))/;

/**
 * Original rows a new comment stands for: a segment shows two original lines (each once in the
 * original, in order) with nothing between them but comment lines of its own. A comment in place of
 * code is a marker in other words (`/* unchanged lookup *\/`): the code it stands for stays.
 */
export function commentCoveredRows(orig: Lines, segments: ReadonlyArray<{ lines: Lines }>, isOriginal: (norm: string) => boolean, uniqueAt: (norm: string) => number | undefined): Set<number> {
  const rows = new Set<number>();
  for (const seg of segments) {
    const l = seg.lines;
    let prev = -1;
    let comments = 0;
    for (let i = 0; i < l.text.length; i++) {
      if (l.blank[i]) continue;
      const n = l.norm[i]!;
      if (!isOriginal(n) && commentLine(n)) {
        comments++;
        continue;
      }
      const j = uniqueAt(n);
      if (comments > 0 && prev >= 0 && j !== undefined && j > prev + 1) for (let x = prev + 1; x < j; x++) rows.add(x);
      prev = j ?? -1;
      comments = 0;
    }
  }
  return rows;
}
