// How the loss check (loss.ts) reads the update: its segments as the merge splits them, where each
// line is shown, what its markers stand for, and the instruction's renames applied to the original.
import { alignLines } from './line-diff.js';
import { withoutSeparator } from './member-separators.js';
import { isWeak, lineCounts, normalize, solidRow, type Lines } from './lines.js';
import { splitUpdate, type Segment } from './merge-context.js';
import { asksForRemoval } from './removals.js';
import { omitsDefinitions } from './markerless-pieces.js';
import { isEditedLineSnippet } from './edited-line-snippet.js';
import { expandUpdate } from './marker-expansion.js';
import { trailingMarker } from './trailing-marker.js';
import { applyRenames, renameTokens } from './instructed-rename.js';
import { noteEdits, noteScope, sameChangeNotes } from './same-change.js';
import { inRenameScope, renameScope } from './rename-scope.js';
import { soleMemberRewritten } from './sole-member.js';
import { lineIdentity, soleIdentityRows } from './line-identity.js';
import { commentCoveredRows, commentLine, shownIdentities } from './licence-rules.js';
import { INLINE_MARKER } from './markers.js';
import { holdsMarkerElement } from './inline-elements.js';
import { copiedElementHead } from './copied-anchor.js';

export interface UpdateView {
  segments: Segment[];
  hasMarkers: boolean;
  /** Normalised non-marker update line → [segment, line] occurrences. */
  where: Map<string, Array<[number, number]>>;
  markers: Set<string>;
  /** Update lines holding an inline marker, as [text before, text after] the marker. */
  inline: Array<[string, string]>;
  wholeFile: boolean;
  originalText: string;
  /** Normalised original line → how many times it occurs. */
  origCount: Map<string, number>;
  /** Original lines a marker between two segments stands for (see `markerCovered`). */
  covered: Uint8Array;
  /** What the update's lines name (line-identity.ts, block-names.ts). */
  ids: Set<string>;
  /** Original rows a new comment of the update stands for (licence-rules.ts `commentCoveredRows`). */
  commentCovered: Set<number>;
  /** Original row → its text with the instruction's renames applied, where they change it (instructed-rename.ts). */
  renamed: Map<number, string>;
  /** Keys of those renamed texts. */
  renamedKeys: Set<string>;
  /** Key of a line the original has once → its row. */
  uniqueRow: Map<string, number>;
  /** An instruction is given and asks for no removal (whole-blocks.ts `closerOfEnclosing`). */
  removesNothing: boolean;
  /** Some original line holds a marker-like list element (`...` is then the language's own). */
  originalHoldsDots: boolean;
}

export function fromInline(view: UpdateView, norm: string): boolean {
  for (const [a, b] of view.inline) if (norm.length > a.length + b.length && norm.startsWith(a) && norm.endsWith(b)) return true;
  return false;
}

/** The update lines showing text `k`, as [segment lines, row] (key-path.ts). */
export function shownAt(view: UpdateView, k: string): Array<[Lines, number]> {
  return (view.where.get(k) ?? []).map(([s, i]) => [view.segments[s]!.lines, i]);
}

/** The update shows `norm` right under a marker or right under the line `prev` (terminal-edit.ts). */
export function shownUnder(view: UpdateView, norm: string, prev: string | null): boolean {
  return (view.where.get(key(norm)) ?? []).some(([s, i]) => {
    const w = solidRow(view.segments[s]!.lines, i, -1);
    return w < 0 ? view.segments[s]!.markerBefore : view.segments[s]!.lines.norm[w] === prev;
  });
}

/** Some segment shows `norm` as the rewrite of original row j, the one member of its block (sole-member.ts). */
export function soleMemberShown(view: UpdateView, orig: Lines, j: number, norm: string): boolean {
  return (view.where.get(key(norm)) ?? []).some(([s, i]) => soleMemberRewritten(view.segments[s]!.lines, i, orig) === j);
}

