// What both merge algorithms work on: the original's lines with a lookup index, the update cut
// into segments at its marker lines, and the structural test ("does this deletion cross a block
// boundary?") that keeps new code which happens to equal a later line from deleting what lies between.
import { underOtherHead } from './foreign-head.js';
import { noteUpdateSegments } from './new-name-evidence.js';
import { editedVersion, sameStatementEdited, solidRow, splitLines, type Lines } from './lines.js';
import { renamedHeadRow } from './renamed-heads.js';
import { soleMemberRewritten } from './sole-member.js';
import { markerLines } from './markers.js';
import { flatSectionBetween, headDepth, markDocumentParts } from './flat-sections.js';

export interface Segment {
  /** The segment's own lines (update text between two markers). */
  readonly lines: Lines;
  /** A marker precedes it: original text before it is kept. */
  readonly markerBefore: boolean;
  /** A marker follows it: original text after it is kept. */
  readonly markerAfter: boolean;
  /** Indentation (columns) of the marker that follows, when there is one. */
  readonly markerAfterIndent: number | null;
}

/** Anchor chain of one segment: [segment line, original line] pairs, both strictly increasing. */
export type Chain = Array<[number, number]>;

export interface MergeContext {
  readonly orig: Lines;
  readonly segments: Segment[];
  /** Normalised non-blank original line → ascending positions. */
  readonly index: Map<string, number[]>;
  /** Minimum indentation of non-blank original lines in [a, b); Infinity when all blank or empty. */
  minIndent(a: number, b: number): number;
  /** Names the instruction mentions (instruction-scope.ts): a tie-break between twin anchors. */
  readonly scopeNames?: ReadonlySet<string>;
  /** Original rows of the definitions the instruction removes (removals.ts): deleting them crosses nothing. */
  readonly removable?: ReadonlySet<number>;
}

/** Sparse table for range-minimum over indentation (blank lines count as +Infinity). */
function buildRangeMin(orig: Lines): (a: number, b: number) => number {
  const n = orig.text.length;
  const base = new Float64Array(n);
  for (let i = 0; i < n; i++) base[i] = orig.blank[i] ? Infinity : orig.indent[i]!;
  const levels: Float64Array[] = [base];
  for (let k = 1; 1 << k <= n; k++) {
    const prev = levels[k - 1]!;
    const half = 1 << (k - 1);
    const cur = new Float64Array(n - (1 << k) + 1);
    for (let i = 0; i < cur.length; i++) cur[i] = Math.min(prev[i]!, prev[i + half]!);
    levels.push(cur);
  }
  return (a, b) => {
    if (b <= a) return Infinity;
    const k = 31 - Math.clz32(b - a);
    const lv = levels[k]!;
    return Math.min(lv[a]!, lv[b - (1 << k)]!);
  };
}

/** Original rows by normalised text, built once per original (buildIndex). */
const rowsByText = new WeakMap<Lines, Map<string, number[]>>();

/** The rows of the original holding `norm` (blank lines aside), from an index kept per original. */
export function rowsOf(orig: Lines, norm: string): number[] {
  return originalIndex(orig).get(norm) ?? [];
}

/** The original's rows by normalised text (buildIndex), built once per original and kept. */
export function originalIndex(orig: Lines): Map<string, number[]> {
  let index = rowsByText.get(orig);
  if (!index) rowsByText.set(orig, (index = buildIndex(orig)));
  return index;
}

export function buildIndex(orig: Lines): Map<string, number[]> {
  const index = new Map<string, number[]>();
  for (let j = 0; j < orig.norm.length; j++) {
    if (orig.blank[j]) continue;
    const key = orig.norm[j]!;
    const list = index.get(key);
    if (list) list.push(j);
    else index.set(key, [j]);
  }
  return index;
}

/**
 * Strips a Markdown fence the update was wrapped in, unless the original itself is fenced; and, for
 * an original with no fence line at all, a model's whole answer pasted as the update (a sentence,
 * one fenced block, a closing remark): the block is the update, the prose around it is not code.
 */
function unfence(update: string, code: string): string {
  const t = update.trim();
  const lines = t.split('\n');
  const isFence = (l: string) => l.trim().startsWith('```');
  if (t.startsWith('```') && !code.trimStart().startsWith('```')) {
    return lines.length >= 2 && lines[lines.length - 1]!.trim() === '```' ? lines.slice(1, -1).join('\n') : update;
  }
  const fences = lines.flatMap((l, i) => (isFence(l) ? [i] : []));
  const codeLines = code.split('\n');
  if (fences.length !== 2 || lines[fences[1]!]!.trim() !== '```' || codeLines.some(isFence)) return update;
  const outside = [...lines.slice(0, fences[0]), ...lines.slice(fences[1]! + 1)].filter((l) => l.trim());
  const origLines = new Set(codeLines.map((l) => l.trim()));
  // Prose only: sentences the original does not hold.
  const prose = (l: string) => /^[A-Z][^{}<>=;]*[.:!]$/.test(l) && l.split(/\s+/).length >= 3;
  if (outside.length === 0 || outside.some((l) => origLines.has(l.trim()) || !prose(l.trim()))) return update;
  return lines.slice(fences[0]! + 1, fences[1]).join('\n');
}

