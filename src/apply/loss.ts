// The no-loss invariant of an apply: an original line may be missing from the merged file only when
//   (a) 'replaced'        an update line that reads as its edit stands in its place,
//   (b) 'between-anchors' it lies between two original lines that one update segment shows in order
//                         with no marker between them, inside the same block (nothing between them
//                         sits left of both), weak anchors (`}`, `return err`) backed by context, or
//   (c) 'instructed'      the instruction asks to remove the definition it belongs to.
// Computed from the original, the update, the instruction and the output alone (an LCS alignment of
// the original's non-blank lines against the output's), so it serves both as the merge's final pass
// (restoreLost puts unlicensed lines back) and as the test oracle.
import { braceDelta, bracketDelta, closesAt, openedAt } from './brackets.js';
import { alignLines } from './line-diff.js';
import { closerRepunctuated } from './closer-resume.js';
import { separatorChanged, withoutSeparator } from './member-separators.js';
import { movedEdit, wrappedCopy } from './wrapped-run.js';
import { wrapsLine } from './wrapped-line.js';
import { declaresBare, hoistedAssignment } from './hoisted-declaration.js';
import { wrappedInNewBlock } from './edge-edits.js';
import { assignmentKey, continuedBelow, editedVersion, exactText, indentBlockEnd, isWeak, lineCounts, normalize, renamedInPlace, sameStatementEdited, solidRow, splitLines, tokens, type Lines } from './lines.js';
import { splitUpdate, type Segment } from './merge-context.js';
import { asksForRemoval, attachedRemovalHeads, consecutivePairs, instructedStatements, instructedUnits, LEADING, removalNames, removalEnd, removalParams, removalScopes, replacedNames, replacedPhrases, takesParam } from './removals.js';
import { blockEnd, blockEnd as removalBlockEnd, definesName } from './definition-blocks.js';
import { sectionEnd } from './spoken-targets.js';
import { inRanges, ownerRanges } from './removal-scope.js';
import { closerOfEnclosing, wholeBlocksBetween } from './whole-blocks.js';
import { leftOutBlocks, siblingsShownAround, omitsDefinitions } from './markerless-pieces.js';
import { withSwappedDefinitions } from './syntax/swap-licence.js';
import { isEditedLineSnippet } from './edited-line-snippet.js';
import { expandUpdate } from './marker-expansion.js';
import { trailingMarker } from './trailing-marker.js';
import { applyRenames, renameTokens } from './instructed-rename.js';
import { noteEdits, noteScope, sameChangeNotes } from './same-change.js';
import { inRenameScope, renameScope } from './rename-scope.js';
import { keyEditedAtPath, newAtKeyPath } from './key-path.js';
import { soleMemberRewritten } from './sole-member.js';
import { lineIdentity, renameShownInPlace, rowNamesDiffer, sameDepth, sameOwner, soleIdentityRows } from './line-identity.js';
import { namedHeadRow } from './block-names.js';
import { distinctUnderShownHeads } from './shown-parent-edit.js';
import { sameSectionKey } from './flat-sections.js';
import { attachedAnnotations, closerOwnersMatch, commentCoveredRows, commentLine, distinctEdit, leftOutDocRows, loneOpener, ownerEditMatches, shownIdentities, unmentionedDefinitionRows } from './licence-rules.js';
import { anotherElement, anotherItem, anotherSibling } from './sibling-items.js';
import { INLINE_MARKER } from './markers.js';
import { holdsMarkerElement } from './inline-elements.js';
import { extendedInPlace } from './extended-line.js';
import { coincidentAnchor } from './coincident-anchors.js';
import { closesPreviousOpener, nearestAtDepth } from './closer-pins.js';
import { keyRenamedKeepingValue, ownerRenamedThroughout, renamedThroughout, renamedWithUses } from './rename-evidence.js';
import { asCloseToKeptLine, closerToKeptLine, newSiblingLine } from './edit-evidence.js';
import { otherHeadOverRewrittenBody } from './rewritten-head.js';
import { indentOpener, orderAllows } from './nearest-pin.js';
import { rotatedReadings } from './rotated-gap.js';
import { deadImportRows } from './dead-imports.js';
import { leavesNameDangling, usedDefinitionRows } from './dangling-name.js';
import { rowsBetweenEdits, type PairedEdit } from './between-edits.js';
import { copiedElementHead, copiedUnderNewHead } from './copied-anchor.js';
import { terminalReplaced } from './terminal-edit.js';
import { sameTargetRewrite } from './same-target-edit.js';
import { shownInPlace, siblingBesideOld } from './parallel-names.js';
import { rebuild } from './restored-lines.js';

export type LossRule = 'replaced' | 'between-anchors' | 'instructed';

/** Original lines searched above a closer for the head it closes. */
const MAX_CLOSER_REACH = 400;

/** One stretch of the output between two original lines it kept (or the file's edges). */
export interface Gap {
  /** Kept original lines around the gap: -1 / N at the file's edges. */
  p: number;
  q: number;
  /** The output lines the kept ones became: -1 / output length at the edges. */
  kp: number;
  kq: number;
  /** Original non-blank lines in (p, q) missing from the output, each with the rule that licenses it (null: lost). */
  /** `present`: no rule, but the output still holds every occurrence of its text (moved, not lost). */
  /** `commented`: a new comment of the update stands for it (no definition swap licenses it either). */
  vanished: Array<{ j: number; rule: LossRule | null; pairedWith: number; present?: boolean; commented?: boolean }>;
}

export interface LossCheck {
  /** Original line indices (0-based) missing from the output with no rule for it. */
  lost: number[];
  licensed: Record<LossRule, number>;
  /** Output lines that are marker lines of the update (not expanded). */
  markersKept: number;
  gaps: Gap[];
}