/** Comparison key of a line: normalised, a byte-order mark dropped. */
export function key(norm: string): string {
  return norm.charCodeAt(0) === 0xfeff ? norm.slice(1).trim() : norm;
}

export function updateView(orig: Lines, original: string, sent: string, instruction: string | null = null): UpdateView {
  // The update read as the merge reads it (marker-expansion.ts expandUpdate).
  const update = expandUpdate(sent, original);
  const split = splitUpdate(update, orig, original);
  const where = new Map<string, Array<[number, number]>>();
  split.segments.forEach((seg, s) => {
    seg.lines.norm.forEach((n, i) => {
      if (seg.lines.blank[i]) return;
      const k = key(n);
      const list = where.get(k);
      if (list) list.push([s, i]);
      else where.set(k, [[s, i]]);
    });
  });
  const markers = new Set<string>();
  const u = split.updateLines;
  const segText = new Set<string>();
  for (const seg of split.segments) for (const n of seg.lines.norm) segText.add(n);
  for (let i = 0; i < u.text.length; i++) if (!u.blank[i] && !segText.has(u.norm[i]!)) markers.add(u.norm[i]!);
  const inline: Array<[string, string]> = [];
  for (const n of u.norm) {
    const m = INLINE_MARKER.exec(n);
    if (m && n.trim() !== m[0]) inline.push([n.slice(0, m.index).replace(/\s+$/, ''), n.slice(m.index + m[0].length).replace(/^[\s,]+/, '')]);
  }
  const wholeFile = !split.hasMarkers && readsAsWholeFile(orig, u);
  const origCount = lineCounts(orig, { key });
  const uniqueRow = new Map<string, number>();
  for (let j = 0; j < orig.text.length; j++) if (!orig.blank[j] && origCount.get(key(orig.norm[j]!)) === 1) uniqueRow.set(key(orig.norm[j]!), j);
  const covered = markerCovered(orig, split.segments, uniqueRow);
  const commentCovered = commentCoveredRows(orig, split.segments, (n) => origCount.has(key(n)), (n) => uniqueRow.get(key(n)));
  const renames = renameTokens(instruction, original, sent);
  const renamed = new Map<number, string>();
  if (renames.size > 0) {
    const scope = renameScope(instruction, orig);
    for (let j = 0; j < orig.text.length; j++) {
      if (!inRenameScope(scope, j)) continue;
      const r = orig.blank[j] ? orig.norm[j]! : applyRenames(orig.norm[j]!, renames);
      if (r !== orig.norm[j]) renamed.set(j, r);
    }
  }
  // A same-change note's line edit repeated on the lines that read as the edited original (same-change.ts).
  const notes = sameChangeNotes(sent);
  if (notes.length > 0 && renames.size === 0) {
    const scope = noteScope(notes, orig);
    const edits = new Map(noteEdits(original, sent, scope !== null).map((e) => [e.from, normalize(e.to)]));
    for (let j = 0; j < orig.text.length; j++) {
      const to = edits.get(orig.norm[j]!);
      if (to !== undefined && inRenameScope(scope, j)) renamed.set(j, to);
    }
  }
  const renamedKeys = new Set([...renamed.values()].map(key));
  return { segments: split.segments, hasMarkers: split.hasMarkers, where, markers, inline, wholeFile, originalText: original, origCount, covered, ids: shownIdentities(split.segments), commentCovered, renamed, renamedKeys, uniqueRow, removesNothing: !!instruction?.trim() && !asksForRemoval(instruction),
    originalHoldsDots: orig.norm.some((n) => /\.\.\.|…/.test(n) && holdsMarkerElement(n)) };
}

/**
 * Original lines a marker stands for: one segment ends on original line p and the next starts on
 * original line q, both lines the original has once, p before q. The lines between are the
 * "existing code" the marker keeps: no edit shown elsewhere (a new function copying their text)
 * replaces them. `at`: the key of each line the original has once → its row (UpdateView `uniqueRow`).
 */