export interface SplitUpdate {
  segments: Segment[];
  /** False when the update has no marker at all: it is the whole new file. */
  hasMarkers: boolean;
  updateLines: Lines;
}

export function splitUpdate(update: string, orig: Lines, code: string): SplitUpdate {
  const upd = splitLines(unfence(update, code));
  const isMarker = markerLines(upd.text, orig.text);
  const hasMarkers = isMarker.some(Boolean);
  const groups: Array<{ start: number; end: number; before: boolean; after: boolean }> = [];
  let start = 0;
  let sawMarker = false;
  for (let i = 0; i <= upd.text.length; i++) {
    const atMarker = i < upd.text.length && isMarker[i]!;
    if (i === upd.text.length || atMarker) {
      groups.push({ start, end: i, before: sawMarker, after: atMarker });
      if (atMarker) sawMarker = true;
      start = i + 1;
    }
  }
  // Blank-only pieces are layout around markers, not content: drop them, and let a dropped first
  // or last piece count as a marker edge (an update that starts "\n// ... existing code ..." keeps the head).
  const kept = groups.filter((g) => {
    for (let i = g.start; i < g.end; i++) if (!upd.blank[i]) return true;
    return false;
  });
  const segments: Segment[] = [];
  for (let k = 0; k < kept.length; k++) {
    const g = kept[k]!;
    const before = k === 0 ? g.before || (hasMarkers && g !== groups[0]) : true;
    const after = k === kept.length - 1 ? g.after || (hasMarkers && g !== groups[groups.length - 1]) : true;
    // A terminator after the last line, so that a blank line just before a marker stays a line of
    // the segment (the blank between new code and the code the marker keeps).
    const text = upd.text.slice(g.start, g.end).join('\n') + (g.after ? '\n' : '');
    const markerLine = g.after ? g.end : -1;
    segments.push({
      lines: splitLines(text), markerBefore: before, markerAfter: after,
      markerAfterIndent: markerLine >= 0 ? upd.indent[markerLine]! : null,
    });
  }
  noteUpdateSegments(segments);
  return { segments, hasMarkers, updateLines: upd };
}

export function buildContext(orig: Lines, segments: Segment[], scopeNames?: ReadonlySet<string>, removable?: ReadonlySet<number>): MergeContext {
  markDocumentParts(orig, segments.map((seg) => seg.lines));
  return { orig, segments, index: buildIndex(orig), minIndent: buildRangeMin(orig), scopeNames, removable };
}

/** Lines of `seg` that may anchor a chain: non-blank, not weak. */
export function strongLines(seg: Segment): number[] {
  const out: number[] = [];
  for (let i = 0; i < seg.lines.text.length; i++) if (!seg.lines.weak[i]) out.push(i);
  return out;
}

/**
 * Deleting the original lines strictly between matched lines p and q crosses a block boundary when
 * some deleted line sits left of q: the match jumped out of one block into the body of another.
 */
export function crossesBlock(ctx: MergeContext, p: number, q: number, seg?: Segment, iPrev?: number, iCur?: number): boolean {
  if (q - p <= 1) return false;
  const o = ctx.orig;
  // ` * text` lines of a block comment sit one column right of the code they belong to.
  // A flat section header (`[[tool.mypy.overrides]]`) is read one column left of its own: deleting
  // whole sections up to the next header crosses nothing; landing on a key past a header does.
  const limit = headDepth(o, q) - (/^\*/.test(o.norm[q]!) ? 1 : 0);
  if (ctx.minIndent(p + 1, q) >= limit && !(limit >= 0 && flatSectionBetween(o, p, q))) return false;
  if (!seg || iPrev === undefined || iCur === undefined || iCur - iPrev <= 1) return true;
  // Lines the segment shows between the two anchors (as they are, or edited) are not deleted:
  // only the rest counts (`{` of an object literal, a changed `export type X =` head).
  const between: string[] = [];
  for (let i = iPrev + 1; i < iCur; i++) if (!seg.lines.blank[i]) between.push(seg.lines.norm[i]!);
  if (between.length > 64) return true;
  const shown = new Set(between);
  for (let j = p + 1; j < q; j++) {
    if (o.blank[j] || headDepth(o, j) >= limit) continue;
    // A service, section or function the instruction removes ("drop the flower service") is meant to go.
    if (shown.has(o.norm[j]!) || ctx.removable?.has(j)) continue;
    if (!o.weak[j] && between.some((t) => editedVersion(o.norm[j]!, t))) continue;
    return true;
  }
  return false;
}