interface UpdateView {
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

export { INLINE_MARKER };

function fromInline(view: UpdateView, norm: string): boolean {
  for (const [a, b] of view.inline) if (norm.length > a.length + b.length && norm.startsWith(a) && norm.endsWith(b)) return true;
  return false;
}

/** The update lines showing text `k`, as [segment lines, row] (key-path.ts). */
function shownAt(view: UpdateView, k: string): Array<[Lines, number]> {
  return (view.where.get(k) ?? []).map(([s, i]) => [view.segments[s]!.lines, i]);
}

/**
 * The line heads a section or a definition (it has an identity). A CSS rule's selector names it for
 * placement (block-names.ts CLASS_RULE) but heads no section here: a rule deleted between its
 * neighbours is read as before that name existed.
 */
function headsSection(norm: string): boolean {
  const id = lineIdentity(norm);
  return id !== null && !id.startsWith('rule ');
}

/** The update shows `norm` right under a marker or right under the line `prev` (terminal-edit.ts). */
function shownUnder(view: UpdateView, norm: string, prev: string | null): boolean {
  return (view.where.get(key(norm)) ?? []).some(([s, i]) => {
    const w = solidRow(view.segments[s]!.lines, i, -1);
    return w < 0 ? view.segments[s]!.markerBefore : view.segments[s]!.lines.norm[w] === prev;
  });
}

/** Some segment shows `norm` as the rewrite of original row j, the one member of its block (sole-member.ts). */
function soleMemberShown(view: UpdateView, orig: Lines, j: number, norm: string): boolean {
  return (view.where.get(key(norm)) ?? []).some(([s, i]) => soleMemberRewritten(view.segments[s]!.lines, i, orig) === j);
}

/** The output holds lines of its own between the gap's two kept lines (not a pure deletion). */
export function gapHoldsOutput(g: Gap, out: Lines): boolean {
  for (let k = g.kp + 1; k < g.kq; k++) if (!out.blank[k]) return true;
  return false;
}

/** Comparison key of a line: normalised, a byte-order mark dropped. */
function key(norm: string): string {
  return norm.charCodeAt(0) === 0xfeff ? norm.slice(1).trim() : norm;
}

function updateView(orig: Lines, original: string, sent: string, instruction: string | null = null): UpdateView {
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
  const covered = markerCovered(orig, split.segments, origCount);
  const uniqueRow = new Map<string, number>();
  for (let j = 0; j < orig.text.length; j++) if (!orig.blank[j] && origCount.get(key(orig.norm[j]!)) === 1) uniqueRow.set(key(orig.norm[j]!), j);
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
 * replaces them.
 */
function markerCovered(orig: Lines, segments: Segment[], origCount: Map<string, number>): Uint8Array {
  const covered = new Uint8Array(orig.text.length);
  if (segments.length < 2) return covered;
  const at = new Map<string, number>();
  for (let j = 0; j < orig.text.length; j++) if (!orig.blank[j] && origCount.get(key(orig.norm[j]!)) === 1) at.set(key(orig.norm[j]!), j);
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
function uniqueSpan(l: Lines, at: Map<string, number>): [number, number] {
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

/** Original lines inside a definition the instruction asks to remove. */
function instructedLines(orig: Lines, instruction: string | null, view: UpdateView): Set<number> {
  const out = instructedStatements(orig, instruction, new Set(view.where.keys()));
  for (const [start, end] of instructedUnits(orig, instruction, [...view.where.keys()].join('\n'))) for (let j = start; j < end; j++) out.add(j);
  if (!asksForRemoval(instruction) && replacedPhrases(instruction).length === 0) return out;
  const pairs = new Set<string>();
  for (const seg of view.segments) for (const p of consecutivePairs(seg.lines.norm, orig)) pairs.add(p);
  const targets = [...removalNames(orig, instruction, pairs), ...replacedNames(orig, instruction, [...view.where.keys()].join('\n'), pairs)];
  if (targets.length === 0) return out;
  // A target qualified by its owner (`SeriesService.update`) is licensed inside that owner only.
  const scopes = removalScopes(instruction);
  const params = removalParams(instruction);
  const ranges = new Map(targets.map((name) => [name, scopes.has(name) ? ownerRanges(orig, scopes.get(name)!, definesName, blockEnd) : null]));
  for (let h = 0; h < orig.text.length; h++) {
    if (orig.blank[h]) continue;
    for (const name of targets) {
      if (!definesName(orig.text[h]!, name) || !inRanges(ranges.get(name)!, h) || !takesParam(orig, h, params.get(name))) continue;
      let start = h;
      while (start > 0 && !orig.blank[start - 1] && LEADING.test(orig.norm[start - 1]!) && sectionEnd(orig, h) < 0) start--;
      const end = removalEnd(orig, h);
      for (let j = start; j < end; j++) out.add(j);
    }
  }
  // What belongs to a removed definition when the instruction says so ("its trigger", removals.ts).
  for (const h of attachedRemovalHeads(orig, instruction, [...view.where.keys()].join('\n'))) for (let j = h; j < blockEnd(orig, h); j++) out.add(j);
  return out;
}

/**
 * Walks from update line i and original line j in direction dir over non-blank lines while they are
 * equal, until a strong (not weak) original line confirms the match. Reaching the update's edge
 * counts only where no marker stands (the update shows the file's edge there).
 */
function contextHolds(view: UpdateView, seg: Segment, isFirst: boolean, isLast: boolean, i: number, orig: Lines, j: number, dir: 1 | -1, substitutions = 0): boolean {
  const s = seg.lines;
  let substituted = false;
  for (;;) {
    // A line unique in the original pins the position; a repeated one (`}`, a copied statement) needs its neighbours.
    if (!substituted && view.origCount.get(key(orig.norm[j]!)) === 1) return true;
    substituted = false;
    i += dir;
    j += dir;
    while (i >= 0 && i < s.text.length && s.blank[i]) i += dir;
    while (j >= 0 && j < orig.text.length && orig.blank[j]) j += dir;
    const segOut = i < 0 || i >= s.text.length;
    const origOut = j < 0 || j >= orig.text.length;
    // The update's edge stands for the file's only where no marker is (and a marker-less update is the whole file).
    // A model that stops without a marker has not said the file ends there (issue 28's lost tail
    // function): only a marker-less update that reads as the whole file vouches for the file's edges.
    if (segOut) return origOut && !view.hasMarkers && view.wholeFile && (dir < 0 ? isFirst : isLast);
    if (origOut) return false;
    if (key(s.norm[i]!) === key(orig.norm[j]!)) continue;
    // A weak line the update rewrote in place (`return err` → `return fmt.Errorf(…)`: new text for
    // an original line it does not show), when allowed: weak lines say little about position anyway.
    if (substitutions <= 0 || !orig.weak[j] || view.origCount.has(key(s.norm[i]!)) || view.where.has(key(orig.norm[j]!))) return false;
    substitutions--;
    substituted = true;
  }
}

/** Rule (b): one segment shows original lines p and q in order with no marker between them. */
function shownAdjacent(view: UpdateView, orig: Lines, p: number, q: number, missing: number[], keptRow: (row: number) => boolean = () => false): boolean {
  const N = orig.text.length;
  // An Allman `{` opens the block of the head right above it, not of an anchor further up.
  if (q < N && loneOpener(orig.norm[q]!)) {
    let above = q - 1;
    while (above > p && orig.blank[above]) above--;
    if (above !== p) return false;
  }
  // Attributes of the declaration q (`[ApiController]` above a class) belong to it, not to the gap.
  if (q < N && attachedAnnotations(orig, q).some((j) => j > p)) return false;
  const segs = view.segments;
  const gapKeys = new Set(missing.map((j) => key(orig.norm[j]!)));
  const headsSomething = missing.some((j) => headsSection(orig.norm[j]!));
  // Segments that show a line of the gap the original has once (`type Store struct {` in a hunk
  // written out of file order): the gap is that hunk's place, not code two other lines close over.
  const showingGap = new Set<number>();
  for (const j of missing) {
    if (orig.weak[j] || view.origCount.get(key(orig.norm[j]!)) !== 1) continue;
    for (const [s2] of view.where.get(key(orig.norm[j]!)) ?? []) showingGap.add(s2);
  }
  // Same block: missing lines left of both anchors are block boundaries (`}`, `case x:`, a new
  // function's head); the update must show as many boundaries of its own between the anchors.
  const bound = Math.min(p >= 0 ? orig.indent[p]! : 0, q < N ? orig.indent[q]! : 0);
  const shallow = missing.filter((j) => orig.indent[j]! < bound).length;
  // Brackets the gap leaves open or closes (the `}` ending p's blocks, then whole definitions up to q)
  // must be left open or closed by the update's own lines between the anchors as well: a gap that is
  // not balanced the way the new lines are is not a run the update closes over but the rest of p's
  // block, which a snippet that stops without its closers (a fragment) never showed.
  const gapDelta = missing.reduce((d, j) => d + braceDelta(orig.text[j]!), 0);
  const blockOk = (seg: Segment, i1: number, i2: number): boolean => {
    const l = seg.lines;
    let shownDelta = 0;
    for (let x = Math.max(0, i1 + 1); x < i2; x++) if (!l.blank[x]) shownDelta += braceDelta(l.text[x]!);
    if (shownDelta !== gapDelta) return false;
    if (shallow === 0) return true;
    const ub = Math.min(i1 >= 0 ? l.indent[i1]! : 0, i2 < l.text.length ? l.indent[i2]! : 0);
    let shown = 0;
    for (let x = Math.max(0, i1 + 1); x < i2; x++) if (!l.blank[x] && l.indent[x]! < ub) shown++;
    return shown >= shallow;
  };
  const startOk = (s: number): boolean => s === 0 && !segs[0]!.markerBefore && !view.hasMarkers && view.wholeFile;
  const endOk = (s: number): boolean => s === segs.length - 1 && !segs[s]!.markerAfter && !view.hasMarkers && view.wholeFile;
  const ps: Array<[number, number]> = p < 0 ? segs.map((_, s) => [s, -1] as [number, number]).filter(([s]) => startOk(s)) : (view.where.get(key(orig.norm[p]!)) ?? []);
  for (const [s, i1] of ps) {
    const seg = segs[s]!;
    const first = s === 0;
    const last = s === segs.length - 1;
    // A closer opening the segment after a marker closes the block the segment before left open (closer-pins.ts).
    const pHolds = p < 0 || contextHolds(view, seg, first, last, i1, orig, p, -1) || (seg.markerBefore && closesPreviousOpener(segs[s - 1]?.lines, segs[s - 1]?.markerAfterIndent, seg.lines, i1, orig, p, (u) => uniqueOriginalRow(view, orig, segs[s - 1]!.lines.norm[u]!)));
    if (q >= N) {
      if (pHolds && endOk(s) && shallow === 0) return true;
      continue;
    }
    for (const [s2, i2] of view.where.get(key(orig.norm[q]!)) ?? []) {
      if (s2 !== s || i2 <= i1) continue;
      // The update shows them adjacent only if it shows none of the missing lines between them.
      let showsMissing = false;
      for (let x = Math.max(0, i1 + 1); x < i2 && !showsMissing; x++) if (!seg.lines.blank[x] && gapKeys.has(key(seg.lines.norm[x]!))) showsMissing = true;
      if (showsMissing || [...showingGap].some((s2) => s2 !== s)) continue;
      // A marker inside a line between them (`{"get", cmd_get}, /* ... */ {"save", cmd_save},`) that
      // was not expanded stands for code as a whole-line marker does: they are not shown adjacent.
      if (inlineMarkerBetween(view, seg, i1, i2)) continue;
      if (!blockOk(seg, i1, i2)) continue;
      // A new comment where whole definitions stood (`# (constructor and _expected unchanged)`) is a
      // marker in other words: the definitions it stands for, never named by the update, stay.
      if (newCommentBetween(view, seg, i1, i2) && unmentionedDefinitionRows(orig, p + 1, q, view.ids).size > 0) continue;
      // A marker-less update that is not the whole file shows pieces: whole blocks between two were left out (markerless-pieces.ts).
      if (!view.hasMarkers && !view.wholeFile && leftOutBlocks(orig, p, q, view.ids, (n) => view.where.has(key(n))) && !siblingsShownAround(orig, seg.lines, i1, p, q, missing)) continue;
      // Anchors inside blocks of other names (a new resource's `bucket = …`) are not these lines.
      if ((i1 >= 0 && !sameOwner(seg.lines, i1, orig, p)) || !sameOwner(seg.lines, i2, orig, q)) continue;
      // Nor anchors under a new head while the original's head over them stays (copied-anchor.ts).
      const once = (n: string): boolean => view.origCount.get(key(n)) === 1;
      const isOriginal = (n: string): boolean => view.origCount.has(key(n));
      if ((i1 >= 0 && copiedUnderNewHead(seg.lines, i1, orig, p, isOriginal, once, keptRow)) || copiedUnderNewHead(seg.lines, i2, orig, q, isOriginal, once, keptRow)) continue;
      // A closer q of a block opened after p (another message's `}`) is shown only by a closer of a
      // block with the same head: the update's `}` of p's own block is not it.
      if (p >= 0 && i1 >= 0 && !sameCloser(seg.lines.text, i1, i2, orig, p, q)) continue;
      // Nor elsewhere in the segment: a line the original has once between p and q (nearest-pin.ts).
      const onlyRow = (n: string): number | undefined => view.uniqueRow.get(key(n));
      if (!orderAllows(seg.lines, i2, q, 1, onlyRow) || (i1 >= 0 && !orderAllows(seg.lines, i1, p, -1, onlyRow))) continue;
      const qHolds = contextHolds(view, seg, first, last, i2, orig, q, 1);
      if (pHolds && qHolds) return true;
      if (p < 0) continue;
      // One side pinned, the other found by structure (q closes the block p opens, in the update
      // and in the original) or as the nearest occurrence next to the pinned one.
      const structural = i1 >= 0 && closesAt(seg.lines.text, i1) === i2 && closesAt(orig.text, p) === q;
      if ((pHolds || qHolds) && structural) return true;
      // Found as the nearest occurrence only when no missing line heads something (a section, a
      // definition): past one, the nearest opening fence is another section's, not the one the update shows.
      // Unless the gap is whole blocks only (whole-blocks.ts): a definition deleted between its neighbours.
      // Not, under an instruction that removes nothing, when the anchor after them is only the enclosing block's closer (whole-blocks.ts).
      if (headsSomething && (!wholeBlocksBetween(orig, missing, q, blockEnd) || (view.removesNothing && closerOfEnclosing(orig, missing, q)))) continue;
      // New code between them whose repeated line only happens to equal that occurrence pins nothing (coincident-anchors.ts).
      const repeats = (j: number): boolean => (view.origCount.get(key(orig.norm[j]!)) ?? 0) > 1;
      const sameAs = (r: number) => (j: number): boolean => key(orig.norm[j]!) === key(orig.norm[r]!);
      if (pHolds && (nearestAfter(view, orig, p, q) || nearestAtDepth(orig, p, q, q, sameAs(q), seg.lines, i1, p, i2, q)) && sameCloser(seg.lines.text, i1, i2, orig, p, q) && !coincidentAnchor(seg.lines, orig, i1, p, i2, q, 1, repeats(q), true)) return true;
      if (qHolds && (nearestBefore(view, orig, p, q) || nearestAtDepth(orig, p, q, p, sameAs(p), seg.lines, i1, p, i2, q)) && !coincidentAnchor(seg.lines, orig, i2, q, i1, p, -1, repeats(p), true)) return true;
    }
  }
  return false;
}

/** Curly braces opened before each row (the running sum of braceDelta). */
function bracketDepths(text: readonly string[]): number[] {
  const depth = [0];
  for (let r = 0; r < text.length; r++) depth.push(depth[r]! + braceDelta(text[r]!));
  return depth;
}

/** The original row of a line the original has once, or undefined. */
function uniqueOriginalRow(view: UpdateView, orig: Lines, norm: string): number | undefined {
  const k = key(norm);
  if (view.origCount.get(k) !== 1) return undefined;
  for (let j = 0; j < orig.text.length; j++) if (!orig.blank[j] && key(orig.norm[j]!) === k) return j;
  return undefined;
}

/** An update row strictly between rows i1 and i2 of a segment still holds an inline marker of the update's own. */
function inlineMarkerBetween(view: UpdateView, seg: Segment, i1: number, i2: number): boolean {
  for (let x = Math.max(0, i1 + 1); x < i2; x++) if (!seg.lines.blank[x] && unexpandedInline(view, seg.lines.norm[x]!)) return true;
  return false;
}

/** A comment line of the update's own (not an original line) between rows i1 and i2 of a segment. */
function newCommentBetween(view: UpdateView, seg: Segment, i1: number, i2: number): boolean {
  for (let x = Math.max(0, i1 + 1); x < i2; x++) {
    if (seg.lines.blank[x] || view.origCount.has(key(seg.lines.norm[x]!))) continue;
    if (commentLine(seg.lines.norm[x]!)) return true;
  }
  return false;
}

/**
 * The line in (lo, hi) whose block hi closes, or -1: the nearest j above hi with closesAt(j) = hi,
 * found in one backward walk. With r(j) the net brackets of lines j..hi, j qualifies when r(j) ≤ 0
 * and r(j) exceeds every r(t) for t in (j, hi] (its block stays open until hi).
 */
function openerOf(text: readonly string[], lo: number, hi: number): number {
  let r = bracketDelta(text[hi]!);
  let max = r;
  for (let j = hi - 1; j > lo; j--) {
    r += bracketDelta(text[j]!);
    if (r <= 0 && r > max) return j;
    if (r > max) max = r;
  }
  return -1;
}

/**
 * When the original's q closes a block opened after p (another function's `}`), the update's q
 * must close a block with the same head: a closing brace of new code does not stand for the
 * first `}` after the anchor (an anchor, new code, then a marker kept the next function only by
 * luck before: issue 28's external held-out set).
 */
function sameCloser(u: readonly string[], i1: number, i2: number, orig: Lines, p: number, q: number): boolean {
  const o = openerOf(orig.text, p, q);
  // A closer without brackets (`</td>`) that closes a block the update opens between the anchors
  // closes, in the original too, a block with that head (nearest-pin.ts).
  if (o < 0) {
    const uo = orig.weak[q] ? indentOpener(u, i1, i2) : -1;
    return uo < 0 || sameHead(u, uo, orig, indentOpener(orig.text, p, q));
  }
  return sameHead(u, openerOf(u, i1, i2), orig, o);
}

/** Update row uo and original row o (o < 0: none to match) are the same head. */
function sameHead(u: readonly string[], uo: number, orig: Lines, o: number): boolean {
  if (o < 0) return true;
  return uo >= 0 && u[uo]!.trim() === orig.text[o]!.trim();
}

/** q is the first line after p with its text. */
function nearestAfter(view: UpdateView, orig: Lines, p: number, q: number): boolean {
  const k = key(orig.norm[q]!);
  for (let j = p + 1; j < q; j++) if (key(orig.norm[j]!) === k) return false;
  return true;
}

/** p is the last line before q with its text. */
function nearestBefore(view: UpdateView, orig: Lines, p: number, q: number): boolean {
  const k = key(orig.norm[p]!);
  for (let j = p + 1; j < q; j++) if (key(orig.norm[j]!) === k) return false;
  return true;
}

/** Weak lines rewritten in place that the context pinning a replaced block's header may step over. */
const CONTEXT_SUBSTITUTIONS = 2;

/**
 * When some segment shows original line p (a block header, position confirmed) and the block's
 * body after it, through its end (the closing line, or the dedent), what the segment shows is the
 * new block: returns the end (exclusive) of p's original block, whose lines it replaces; p + 1 otherwise.
 */
function blockRestReplaced(view: UpdateView, orig: Lines, p: number): { end: number; shown: Set<string> } {
  const own = headerRestReplaced(view, orig, p, p);
  if (own.end > p + 1) return own;
  // A body line kept before the gap: the `end` block around it (`function centroid(p::Polygon)` …
  // `end`), when the update shows that block whole from its head to its own `end`.
  for (let h = p - 1, level = orig.indent[p]!, up = 0; h >= 0 && level > 0 && up < MAX_ENCLOSING_HEADS; h--) {
    if (orig.blank[h] || orig.indent[h]! >= level) continue;
    level = orig.indent[h]!;
    up++;
    if (!keywordBlock(orig, h) || removalBlockEnd(orig, h) <= p + 1) continue;
    const rest = headerRestReplaced(view, orig, h, p);
    if (rest.end > p + 1) return rest;
  }
  return { end: p + 1, shown: new Set<string>() };
}

/** Enclosing heads read above a gap's kept body line for an `end` block the update shows whole. */
const MAX_ENCLOSING_HEADS = 3;

/** blockRestReplaced for header h (h = p, or an `end` block's head above p): the end of h's block when the update shows it whole. */
function headerRestReplaced(view: UpdateView, orig: Lines, h: number, p: number): { end: number; shown: Set<string> } {
  const none = { end: p + 1, shown: new Set<string>() };
  const segs = view.segments;
  const close = closesAt(orig.text, h);
  const indented = close < 0 && /:\s*$/.test(orig.norm[h]!);
  // `def … end`, `function … end`: to the `end` at the head's level, in the original and the update alike.
  const keyword = close < 0 && !indented && keywordBlock(orig, h);
  if (close < 0 && !indented && !keyword) return none;
  for (const [s, i] of view.where.get(key(orig.norm[h]!)) ?? []) {
    const seg = segs[s]!;
    // Weak lines the update rewrote above the header (`return err` → `return fmt.Errorf(…)` of the
    // block before) do not unpin it: the unique line above them does (held-out set g go03).
    if (!contextHolds(view, seg, s === 0, s === segs.length - 1, i, orig, h, -1, CONTEXT_SUBSTITUTIONS)) continue;
    // A call block named on its next line (`router.post(` / `"/x",`) is another block when the names differ.
    if (rowNamesDiffer(orig, h, seg.lines, i)) continue;
    if (keyword && !keywordBlock(seg.lines, i)) continue;
    const blockEnd = keyword ? removalBlockEnd(seg.lines, i) : indented ? indentBlockEnd(seg.lines, i) : closesAt(seg.lines.text, i) + 1;
    if (blockEnd <= i + 1) continue;
    // A marker left inside a line of the new block stands for some of the old one: not a whole new block.
    if (inlineMarkerBetween(view, seg, i, blockEnd)) continue;
    const shown = new Set<string>();
    for (let x = i + 1; x < blockEnd; x++) if (!seg.lines.blank[x]) shown.add(key(seg.lines.norm[x]!));
    return { end: keyword ? removalBlockEnd(orig, h) : indented ? indentBlockEnd(orig, h) : close + 1, shown };
  }
  return none;
}


/**
 * Original header h, replaced by the update line `shown` (its edit, shown once in the update), when
 * the update shows that line's block complete (to its closing line, or dedented before the segment
 * ends or before a marker at the header's level): the end (exclusive) of h's original block, whose
 * lines the new block replaces; h + 1 otherwise.
 */
function editedBlockRest(view: UpdateView, orig: Lines, h: number, shown: string): { end: number; shown: Set<string> } {
  const none = { end: h + 1, shown: new Set<string>() };
  const close = closesAt(orig.text, braceRow(orig, h));
  const indented = close < 0 && /:\s*$/.test(orig.norm[h]!);
  // `def list do` … `end` (Elixir, Ruby blocks): the block to its `end` at the header's level.
  const keyword = close < 0 && !indented && keywordBlock(orig, h);
  // A statement continued over deeper lines (`let releases = self` / `.client` / `.json()?;`) whose
  // edit opens a brace block (`let releases = loop {` … `};`, a retry loop around it): the new block
  // stands for the whole statement, its continuation lines included.
  const continued = close < 0 && !indented && !keyword && continuedBelow(orig, h);
  if (close < 0 && !indented && !keyword && !continued) return none;
  const at = view.where.get(shown);
  if (!at || at.length !== 1) return none;
  const [s, i] = at[0]!;
  const seg = view.segments[s]!;
  const l = seg.lines;
  let blockEnd: number;
  if (keyword) {
    if (!keywordBlock(l, i)) return none;
    blockEnd = removalBlockEnd(l, i);
  } else if (indented) {
    blockEnd = indentBlockEnd(l, i);
    let last = l.text.length - 1;
    while (last > i && l.blank[last]) last--;
    const complete = blockEnd <= last || !seg.markerAfter || (seg.markerAfterIndent !== null && seg.markerAfterIndent <= l.indent[i]!);
    if (!complete) return none;
  } else blockEnd = closesAt(l.text, braceRow(l, i)) + 1;
  if (blockEnd <= i + 1 || inlineMarkerBetween(view, seg, i, blockEnd)) return none;
  const rest = new Set<string>();
  for (let x = i + 1; x < blockEnd; x++) if (!l.blank[x]) rest.add(key(l.norm[x]!));
  return { end: keyword ? removalBlockEnd(orig, h) : indented || continued ? indentBlockEnd(orig, h) : close + 1, shown: rest };
}

/** The row whose bracket opens header h's block: h, or the lone `{` below an Allman head. */
function braceRow(l: Lines, h: number): number {
  if (bracketDelta(l.text[h]!) > 0) return h;
  const y = solidRow(l, h, 1);
  return y >= 0 && l.norm[y] === '{' ? y : h;
}

/** Line h opens a block closed by an `end` at its own indentation (`def x(a) do`, `items.each do |i|`, `def x(a)`). */
function keywordBlock(l: Lines, h: number): boolean {
  // Or any head of deeper lines closed that way (`def notify(event)` / `local function log(msg)` … `end`).
  const next = solidRow(l, h, 1);
  if (!/\bdo(?:\s*\|[^|]*\|)?$/.test(l.norm[h]!) && !(next > h && l.indent[next]! > l.indent[h]!)) return false;
  const end = removalBlockEnd(l, h) - 1;
  return end > h + 1 && l.indent[end] === l.indent[h] && /^end\b/.test(l.norm[end]!);
}

/**
 * Output line `norm` is new code beside original line j, not j's edit: it names something else
 * (line-identity.ts) and no update line of that text shows it as j renamed in place, or the update
 * shows it only inside blocks of other names than j's (`- run: npm run lint` in a new job is not
 * the `- run: npm run build` of the job after it).
 */
function otherNamed(view: UpdateView, orig: Lines, j: number, norm: string, moved = false): boolean {
  // Another list item or element (sibling-items.ts) is never j's edit.
  if (anotherSibling(orig.norm[j]!, norm) || anotherElement(orig.norm[j]!, norm)) return true;
  // A line no more like j than j's siblings are is a new sibling (a mapping line beside the old
  // ones), unless it is j with one token renamed, shown in j's place (licence-rules.ts).
  // j grown or shrunk at one place (a name lengthened, a literal extended) is j's edit, not a sibling (extended-line.ts).
  // So is j wrapped whole in a new expression (wrapped-line.ts).
  const distinct = orig.weak[j] || distinctEdit(orig, j, norm) || extendedInPlace(orig.norm[j]!, norm) || wrapsLine(orig.norm[j]!, norm);
  const oneToken = !distinct && renamedInPlace(orig.norm[j]!, norm);
  const at = view.where.get(key(norm));
  // A line that came from an inline marker's expansion is judged by its text alone.
  if (!at) return !distinct || namesDiffer(orig.norm[j]!, norm) || keysDiffer(orig.norm[j]!, norm);
  for (const [s, i] of at) {
    const l = view.segments[s]!.lines;
    // A setting of a new item beside j's (sibling-items.ts) is no edit of j wherever it is shown.
    if (anotherItem(orig, j, l, i)) continue;
    // The heads the update shows the line under leave only j's own siblings to compete (shown-parent-edit.ts).
    const distinctHere = distinct || distinctUnderShownHeads(view.segments, s, i, orig, j, norm);
    // A rename the update carries through other original lines in their places is evidence of its
    // own: the renamed head's block may be rewritten (a helper renamed with its callers, its body new).
    if (!distinctHere && !(oneToken && ((renameShownInPlace(l, i, orig, j) && (headsBlock(orig, j) || shownBetweenNeighbours(l, i, orig, j) || renameRepeated(view, orig.norm[j]!, norm))) || (headsBlock(orig, j) && renamedWithUses(view.segments, orig, j, norm))))) continue;
    // A name on the line below a call head (`router.post(` / `"/projects",`) names that call's block.
    // A line grown at one place keeps all it had: a key its new run creates (`RUN --mount=…`) is no rename.
    const keyRenamed = keysDiffer(orig.norm[j]!, norm) && !extendedInPlace(orig.norm[j]!, norm);
    const differ = rowNamesDiffer(orig, j, l, i) || keyRenamed;
    // Another key at a marker edge (`insights_enabled = true` for `deletion_protection = true`) is a
    // new key: renamed only between both old neighbours, as a longer form of it, throughout the update,
    // or with a value of substance kept (rename-evidence.ts).
    if (keyRenamed && !headsBlock(orig, j) && !keysRelated(orig.norm[j]!, norm) && !shownBetweenNeighbours(l, i, orig, j) && !renameRepeated(view, orig.norm[j]!, norm) && !renamedThroughout(view.segments, orig, orig.norm[j]!, norm) && !keyRenamedKeepingValue(orig, j, norm)) continue;
    // A closer edited in place closes the same block.
    if (orig.weak[j] && !closerOwnersMatch(l, i, orig, j)) continue;
    // An edit inside a new header stands for j only when that header is the edit of j's.
    // So is an edit moved into a new block with its own neighbours (`moved`, wrapped-run.ts): they place it.
    if (orig.norm[j] !== norm && !moved && !ownerEditMatches(l, i, orig, j, (n) => view.origCount.has(key(n)))) continue;
    // The same text re-indented (wrapped in a new block) is that line; an edit stays at its depth
    // unless its neighbours moved with it.
    // A rename the update carries through other original lines in their places (rename-evidence.ts)
    // is a rename in place, and so is the block it heads.
    if ((!differ || renameShownInPlace(l, namedHeadRow(l, i), orig, namedHeadRow(orig, j)) || renamedThroughout(view.segments, orig, orig.norm[j]!, norm)) && (moved || sameOwner(l, i, orig, j) || ownerRenamedThroughout(view.segments, l, i, orig, j)) && (moved || orig.norm[j] === norm || sameDepth(l, i, orig, j))) return false;
  }
  return true;
}

/** Original line j opens a block (brackets or deeper lines after it). */
function headsBlock(orig: Lines, j: number): boolean {
  if (closesAt(orig.text, j) > j) return true;
  let y = j + 1;
  while (y < orig.text.length && orig.blank[y]) y++;
  return y < orig.text.length && orig.indent[y]! > orig.indent[j]!;
}

/** Update row i stands between the lines that stood around original line j, both shown. */
function shownBetweenNeighbours(l: Lines, i: number, orig: Lines, j: number): boolean {
  const near = (t: Lines, x: number, dir: 1 | -1): string | undefined => {
    for (let y = x + dir; y >= 0 && y < t.text.length; y += dir) if (!t.blank[y]) return t.norm[y];
    return undefined;
  };
  const a = near(l, i, -1);
  const b = near(l, i, 1);
  return a !== undefined && b !== undefined && a === near(orig, j, -1) && b === near(orig, j, 1);
}

/**
 * The one token renamed from `old` to `norm` is renamed throughout the update: the new name on at
 * least two of its lines, the old one on none (a field renamed with its uses, not a new sibling).
 */
function renameRepeated(view: UpdateView, old: string, norm: string): boolean {
  const a = tokens(old);
  const b = tokens(norm);
  let k = 0;
  while (k < a.length && a[k] === b[k]) k++;
  const from = a[k];
  const to = b[k];
  if (!from || !to || !/^[A-Za-z_$]/.test(to)) return false;
  let withNew = 0;
  for (const seg of view.segments) {
    for (const n of seg.lines.norm) {
      if (!n.includes(to) && !n.includes(from)) continue;
      const t = tokens(n);
      if (t.includes(from)) return false;
      if (t.includes(to)) withNew++;
    }
  }
  return withNew >= 2;
}

/** The keys of two `key = value` lines, one inside the other (`Addr` → `ListenAddr`, `timeout` → `timeoutMs`). */
function keysRelated(a: string, b: string): boolean {
  const ka = assignmentKey(a)?.toLowerCase();
  const kb = assignmentKey(b)?.toLowerCase();
  return !!ka && !!kb && (ka.includes(kb) || kb.includes(ka));
}

function namesDiffer(a: string, b: string): boolean {
  const ia = lineIdentity(a);
  const ib = ia === null ? null : lineIdentity(b);
  return ia !== null && ib !== null && ia !== ib;
}

/** `key = value` lines of different keys (`deletion_protection = true`, `performance_insights_enabled = true`). */
function keysDiffer(a: string, b: string): boolean {
  const ka = assignmentKey(a);
  const kb = ka === null ? null : assignmentKey(b);
  return ka !== null && kb !== null && ka !== kb;
}

/** True when every non-blank original line is in the output, in order: nothing can be missing. */
function nothingMissing(orig: Lines, out: Lines): boolean {
  let k = 0;
  for (let j = 0; j < orig.text.length; j++) {
    if (orig.blank[j]) continue;
    const t = exactText(orig.text[j]!);
    while (k < out.text.length && exactText(out.text[k]!) !== t) k++;
    if (k >= out.text.length) return false;
    k++;
  }
  return true;
}

export function analyseLoss(orig: Lines, out: Lines, original: string, update: string, instruction: string | null, prepared?: UpdateView): LossCheck {
  if (!prepared && nothingMissing(orig, out)) {
    return { lost: [], licensed: { replaced: 0, 'between-anchors': 0, instructed: 0 }, markersKept: countMarkersKept(orig, out, updateView(orig, original, update, instruction)), gaps: [] };
  }
  const view = prepared ?? updateView(orig, original, update, instruction);
  const instructed = instructedLines(orig, instruction, view);
  // An import the removal or replacement left without a use (dead-imports.ts) goes under the same licence.
  for (const j of deadImportRows(orig, out, update, instruction)) instructed.add(j);
  // Equal lines (`}`) make several alignments equally long; the one that licenses the most is the
  // reading of the output to judge (an edit that drops a method's last `}` also drops a `}`).
  let best = analyseWith(orig, out, view, instructed, true, false);
  for (const [late, skip] of [[false, false], [true, true], [false, true]] as const) {
    if (best.lost.length === 0) break;
    if (skip && instructed.size === 0) break;
    const other = analyseWith(orig, out, view, instructed, late, skip);
    if (other.lost.length < best.lost.length) best = other;
  }
  return best;
}

function countMarkersKept(orig: Lines, out: Lines, view: UpdateView): number {
  let markersKept = 0;
  const origSet = new Set(orig.norm);
  for (let k = 0; k < out.text.length; k++) {
    if (origSet.has(out.norm[k]!)) continue;
    if (view.markers.has(out.norm[k]!) || (INLINE_MARKER.test(out.norm[k]!) && !view.originalText.includes(INLINE_MARKER.exec(out.norm[k]!)![0]))) markersKept++;
  }
  return markersKept;
}

/**
 * One reading of the output: `lateDeletions` picks among equally long alignments; `skipInstructed`
 * leaves the lines the instruction removes out of the alignment (so a removed method's `}` is not
 * matched in place of the class's).
 */
function analyseWith(orig: Lines, out: Lines, view: UpdateView, instructed: Set<number>, lateDeletions: boolean, skipInstructed: boolean): LossCheck {
  const oIdx: number[] = [];
  for (let j = 0; j < orig.text.length; j++) if (!orig.blank[j] && !(skipInstructed && instructed.has(j))) oIdx.push(j);
  const kIdx: number[] = [];
  for (let k = 0; k < out.text.length; k++) if (!out.blank[k]) kIdx.push(k);
  // Kept original lines keep their indentation: `  }` closing a method is not the class's `}`.
  const pairs = alignLines(oIdx.map((j) => exactText(orig.text[j]!)), kIdx.map((k) => exactText(out.text[k]!)), lateDeletions);
  const N = orig.text.length;
  const K = out.text.length;
  const anchors: Array<[number, number]> = [[-1, -1], ...pairs.map(([a, b]) => [oIdx[a]!, kIdx[b]!] as [number, number]), [N, K]];
  const licensed: Record<LossRule, number> = { replaced: 0, 'between-anchors': 0, instructed: 0 };
  const origDepth = bracketDepths(orig.text);
  const outDepth = bracketDepths(out.text);
  const gaps: Gap[] = [];
  const kept = new Uint8Array(N);
  for (const [a] of pairs) kept[oIdx[a]!] = 1;
  // Positive evidence that an update line is j's edit, not another kept line's or a new sibling's (edit-evidence.ts).
  const outNorms = new Set(out.norm);
  const origExact = new Set(orig.text.map(exactText));
  const originalTexts = { has: (n: string) => view.origCount.has(key(n)), hasExact: (t: string) => origExact.has(exactText(t)) };
  const editOfOther = (j: number, r: string): boolean => !orig.weak[j] && (newSiblingLine(orig, j, r) || closerToKeptLine(orig, j, r, (y) => kept[y] === 1, (n) => view.where.has(key(n))));
  // Edited headers whose new block (shown complete) reaches past their gap (see editedBlockRest).
  const blockRests: Array<{ head: number; end: number; shown: Set<string>; unnamed: Set<number> | null }> = [];
  // Original lines read as replaced in earlier gaps, by the output line that replaces each.
  const editedHeads = new Map<number, number>();
  for (let g = 1; g < anchors.length; g++) {
    const [p, kp] = anchors[g - 1]!;
    const [q, kq] = anchors[g]!;
    const missing: number[] = [];
    for (let j = p + 1; j < q; j++) if (!orig.blank[j]) missing.push(j);
    if (missing.length === 0) continue;
    const inserted: number[] = [];
    // A missing line's text with a comma added is that line kept, its comma carried for a member appended after it (member-separators.ts).
    const carried = new Set(missing.map((j) => `${orig.norm[j]!},`));
    for (let k = kp + 1; k < kq; k++) if (!out.blank[k] && (view.where.has(key(out.norm[k]!)) || fromInline(view, key(out.norm[k]!)) || view.renamedKeys.has(key(out.norm[k]!)) || carried.has(out.norm[k]!))) inserted.push(k);
    // Or the same deletion read one repeated run further up or down (rotated-gap.ts).
    // Not a definition whose name the merged file still uses (dangling-name.ts): left out between two shown ones, not deleted.
    const keptRow = (j: number): boolean => kept[j] === 1;
    const adjacent = (shownAdjacent(view, orig, p, q, missing, keptRow) || rotatedReadings(orig, p, q, missing, keptRow).some((r) => shownAdjacent(view, orig, r.p, r.q, r.missing, keptRow))) && usedDefinitionRows(orig, missing, out, view.segments.map((sg) => sg.lines)).length === 0;
    const gap: Gap = { p, q, kp, kq, vanished: [] };
    let from = 0;
    // The body of a head that a new sibling's head stood against (rewritten-head.ts): none of it is replaced.
    let foreignBodyEnd = -1;
    const foreignHead = (j: number, k: number): boolean => {
      // A rename the update carries through other original lines (rename-evidence.ts) rewrites the body by itself.
      if (renamedThroughout(view.segments, orig, orig.norm[j]!, out.norm[k]!)) return false;
      // A body line the output still holds at any depth stayed (wrapped in a new block, re-indented).
      const end = otherHeadOverRewrittenBody(orig, j, out.norm[k]!, (y) => kept[y] === 1 || outNorms.has(orig.norm[y]!));
      if (end > j) foreignBodyEnd = Math.max(foreignBodyEnd, end);
      return end > j;
    };
    for (const j of missing) {
      let rule: LossRule | null = null;
      let pairedWith = -1;
      if (j < foreignBodyEnd) {
        gap.vanished.push({ j, rule, pairedWith });
        continue;
      }
      // (a) first: it also tells the restorer where the line stood.
      for (let x = from; x < inserted.length; x++) {
        const k = inserted[x]!;
        // The instruction's rename of j (`writeJSON(w, …)` → `respondJSON(w, …)`) is j's edit.
        // So is the one member of a block the update shows whole, under a new name (sole-member.ts).
        // A block's last `return` rewritten, the new one alone in its place right before the block's end (terminal-edit.ts).
        if (view.renamed.get(j) === out.norm[k] || soleMemberShown(view, orig, j, out.norm[k]!) || (missing.length === 1 && inserted.length === 1 && terminalReplaced(orig, j, out, k) && shownUnder(view, out.norm[k]!, out.norm[solidRow(out, k, -1)] ?? null))) {
          rule = 'replaced';
          pairedWith = k;
          from = x + 1;
          break;
        }
        // The instruction's rename of another original line (`ScheduleHandler::handle` →
        // `ScheduleController::handle`) is that line's edit, never j's (`UserHandler::handle`).
        if (view.renamedKeys.has(key(out.norm[k]!))) continue;
        // A declaration split from its value by a new block: the assignment left in it, the name declared
        // before it (hoisted-declaration.ts). A closer or short statement of a run wrapped in a new block,
        // pinned by its moved neighbours (wrapped-run.ts).
        const hoisted = orig.weak[j] ? null : hoistedAssignment(orig.norm[j]!, out.norm[k]!);
        // The gap's first line wrapped whole as the first line of a new block opened right after the kept line before it (edge-edits.ts).
        const wrapped = j === missing[0] && p >= 0 && wrappedInNewBlock(out, orig, kp + 1, j) === k;
        if ((hoisted !== null && declaresBare(out, kp + 1, k, hoisted)) || (orig.weak[j] && wrappedCopy(orig, j, out, k)) || wrapped) {
          rule = 'replaced';
          pairedWith = k;
          from = x + 1;
          break;
        }
        // A replacement is new text (or j's own, re-indented): a copy of another original line is
        // not j's edit (an inline marker expanded to the wrong twin of j).
        // Closers are alike everywhere: `)` → `),` stays its edit though `),` occurs elsewhere.
        // A line still holding an inline marker of the update's own is no edit of j (it was not expanded).
        if (unexpandedInline(view, out.norm[k]!)) continue;
        // j's key set again (or its return rewritten) at j's depth, in text another original line has at
        // another depth: the copy the guard below would refuse (same-target-edit.ts).
        const sameTarget = sameTargetRewrite(orig, j, out, k, missing.length === 1 && inserted.length === 1, originalTexts);
        // Nor is a line the output still holds inside a block the gap closes before j (a new match arm
        // after p, then `}` `}` `}` and a whole impl down to j): j lies outside it. (A line the output
        // holds deeper than j stood, with j a sibling of p, is a run wrapped in a new block: not this.)
        if (p >= 0 && origDepth[j]! - origDepth[p + 1]! < Math.min(0, outDepth[k]! - outDepth[kp + 1]!)) continue;
        // So is any member's: `"401": {…}` → `"401": {…},` (a member appended after it) though another member reads so.
        if (!out.weak[k] && out.norm[k] !== orig.norm[j] && view.origCount.has(key(out.norm[k]!)) && !closerRepunctuated(orig.norm[j]!, out.norm[k]!) && !separatorChanged(orig.norm[j]!, out.norm[k]!) &&
          !newAtKeyPath(orig, key(out.norm[k]!), shownAt(view, key(out.norm[k]!))) && !keyEditedAtPath(orig, j, out, k) && !sameTarget) continue;
        if (((!orig.weak[j] && (editedVersion(orig.norm[j]!, out.norm[k]!) || sameStatementEdited(orig.norm[j]!, out.norm[k]!) || renamedInPlace(orig.norm[j]!, out.norm[k]!) || extendedInPlace(orig.norm[j]!, out.norm[k]!) || wrapsLine(orig.norm[j]!, out.norm[k]!) || sameSectionKey(orig, j, out.norm[k]!))) || sameTarget ||
          closerRepunctuated(orig.norm[j]!, out.norm[k]!) || out.norm[k] === `${orig.norm[j]!},`) && !otherNamed(view, orig, j, out.norm[k]!, movedEdit(orig, j, out, k) && !asCloseToKeptLine(orig, j, out.norm[k]!, (y) => kept[y] === 1)) && !editOfOther(j, out.norm[k]!) &&
          !foreignHead(j, k) && !(leavesNameDangling(orig, j, out, k) && !headsBlock(orig, j))) {
          rule = 'replaced';
          pairedWith = k;
          from = x + 1;
          break;
        }
      }
      gap.vanished.push({ j, rule, pairedWith });
    }
    // (a) by structure: the update shows the kept line before the gap, a block header, followed by
    // new lines that finish its block; the original lines that finished it are what they replace.
    if (p >= 0 && gap.vanished.some((v) => !v.rule)) {
      const rest = blockRestReplaced(view, orig, p);
      // Lines the new block shows as they were are kept, not replaced; so are whole definitions it never names.
      const unnamed = rest.end > p + 1 ? unmentionedDefinitionRows(orig, p + 1, rest.end, view.ids) : null;
      // Nor is the header's docstring when the new block has none (licence-rules.ts leftOutDocRows).
      const doc = leftOutDocRows(orig, p, rest.end, rest.shown);
      for (const v of gap.vanished) if (!v.rule && v.j > p && v.j < rest.end && !rest.shown.has(key(orig.norm[v.j]!)) && !unnamed?.has(v.j) && !doc.has(v.j)) v.rule = 'replaced';
    }
    // The same for a header the update shows edited in its place (`Submit(j Job) {` → `Submit(ctx, j) error {`).
    // An Allman head edited in the gap before, its lone `{` kept in place: its block's rest is in this gap.
    const prev = gaps[gaps.length - 1];
    const allmanHead = p >= 0 && orig.norm[p] === '{' && prev?.q === p ? prev.vanished.find((v) => v.j === solidRow(orig, p, -1)) : undefined;
    // The new block's rest may pass lines the update shows unchanged (`subject = …` kept in the
    // rewritten body): the old lines after them, up to the block's end, are in later gaps.
    for (const r of blockRests) for (const v of gap.vanished) if (!v.rule && v.j > r.head && v.j < r.end && !r.shown.has(key(orig.norm[v.j]!)) && !r.unnamed?.has(v.j)) v.rule = 'replaced';
    for (const h of allmanHead ? [allmanHead, ...gap.vanished] : gap.vanished) {
      if (h.rule !== 'replaced' || h.pairedWith < 0) continue;
      const rest = editedBlockRest(view, orig, h.j, key(out.norm[h.pairedWith]!));
      const unnamed = rest.end > h.j + 1 ? unmentionedDefinitionRows(orig, h.j + 1, rest.end, view.ids) : null;
      // Only blocks closed by indentation or `end`: a brace block cut short in the update reads as closed there.
      if (rest.end > q && closesAt(orig.text, braceRow(orig, h.j)) < 0) blockRests.push({ head: h.j, end: rest.end, shown: rest.shown, unnamed });
      for (const v of gap.vanished) if (!v.rule && v.j > h.j && v.j < rest.end && !rest.shown.has(key(orig.norm[v.j]!)) && !unnamed?.has(v.j)) v.rule = 'replaced';
    }
    // The closer of a head replaced by its edit is replaced by the edit's closer (a call re-indented
    // into a new `try {`: its `});` is no longer licensed by a `}` of new code shown before the next anchor).
    // The head may stand in an earlier gap (a block re-indented whole, its closers aligned with other
    // closers of the original's text at the new depth): the edit's closer then lies in this gap or is
    // the kept line before it.
    for (const v of gap.vanished) {
      if (v.rule || !orig.weak[v.j]) continue;
      const head = gap.vanished.find((h) => h.rule === 'replaced' && h.pairedWith >= 0 && h.j === openedAt(orig.text, v.j, p + 1));
      if (head && out.norm[closesAt(out.text, head.pairedWith)] === orig.norm[v.j]) {
        v.rule = 'replaced';
        v.pairedWith = closesAt(out.text, head.pairedWith);
        continue;
      }
      const opener = head ? -1 : openedAt(orig.text, v.j, Math.max(0, v.j - MAX_CLOSER_REACH));
      const edit = opener >= 0 && opener <= p ? editedHeads.get(opener) : undefined;
      const closer = edit === undefined ? -1 : closesAt(out.text, edit);
      // At kp too: the exact-text alignment may have given the shifted closer to the kept line before the gap.
      if (closer >= kp && closer >= 0 && closer < kq && out.norm[closer] === orig.norm[v.j]) {
        v.rule = 'replaced';
        v.pairedWith = closer;
      }
    }
    // Lines between two edits that one stretch of the update shows with new text between them (between-edits.ts).
    const open = gap.vanished.filter((v) => !v.rule).map((v) => v.j);
    if (open.length > 0) {
      const edits: PairedEdit[] = gap.vanished.filter((v) => v.rule === 'replaced' && v.pairedWith >= 0).map((v) => ({ j: v.j, k: v.pairedWith }));
      // An edit right before the kept edge (a head edited above its Allman `{`) bounds the stretch too.
      const before = gaps[gaps.length - 1];
      if (before?.q === p) for (const v of before.vanished) if (v.rule === 'replaced' && v.pairedWith >= 0) edits.push({ j: v.j, k: v.pairedWith });
      if (p >= 0) edits.push({ j: p, k: kp, kept: true });
      if (q < orig.text.length) edits.push({ j: q, k: kq, kept: true });
      const between = rowsBetweenEdits(orig, out, view.segments, edits, open, (n) => view.origCount.has(key(n)));
      for (const v of gap.vanished) if (!v.rule && between.has(v.j)) v.rule = 'replaced';
    }
    // A replacement that is a new sibling used beside the old line (parallel-names.ts): the gap's
    // lines were left out, not rewritten, so neither rule (a) nor adjacency lets them go.
    // A line replaced by structure (no row of its own) is measured against each new row of the gap.
    const gapRows = (v: Gap['vanished'][number]): number[] => v.pairedWith >= 0 ? [v.pairedWith] : Array.from({ length: Math.max(0, kq - kp - 1) }, (_, x) => kp + 1 + x).filter((k) => !out.blank[k]);
    // Not a replacement the update shows right beside j's once-line neighbour: that is j's place.
    const once = (row: number): boolean => !orig.weak[row] && view.origCount.get(key(orig.norm[row]!)) === 1;
    const inPlace = (v: Gap['vanished'][number]): boolean => v.pairedWith >= 0 && shownInPlace(orig, v.j, out.norm[v.pairedWith]!, once, (n) => shownAt(view, key(n)));
    const besideOld = gap.vanished.some((v) => v.rule === 'replaced' && !inPlace(v) && gapRows(v).some((k) => siblingBesideOld(orig, v.j, out, k)));
    if (besideOld) for (const v of gap.vanished) if (v.rule === 'replaced') {
      v.rule = null;
      v.pairedWith = -1;
    }
    for (const v of gap.vanished) {
      // What a marker between two pinned lines stands for stays (only the instruction removes it).
      if (view.covered[v.j]) v.rule = instructed.has(v.j) ? 'instructed' : null;
      // So is what a new comment alone in the code's place stands for (not a line edited in place).
      else if (view.commentCovered.has(v.j) && v.pairedWith < 0) {
        v.rule = instructed.has(v.j) ? 'instructed' : null;
        v.commented = v.rule === null;
      }
      else if (!v.rule && adjacent && !besideOld) v.rule = 'between-anchors';
      if (!v.rule && instructed.has(v.j)) v.rule = 'instructed';
      if (v.rule) licensed[v.rule]++;
    }
    for (const v of gap.vanished) if (v.rule === 'replaced' && v.pairedWith >= 0) editedHeads.set(v.j, v.pairedWith);
    gaps.push(gap);
  }
  const lost = countedLoss(orig, out, gaps);
  const markersKept = countMarkersKept(orig, out, view);
  return { lost, licensed, markersKept, gaps };
}

/** An output line with an inline marker the original does not hold (left unexpanded by the merge). */
function unexpandedInline(view: UpdateView, norm: string): boolean {
  const m = INLINE_MARKER.exec(norm);
  if (m !== null && !view.originalText.includes(m[0])) return true;
  // A marker comment after an opening bracket (`{ -- ...`) that could not be placed.
  const t = trailingMarker(norm);
  if (t !== null && !view.originalText.includes(norm)) return true;
  // Bare dots as an element of a list (`{:port 3000 ...}`, `:db { ... }`) that no original list writes.
  return !view.originalHoldsDots && !view.origCount.has(key(norm)) && holdsMarkerElement(norm);
}

function noBlankBetween(l: Lines, a: number, b: number): boolean {
  for (let j = a + 1; j < b; j++) if (l.blank[j]) return false;
  return true;
}

/**
 * The lost lines, counted the way the benchmark counts them: per trimmed text, the output must
 * hold as many occurrences as the original, less those rules (a)-(c) license. An unlicensed line
 * whose text the output still holds that often was moved, not lost (the update shows it elsewhere);
 * that reading is taken only for a whole run of them (lines not parted by a blank line), and not for
 * one of closing lines alone, so a block is never put back without lines that moved with it.
 */
function countedLoss(orig: Lines, out: Lines, gaps: Gap[]): number[] {
  const missing = new Map<string, number>();
  for (let j = 0; j < orig.text.length; j++) if (!orig.blank[j]) missing.set(orig.text[j]!.trim(), (missing.get(orig.text[j]!.trim()) ?? 0) + 1);
  for (let k = 0; k < out.text.length; k++) {
    const t = out.text[k]!.trim();
    const n = missing.get(t);
    if (n !== undefined) missing.set(t, n - 1);
  }
  for (const g of gaps) for (const v of g.vanished) if (v.rule) missing.set(orig.text[v.j]!.trim(), missing.get(orig.text[v.j]!.trim())! - 1);
  const lost: number[] = [];
  for (const g of gaps) {
    const open = g.vanished.filter((v) => !v.rule);
    // Runs of unlicensed lines not parted by a blank line (a function, a paragraph): each moved or lost as one.
    for (let a = 0; a < open.length; ) {
      let b = a;
      while (b + 1 < open.length && noBlankBetween(orig, open[b]!.j, open[b + 1]!.j)) b++;
      const run = open.slice(a, b + 1);
      const moved = run.every((v) => missing.get(orig.text[v.j]!.trim())! <= 0) && run.some((v) => !orig.weak[v.j]);
      for (const v of run) {
        if (moved) v.present = true;
        else lost.push(v.j);
      }
      a = b + 1;
    }
  }
  return lost;
}

/** The oracle: original, update, instruction and merged output as the client sees them. */
export function checkLoss(original: string, update: string, instruction: string | null, output: string): LossCheck {
  const last = lastCheck;
  if (last && last.output === output && last.original === original && last.update === update && last.instruction === instruction) return last.check;
  const check = withSwappedDefinitions(analyseLoss(splitLines(original), splitLines(output), original, update, instruction), original, update, instruction, output, analyseLoss);
  lastCheck = { original, update, instruction, output, check };
  return check;
}

/** The last check: a merge asks about one output up to three times (comments beside edits, left-out
 *  comments, removals by adjacency), each a full pass over a file that may be 30,000 lines. Callers
 *  only read it. */
let lastCheck: { original: string; update: string; instruction: string | null; output: string; check: LossCheck } | null = null;

/**
 * Puts every unlicensed missing line back where the original had it, relative to the kept lines and
 * to the update lines around it. Returns the new output and how many lines were restored.
 */
export function restoreLost(original: string, update: string, instruction: string | null, output: string, origLines?: Lines): { content: string; restored: number[] } {
  const orig = origLines ?? splitLines(original);
  let content = output;
  let out = splitLines(content);
  if (nothingMissing(orig, out)) return { content, restored: [] };
  const view = updateView(orig, original, update, instruction);
  const restored: number[] = [];
  for (let round = 0; round < 3; round++) {
    const check = analyseLoss(orig, out, original, update, instruction, view);
    if (check.lost.length === 0) break;
    restored.push(...check.lost);
    content = rebuild(orig, out, check, update);
    out = splitLines(content);
  }
  return { content, restored: [...new Set(restored)].sort((a, b) => a - b) };
}


/**
 * Original lines the output drops by rule (b) alone where nothing in the update tells a run left out
 * from one deleted (branch silentz): the gap holds nothing of the output (a pure deletion by
 * adjacency), or the anchor after it is weak or repeated in the original (`WORKDIR /app`, `<td>`),
 * so the update may show another copy of it. No instruction asks for a removal. The merge reports
 * these lines rather than drop them silently (merge.ts).
 */
export function removedByAdjacency(original: string, update: string, instruction: string | null, output: string): number[] {
  if (instruction && asksForRemoval(instruction)) return [];
  const orig = splitLines(original);
  const out = splitLines(output);
  const check = checkLoss(original, update, instruction, output);
  const count = lineCounts(orig, { key });
  const rows: number[] = [];
  for (const g of check.gaps) {
    const dropped = g.vanished.filter((v) => v.rule === 'between-anchors' && !v.present).map((v) => v.j);
    if (dropped.length === 0) continue;
    const loose = g.q < orig.text.length && (orig.weak[g.q] || (count.get(key(orig.norm[g.q]!)) ?? 0) > 1);
    if (!gapHoldsOutput(g, out) || loose) rows.push(...dropped);
  }
  return rows.sort((a, b) => a - b);
}