function markerCovered(orig: Lines, segments: Segment[], at: ReadonlyMap<string, number>): Uint8Array {
  const covered = new Uint8Array(orig.text.length);
  if (segments.length < 2) return covered;
  const edge = (l: Lines, last: boolean): number | undefined => {
    for (let x = last ? l.text.length - 1 : 0; x >= 0 && x < l.text.length; x += last ? -1 : 1) if (!l.blank[x]) return at.get(key(l.norm[x]!));
    return undefined;
  };
  // A marker stands for the rows between the segments next to each other in FILE order: when a
  // later segment is written before an earlier one, the update's neighbours are not the file's.
  // A segment's place in the file is its first line the original has once, wherever it stands: a
  // hunk that opens with an edited head (`init(…, userAgent:)`) is placed by the lines after it.
  // A line the original has once only by its trailing separator (`updated_at …,` in one table, `updated_at …`
  // in the others) places nothing: it may be another copy with a member appended after it.
  const members = new Map<string, number>();
  for (let j = 0; j < orig.text.length; j++) {
    if (orig.blank[j]) continue;
    const member = withoutSeparator(key(orig.norm[j]!));
    members.set(member, (members.get(member) ?? 0) + 1);
  }
  const placing = (norm: string): boolean => at.has(key(norm)) && members.get(withoutSeparator(key(norm))) === 1;
  // With no such line, a head naming what one original head names places it (`func (s *Store)
  // queryRow(ctx, op string, …)` edited, its body lines repeated in every method): a hunk written
  // above its place is no continuation of the hunk before it.
  const heads = soleIdentityRows(orig);
  const place = (l: Lines): number | undefined => {
    for (let x = 0; x < l.text.length; x++) if (!l.blank[x] && placing(l.norm[x]!)) return at.get(key(l.norm[x]!));
    for (let x = 0; x < l.text.length; x++) {
      const id = l.blank[x] ? null : lineIdentity(l.norm[x]!);
      const j = id === null ? undefined : heads.get(id);
      if (j !== undefined) return j;
    }
    return undefined;
  };
  const rowsOf = new Map<string, number[]>();
  orig.norm.forEach((n, j) => {
    if (orig.blank[j]) return;
    const list = rowsOf.get(n);
    if (list) list.push(j);
    else rowsOf.set(n, [j]);
  });
  const shown = new Set(segments.flatMap((seg) => seg.lines.norm));
  for (const [a, b] of fileOrderNeighbours(segments.map((seg) => seg.lines), place)) {
    const p = edge(a, true);
    const q = edge(b, false);
    if (p === undefined || q === undefined || q <= p) continue;
    for (let j = p + 1; j < q; j++) covered[j] = 1;
  }
  // A segment written out of file order shows the rows between its own unique lines: the marker
  // whose range holds them does not stand for them (hunk-order.ts places that segment there).
  for (const seg of segments) {
    const [lo, hi] = uniqueSpan(seg.lines, at);
    for (let j = lo + 1; j < hi; j++) covered[j] = 0;
  }
  // A new element written like the one right after the segment before it stands beside the run of
  // siblings the marker keeps, whatever its body copies from them (copied-anchor.ts).
  for (const [a, b] of fileOrderNeighbours(segments.map((seg) => seg.lines), place)) {
    const p = edge(a, true);
    const end = p === undefined ? -1 : copiedElementHead(b, solidRow(b, -1, 1), orig, p + 1, (n) => rowsOf.get(n), (n) => shown.has(n));
    for (let j = (p ?? 0) + 1; j <= end; j++) covered[j] = 1;
  }
  return covered;
}

/**
 * Pairs of segments that stand next to each other in the file: the update's order when its segments
 * are in file order (by the original rows of their first unique lines), else the segments sorted by
 * that row, a segment without such a line (closers after a marker) kept after the one it follows.
 */