/**
 * A match that skips original lines between (iPrev, jPrev) and (iCur, jCur) is believable only with
 * context on one side: the line after jCur matches the segment line after iCur (or iCur is the last
 * content line), or the line before jPrev matches the segment line before iPrev. Two anchors side by
 * side at the end of a segment = the lines between them are deleted.
 */
export function jumpSupported(ctx: MergeContext, seg: Segment, iPrev: number, jPrev: number, iCur: number, jCur: number): boolean {
  const s = seg.lines;
  const o = ctx.orig;
  let last = s.text.length - 1;
  while (last > 0 && s.blank[last]) last--;
  if (iCur >= last) return true;
  if (jCur + 1 < o.text.length && s.norm[iCur + 1] === o.norm[jCur + 1]) return true;
  if (jPrev > 0 && !s.blank[iPrev - 1] && s.norm[iPrev - 1] === o.norm[jPrev - 1]) return true;
  return false;
}

/**
 * A block-crossing deletion is still believable when the landing line is followed by at least two
 * more segment lines that match the original right after it, one of them a strong line: the segment
 * really continues there (a deleted `} else {` or loop header), it did not jump on a lone new line.
 */
export function strongSupport(ctx: MergeContext, seg: Segment, iCur: number, jCur: number): boolean {
  const s = seg.lines;
  const o = ctx.orig;
  let k = 1;
  let strong = false;
  while (iCur + k < s.text.length && jCur + k < o.text.length && s.norm[iCur + k] === o.norm[jCur + k]) {
    if (!s.weak[iCur + k]) strong = true;
    k++;
  }
  return k - 1 >= 2 && strong;
}