function fileOrderNeighbours(segs: Lines[], place: (l: Lines) => number | undefined): Array<[Lines, Lines]> {
  const groups: Array<{ at: number; list: Lines[] }> = [];
  for (const l of segs) {
    const at = place(l);
    if (at === undefined && groups.length > 0) groups[groups.length - 1]!.list.push(l);
    else groups.push({ at: at ?? -1, list: [l] });
  }
  if (groups.some((g, k) => k > 0 && groups[k - 1]!.at >= g.at)) groups.sort((x, y) => x.at - y.at);
  const list = groups.flatMap((g) => g.list);
  return list.slice(1).map((l, k) => [list[k]!, l]);
}

/** The first and last original rows of a segment's lines the original has once ([0, 0] when fewer than two). */
function uniqueSpan(l: Lines, at: ReadonlyMap<string, number>): [number, number] {
  let lo = Infinity, hi = -Infinity;
  for (let x = 0; x < l.text.length; x++) {
    const j = l.blank[x] ? undefined : at.get(key(l.norm[x]!));
    if (j !== undefined) [lo, hi] = [Math.min(lo, j), Math.max(hi, j)];
  }
  return lo < hi ? [lo, hi] : [0, 0];
}

/**
 * A marker-less update is the new file only when it reads as one: it shares no line with the
 * original, or it keeps the original's first line and then its last line or most of its lines. A
 * lone function is a snippet, not a file.
 */
export function readsAsWholeFile(orig: Lines, u: Lines): boolean {
  const nb = orig.norm.filter((_, j) => !orig.blank[j]).map(key);
  const un = u.norm.filter((_, i) => !u.blank[i]).map(key);
  if (nb.length === 0) return true;
  const shown = new Set(un);
  const common = alignLines(nb, un).length;
  // An update sharing no line with the original anchors nowhere: it is a rewrite of the whole file.
  if (common === 0 && isEditedLineSnippet(nb, un)) return false;
  // The file's edges are its outermost lines that say something: a closing `}` ends most files, so an
  // update that ends on one (a function shown after the imports) has not shown the file's end.
  const first = nb.find((n) => !isWeak(n)) ?? nb[0]!;
  const last = nb.findLast((n) => !isWeak(n)) ?? nb[nb.length - 1]!;
  if (common === 0) return true;
  // Without the file's first line that says something it is a piece, however much it holds (a
  // class's methods without the package line and imports above them; set o java05).
  if (!shown.has(first)) return false;
  if (common >= 0.6 * nb.length) return true;
  // Leaving out whole definitions it never names, it is the new file only when it keeps most of the old one.
  return shown.has(last) && common >= 0.3 * nb.length && (common >= 0.5 * nb.length || !omitsDefinitions(orig, u));
}

/** An update row strictly between rows i1 and i2 of a segment still holds an inline marker of the update's own. */
export function inlineMarkerBetween(view: UpdateView, seg: Segment, i1: number, i2: number): boolean {
  for (let x = Math.max(0, i1 + 1); x < i2; x++) if (!seg.lines.blank[x] && unexpandedInline(view, seg.lines.norm[x]!)) return true;
  return false;
}

/** A comment line of the update's own (not an original line) between rows i1 and i2 of a segment. */
export function newCommentBetween(view: UpdateView, seg: Segment, i1: number, i2: number): boolean {
  for (let x = Math.max(0, i1 + 1); x < i2; x++) {
    if (seg.lines.blank[x] || view.origCount.has(key(seg.lines.norm[x]!))) continue;
    if (commentLine(seg.lines.norm[x]!)) return true;
  }
  return false;
}

/** An output line with an inline marker the original does not hold (left unexpanded by the merge). */
export function unexpandedInline(view: UpdateView, norm: string): boolean {
  const m = INLINE_MARKER.exec(norm);
  if (m !== null && !view.originalText.includes(m[0])) return true;
  // A marker comment after an opening bracket (`{ -- ...`) that could not be placed.
  const t = trailingMarker(norm);
  if (t !== null && !view.originalText.includes(norm)) return true;
  // Bare dots as an element of a list (`{:port 3000 ...}`, `:db { ... }`) that no original list writes.
  return !view.originalHoldsDots && !view.origCount.has(key(norm)) && holdsMarkerElement(norm);
}