/** Largest index of `sorted` with value < x, or -1. */
export function lastBelow(sorted: number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Smallest index of `sorted` with value >= x, or sorted.length. */
export function firstAtOrAbove(sorted: number[], x: number): number {
  return lastBelow(sorted, x) + 1;
}

/** Lines on each side compared by `neighbourAgreement`. */
const NEIGHBOUR_RADIUS = 3;

/**
 * How many lines around segment line i agree with the lines around original line j (blank and weak
 * lines included, with the same indentation shift): the "surrounding lines" tie-breaker between
 * occurrences of a repeated anchor.
 */
export function neighbourAgreement(ctx: MergeContext, seg: Segment, i: number, j: number): number {
  const s = seg.lines;
  const o = ctx.orig;
  const delta = o.indent[j]! - s.indent[i]!;
  let agree = 0;
  for (const dir of [-1, 1]) {
    for (let r = 1; r <= NEIGHBOUR_RADIUS; r++) {
      const a = i + dir * r;
      const b = j + dir * r;
      if (a < 0 || b < 0 || a >= s.text.length || b >= o.text.length) break;
      if (s.norm[a] !== o.norm[b]) break;
      if (!s.blank[a] && o.indent[b]! - s.indent[a]! !== delta) break;
      agree++;
    }
  }
  return agree;
}

/** Lines on each side compared by `editedNeighbours`. */
const EDITED_RADIUS = 6;

/**
 * How many segment lines near i that match nothing exactly read as edits of the original lines at
 * the same offset from j: the tie-breaker when a repeated block is shown with one line changed.
 */
export function editedNeighbours(ctx: MergeContext, seg: Segment, i: number, j: number): number {
  const s = seg.lines;
  const o = ctx.orig;
  let n = 0;
  for (let k = Math.max(0, i - EDITED_RADIUS); k <= Math.min(s.text.length - 1, i + EDITED_RADIUS); k++) {
    const y = j + (k - i);
    if (k === i || y < 0 || y >= o.text.length || s.weak[k] || o.weak[y]) continue;
    if (s.norm[k] !== o.norm[y] && !ctx.index.has(s.norm[k]!) && editedVersion(o.norm[y]!, s.norm[k]!)) n++;
  }
  return n;
}

/** Per line: the nearest non-blank line above it indented less (its block's header), or -1. One pass with a stack. */
function headersOf(l: Lines): Int32Array {
  const out = new Int32Array(l.text.length).fill(-1);
  const stack: number[] = [];
  for (let y = 0; y < l.text.length; y++) {
    if (l.blank[y]) continue;
    while (stack.length > 0 && headDepth(l, stack[stack.length - 1]!) >= headDepth(l, y)) stack.pop();
    if (stack.length > 0) out[y] = stack[stack.length - 1]!;
    stack.push(y);
  }
  return out;
}

const headerCache = new WeakMap<Lines, Int32Array>();

/** The nearest non-blank line above y indented less than it (its block's header), or -1. */
export function headerOf(l: Lines, y: number): number {
  let h = headerCache.get(l);
  if (!h) {
    h = headersOf(l);
    headerCache.set(l, h);
  }
  return h[y]!;
}

/**
 * A line the original has several times (`ports:`, `self.save()`) anchors at occurrence j only when
 * the header the segment shows it under (the nearest shallower line above it) is j's header too, as
 * it is or edited: `ports:` under a new `mailhog:` service is not the `ports:` of `web:`. True when
 * the segment shows no header above the line.
 */
export function sameBlockHeader(ctx: MergeContext, seg: Segment, i: number, j: number): boolean {
  const s = seg.lines;
  const o = ctx.orig;
  const hi = headerOf(s, i);
  if (hi < 0) return true;
  const hj = headerOf(o, j);
  if (hj < 0) return false;
  return s.norm[hi] === o.norm[hj] || (!s.weak[hi] && !o.weak[hj] && editedVersion(o.norm[hj]!, s.norm[hi]!)) ||
    // The one member of a block the update shows whole, rewritten under a new name (sole-member.ts).
    soleMemberRewritten(s, hi, o) === hj;
}

/**
 * After a marker, the segment resumes where its first line stands: when that line is a strong line
 * the original has exactly once at or after `lo`, it is the segment's anchor, whatever the new code
 * below it happens to share with other lines (a new function copying `size_t got = 0;` from the one
 * the marker kept). Returns [segment line, original line] or null.
 */
export function resumeAnchor(ctx: MergeContext, seg: Segment, lo: number, hi = ctx.orig.text.length): [number, number] | null {
  if (!seg.markerBefore) return null;
  const s = seg.lines;
  let f = 0;
  while (f < s.text.length && s.blank[f]) f++;
  if (f >= s.text.length || s.weak[f]) return null;
  const pos = ctx.index.get(s.norm[f]!);
  if (!pos) {
    // Or a head renamed throughout the update (renamed-heads.ts).
    // An Allman head (`{` alone on the next line) too.
    const j = editedHeader(ctx, s.norm[f]!, lo, hi, s.norm[solidRow(s, f, 1)] === '{');
    const r = j >= 0 ? j : renamedHeadRow(ctx, s, f, lo, hi);
    return r >= 0 && !underOtherHead(ctx, seg, f, r) ? [f, r] : null;
  }
  const c = firstAtOrAbove(pos, lo);
  // Not a line under another head than the one the update shows it under (foreign-head.ts).
  return c === pos.length - 1 && !underOtherHead(ctx, seg, f, pos[c]!) ? [f, pos[c]!] : null;
}

/** The name a definition header declares: the first identifier written right before `(`, or a type's name. */
function declaredName(norm: string): string | null {
  // A block opened by a call with a title (`describe("wrap", () => {`) is named by the title too.
  const titled = /([A-Za-z_$][\w$]*)\(\s*("[^"]*"|'[^']*'|`[^`]*`)/.exec(norm);
  if (titled) return `${titled[1]}(${titled[2]}`;
  return /([A-Za-z_$][\w$]*)\(/.exec(norm)?.[1] ??
    /\b(?:class|struct|enum|interface|trait|protocol|extension|record|object|module)\s+([A-Za-z_$][\w$]*)/.exec(norm)?.[1] ?? null;
}

/**
 * A segment that opens with a changed definition header (`func (p *Pool) Submit(ctx …) error {` for
 * `func (p *Pool) Submit(j Job) {`): the one original header at or after `lo` that reads as its edit
 * and declares the same name, or -1.
 */
function editedHeader(ctx: MergeContext, norm: string, lo: number, hi: number, allman: boolean): number {
  if (!allman && !/[{:]$/.test(norm)) return -1;
  const name = declaredName(norm);
  if (!name) return -1;
  const o = ctx.orig;
  let at = -1;
  for (let j = lo; j < hi; j++) {
    if (o.blank[j] || !(allman ? o.norm[solidRow(o, j, 1)] === '{' : /[{:]$/.test(o.norm[j]!)) || declaredName(o.norm[j]!) !== name) continue;
    if (!editedVersion(o.norm[j]!, norm) && !sameStatementEdited(o.norm[j]!, norm)) continue;
    if (at >= 0) return -1;
    at = j;
  }
  return at;
}
