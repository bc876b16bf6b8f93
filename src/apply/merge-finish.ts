// Turns anchor chains (one per segment, found by the fast or the large aligner) into spans: weak
// lines (braces, blanks) matched between anchors (gap-fill.ts), segment edges grown over context and
// edited lines (edge-growth.ts, edge-corrections.ts, segment-closers.ts), segments without anchors
// placed (unanchored-placement.ts), indentation shifts read. assemble.ts writes the merged file.
import { underOtherHead } from './foreign-head.js';
import { hoistedHeadPair } from './hoisted-declaration.js';
import { markedBodyEnd } from './marked-body.js';
import { renamedLines, withRenamed } from './renames.js';
import { shallowSnippetLead } from './reindent.js';
import { closerResume, dropNewBlockClosers, tailPairs } from './closer-resume.js';
import { blanksAfterEmptyMarker } from './empty-marker.js';
import { siblingAfterShownBlock } from './shown-block.js';
import { closersOutweighRepeated } from './repeated-chain.js';
import { enclosingCloser } from './enclosing-closer.js';
import { closerResumeAcross, closingTail, dropAnchorsAbove } from './closer-anchors.js';
import { blanksBeforeMarker } from './marker-blanks.js';
import { trailingLayoutBlanks } from './end-blanks.js';
import type { Lines } from './lines.js';
import { withoutCoincident } from './coincident-anchors.js';
import { firstToken } from './lines.js';
import type { Chain, MergeContext, Segment } from './merge-context.js';
import { sameOwner } from './line-identity.js';
import { newTrailingDefinitions } from './appended-definition.js';
import { copiedRanges, outsideCopies } from './copied-sibling.js';
import { newDefinitionAnchors } from './new-members.js';
import { anchorLeadingContext } from './leading-context.js';
import { siblingDeclarationSpan } from './declaration-siblings.js';
import { extendToEditedHeader, unpairAnnotations, unpairSeparator, unpairTailSeparator, wrapHeadsAt } from './edge-corrections.js';
import { grow } from './edge-growth.js';
import { fillChain } from './gap-fill.js';
import { closeIndentedBlock } from './segment-closers.js';
import { MAX_WEAK_TOTAL_CELLS, closingTailAt, endOfShownBlock, outsideCopiedHeads, placeUnanchored, similarAnchor, weakAnchor } from './unanchored-placement.js';

/** Where a segment lands: it replaces original lines [start, end). */
export interface Span {
  start: number;
  end: number;
  /** All matched [segment line, original line] pairs (chain + fill + edges), ascending. */
  pairs: Array<[number, number]>;
  /** Segment-wide indentation shift (original columns − update columns), 0 unless the whole segment is offset. */
  delta: number;
  /** Segment lines left out of the output (blank lines that only frame a marker). */
  drop?: ReadonlySet<number>;
}

/** How a segment was placed: on exact anchor lines, on an edited line, on common lines only, or by position alone. */
/** `definition`: the syntax pass swapped an original definition of the same kind and name (syntax/place.ts). */
export type PlacementRule = 'anchors' | 'edited-line' | 'common-lines' | 'position' | 'file-edge' | 'definition';

export interface Placed {
  spans: Span[];
  ambiguities: string[];
  rules: PlacementRule[];
}

/**
 * Segment-wide indentation shift for snippets written at the wrong base indentation (a method shown
 * at column 0): the shift of the segment's outermost matched lines, when the whole segment's minimum
 * indentation moves by the same amount. 0 otherwise (then per-line indentation changes are kept).
 */
function segmentDelta(seg: Segment, o: Lines, chain: Chain): number {
  if (chain.length === 0) return 0;
  const s = seg.lines;
  let segMin = Infinity;
  for (let i = 0; i < s.text.length; i++) if (!s.blank[i]) segMin = Math.min(segMin, s.indent[i]!);
  let d: number | null = null;
  for (const [i, j] of chain) {
    if (s.indent[i] !== segMin) continue;
    const di = o.indent[j]! - s.indent[i]!;
    if (d === null) d = di;
    else if (d !== di) return 0;
  }
  if (d === null || d === 0) return 0;
  let origMin = Infinity;
  for (let j = chain[0]![1]; j <= chain[chain.length - 1]![1]; j++) if (!o.blank[j]) origMin = Math.min(origMin, o.indent[j]!);
  return origMin - segMin === d ? d : 0;
}

/** Every non-blank segment line is paired with an original line of its text. */
function allShown(s: Lines, o: Lines, pairs: ReadonlyArray<[number, number]>): boolean {
  const equal = new Set<number>();
  for (const [i, j] of pairs) if (s.norm[i] === o.norm[j]) equal.add(i);
  for (let i = 0; i < s.text.length; i++) if (!s.blank[i] && !equal.has(i)) return false;
  return true;
}

/** Completes chains into spans (fill, edges, unanchored placement). Chains must be in order and disjoint. */
export function finishPlacement(ctx: MergeContext, inputChains: Chain[]): Placed {
  const o = ctx.orig;
  const N = o.text.length;
  const segs = ctx.segments;
  const spans: Array<Span | null> = new Array(segs.length).fill(null);
  const rules: PlacementRule[] = new Array<PlacementRule>(segs.length).fill('anchors');
  const ambiguities: string[] = [];
  const chains = inputChains.slice();
  // Total LCS cells spent aligning anchorless segments in one merge (many such segments in a
  // huge file must not make one request quadratic).
  const weakBudget = { cells: MAX_WEAK_TOTAL_CELLS };
  /** First token of every original line, computed on first need. */
  let leads: string[] | undefined;
  /** Update lines shown renamed (renames.ts), computed on first need. */
  let renamed: Map<number, Array<[number, number]>> | undefined;

  let prevEnd = 0;
  let bodyFloor = -1;
  for (let k = 0; k < segs.length; k++) {
    const seg = segs[k]!;
    // New definitions after a marker at the file's end anchor nothing (appended-definition.ts).
    if (k === segs.length - 1 && seg.markerBefore && !seg.markerAfter && newTrailingDefinitions(seg.lines, o)) {
      chains[k] = [];
      continue;
    }
    // An anchor inside a block of another name (the `bucket = …` line of a new resource matched in
    // the next resource) is not one (line-identity.ts).
    let chain = chains[k]!.filter(([i, j]) => sameOwner(seg.lines, i, o, j) && j >= bodyFloor);
    chains[k] = chain;
    const resumed = k > 0 && spans[k - 1] ? closerResume(o, segs[k - 1]!, spans[k - 1]!.pairs, seg) ?? closerResumeAcross(o, segs, spans, k) ?? enclosingCloser(o, segs[k - 1]!, spans[k - 1]!.pairs, seg) : null;
    if (resumed && resumed[1] >= prevEnd) {
      chain = chains[k] = withoutCoincident(seg.lines, o, [...tailPairs(seg.lines, o, resumed), resumed, ...chain.filter(([i, j]) => i > resumed[0] && j > resumed[1])], (n) => ctx.index.get(n)?.length ?? 0);
    }
    // Later segments' anchors above a closer anchor (common lines of the block it closes) are not theirs.
    if (resumed && resumed[1] >= prevEnd) dropAnchorsAbove(chains, k, resumed[1]);
    // Before the closers of a block opened segments before, lines of definitions the original does
    // not have anchor nothing; elsewhere, where the segment has anchors outside them (new-members.ts).
    const closing = closingTail(o, segs, spans, k, prevEnd);
    const closesShown = !resumed && closing.length > 0;
    const newDefs = newDefinitionAnchors(seg.lines, o, seg.markerAfterIndent, closesShown, seg.markerBefore && bodyFloor >= 0, segs);
    const outsideNew = newDefs.anchors;
    // Context lines before a new definition keep their place where the aligner paired the copy instead (leading-context.ts).
    chain = chains[k] = anchorLeadingContext(seg.lines, o, chain, outsideNew(chain), newDefs.rows, prevEnd);
    // Repeated lines of new code (`#[test]`) give way to the closers of the block it ends (repeated-chain.ts).
    if (!resumed && chain.length > 0 && closersOutweighRepeated(seg.lines, o, ctx.index, chain, closing)) chain = chains[k] = closing;
    // Anchors all inside a block the segment copies from its neighbour under another literal (a
    // route path) stand for nothing there (copied-sibling.ts); a head without one (`router.delete(`,
    // its path on the next line) may be that route edited in place (29ci ts01).
    if (!resumed && outsideCopiedHeads(seg.lines, o, chain, true).length === 0) chain = chains[k] = [];
    if (chain.length === 0) {
      // No exact anchor: look for an edited line, then (away from the file's edges) common lines,
      // between where the previous segment ended and where the next anchored one starts.
      let hi = N;
      for (let q = k + 1; q < segs.length; q++) {
        const ch = chains[q]!;
        if (ch.length > 0) {
          hi = ch[0]![1];
          break;
        }
      }
      leads ??= o.norm.map(firstToken);
      renamed ??= renamedLines(ctx);
      chain = (renamed.get(k) ?? []).filter(([, j]) => j >= prevEnd && j < hi);
      // A new definition's head is no rename of the last member's: read so, the member would be lost.
      chain = outsideCopiedHeads(seg.lines, o, outsideNew(chain), true);
      if (chain.length > 0) rules[k] = 'edited-line';
      else chain = similarAnchor(ctx, seg, prevEnd, hi, leads);
      chain = outsideCopiedHeads(seg.lines, o, outsideNew(chain), true);
      if (chain.length > 0 && rules[k] !== 'edited-line') {
        ambiguities.push(`segment ${k + 1} anchored on an edited line, not an exact match`);
        rules[k] = 'edited-line';
      }
      const edge = (k === 0 && !seg.markerBefore) || (k === segs.length - 1 && !seg.markerAfter);
      // Closers of blocks opened segments before, paired by structure (closer-anchors.ts), outweigh
      // common lines a new block copies from its neighbour (its `end` taken for the neighbour's).
      if (chain.length === 0) chain = closing;
      if (chain.length === 0 && !edge) {
        chain = weakAnchor(ctx, seg, prevEnd, hi, weakBudget).filter(([i, j]) => sameOwner(seg.lines, i, o, j) && !underOtherHead(ctx, seg, i, j));
        chain = outsideNew(chain);
        if (chain.length > 0) {
          ambiguities.push(`segment ${k + 1} anchored on common lines only`);
          rules[k] = 'common-lines';
        }
      }
      // Last: new lines ending with the closers of blocks opened segments before (closer-anchors.ts).
      if (chain.length === 0) chain = closing;
      if (chain.length === 0) continue;
      if (rules[k] === 'anchors') dropAnchorsAbove(chains, k, chain[chain.length - 1]![1]);
      chains[k] = chain;
    }
    renamed ??= renamedLines(ctx);
    const shownRenamed = closesShown ? outsideNew(renamed.get(k) ?? []) : renamed.get(k);
    if (shownRenamed) chain = chains[k] = withRenamed(chain, shownRenamed, prevEnd);
    const lead = shallowSnippetLead(seg.lines, o, chain, prevEnd);
    if (lead) chain = chains[k] = [lead, ...chain];
    const s = seg.lines;
    let pairs = fillChain(s, o, chain);
    // A block the segment copies from the original one it was matched into is new lines: its anchors
    // and matched lines there are dropped, the rest of the chain placed again (copied-sibling.ts).
    const copies = copiedRanges(s, o, pairs);
    const uncopied = copies.length > 0 ? outsideCopies(chain, copies) : chain;
    if (uncopied.length > 0 && uncopied.length < chain.length) {
      chain = chains[k] = uncopied;
      pairs = outsideCopies(fillChain(s, o, chain), copies);
    } else if (copies.length > 0 && uncopied.length > 0) pairs = outsideCopies(pairs, copies);
    const delta = segmentDelta(seg, o, chain);
    // Next anchored segment's first anchor bounds this one's growth.
    let nextFirst = N;
    for (let q = k + 1; q < segs.length; q++) {
      const ch = chains[q]!;
      if (ch.length > 0) {
        nextFirst = ch[0]![1];
        break;
      }
    }
    // Grow the head backwards over context and edited lines.
    const first = chain[0]!;
    const firstDelta = o.indent[first[1]]! - s.indent[first[0]]!;
    // Grown back from the closers, a new definition's lines meet the last member's equal ones: still new.
    const grown = grow(s, o, first[0], first[1], -1, prevEnd, firstDelta, undefined, undefined, undefined, seg.markerBefore);
    const head = newDefs.run(grown, -1);
    if (seg.markerBefore) {
      // A declaration split from its value by a new block: its assignment inside it is its edit (hoisted-declaration.ts).
      const hoisted = hoistedHeadPair(s, o, (head[0] ?? first)[0], (head[0] ?? first)[1], prevEnd);
      if (hoisted) head.unshift(hoisted);
      extendToEditedHeader(s, o, head, first, prevEnd);
      dropNewBlockClosers(s, head);
      unpairSeparator(s, o, head, first, true);
    } else if (k === 0 && prevEnd === 0) unpairSeparator(s, o, head, first, false);
    // Grow the tail forwards.
    const last = chain[chain.length - 1]!;
    const lastDelta = o.indent[last[1]]! - s.indent[last[0]]!;
    const tail = newDefs.run(grow(s, o, last[0], last[1], 1, nextFirst, lastDelta, head[0] ?? first, delta, new Map([...head, ...pairs])), 1);
    if (seg.markerAfter) unpairTailSeparator(s, o, tail, last);
    const all = [...head, ...pairs, ...tail];
    if (seg.markerAfter) unpairAnnotations(s, o, all);
    let start = seg.markerBefore ? all[0]![1] : prevEnd;
    let leadBlanks = 0;
    for (let i = 0; i < s.text.length && s.blank[i] && !all.some(([x]) => x === i); i++) leadBlanks++;
    while (seg.markerBefore && leadBlanks > 0 && start > prevEnd && o.blank[start - 1]) {
      start--;
      leadBlanks--;
    }
    let end = seg.markerAfter ? all[all.length - 1]![1] + 1 : N;
    if (seg.markerAfter) end = closeIndentedBlock(seg, o, all, end, nextFirst);
    // Blank lines the segment ends (starts) with stand for the blank lines around the kept code.
    let blanks = 0;
    for (let i = s.text.length - 1; i >= 0 && s.blank[i] && !all.some(([x]) => x === i); i--) blanks++;
    while (seg.markerAfter && blanks > 0 && end < nextFirst && o.blank[end]) {
      end++;
      blanks--;
    }
    // Blank lines between the marker and a first line that is context: layout around the marker,
    // not new lines, where the original has no blank line there (`{` then `public function index`).
    // So are those before the heads of a new block that wraps that context (`for attempt …:` / `try:`
    // over the call it re-indents).
    // At the file's start (a hunk written after a marker that goes first), they would open the file.
    let drop: Set<number> | undefined;
    if (seg.markerBefore && leadBlanks > 0 && start === 0 && !o.blank[0]) drop = new Set(Array.from({ length: leadBlanks }, (_, i) => i));
    else if (seg.markerBefore && leadBlanks > 0 && all[0]![1] === start && (all[0]![0] === leadBlanks || wrapHeadsAt(s, leadBlanks, all[0]![0])) &&
        (!(start > 0 && o.blank[start - 1]) || blanksAfterEmptyMarker(k > 0 && spans[k - 1] ? segs[k - 1]!.lines : null, o, start, prevEnd))) {
      drop = new Set<number>();
      for (let i = 0; i < leadBlanks; i++) drop.add(i);
    }
    // Blank lines between a last line that is context and the marker, where the original goes on
    // without one: layout around the marker (marker-blanks.ts).
    if (seg.markerAfter && blanks > 0) {
      const layout = blanksBeforeMarker(s, all, o, blanks);
      if (layout.length > 0) {
        drop ??= new Set<number>();
        for (const i of layout) drop.add(i);
        blanks = 0;
      }
    }
    // Likewise blank lines before a marker that keeps nothing (the segment reaches the file's end,
    // e.g. a hunk written first but placed last): the original ends without them.
    if (seg.markerAfter && blanks > 0 && end >= N && N > 0 && !o.blank[N - 1]) {
      drop ??= new Set<number>();
      for (let i = s.text.length - blanks; i < s.text.length; i++) drop.add(i);
    }
    // A segment that is all original lines (a run of closers resumed from its first, deepest one,
    // written at the snippet's own depths) whose anchors do not show its shift: its lines show it.
    const shift = delta === 0 && rules[k] === 'anchors' && allShown(s, o, all) ? segmentDelta(seg, o, all.filter(([, j]) => !o.blank[j])) : delta;
    spans[k] = { start, end: Math.max(end, start), pairs: all, delta: shift, drop };
    // A marker deeper than the header ending this segment keeps that header's body (marked-body.ts):
    // the next segment neither anchors nor grows inside it.
    bodyFloor = markedBodyEnd(o, seg, all, segs[k + 1]);
    prevEnd = Math.max(end, start, bodyFloor);
  }

  // Segments without anchors go into the window between their anchored neighbours.
  for (let k = 0; k < segs.length; k++) {
    if (spans[k]) continue;
    let lo = 0;
    for (let q = k - 1; q >= 0; q--) {
      const sp = spans[q];
      if (sp) {
        lo = sp.end;
        break;
      }
    }
    let hi = N;
    for (let q = k + 1; q < segs.length; q++) {
      const sp = spans[q];
      if (sp) {
        hi = sp.start;
        break;
      }
    }
    const seg = segs[k]!;
    const isFirst = k === 0;
    const isLast = k === segs.length - 1;
    const edgeBound = (isFirst && !seg.markerBefore) || (isLast && !seg.markerAfter);
    if (!edgeBound) ambiguities.push(`segment ${k + 1} has no anchor line in the original; placed by position`);
    rules[k] = edgeBound ? 'file-edge' : 'position';
    const inBlock = k > 0 && spans[k - 1] ? endOfShownBlock(o, segs[k - 1]!, spans[k - 1]!, seg, lo, Math.max(lo, hi)) : -1;
    spans[k] = siblingDeclarationSpan(seg, o, lo, Math.max(lo, hi)) ?? (inBlock >= 0 ? closingTailAt(seg.lines, o, inBlock, lo)
      : (k > 0 && spans[k - 1] ? siblingAfterShownBlock(o, segs[k - 1]!, spans[k - 1]!, seg, lo, Math.max(lo, hi)) : null) ??
        placeUnanchored(ctx, seg, lo, Math.max(lo, hi), isFirst, isLast));
    const endBlanks = trailingLayoutBlanks(seg.lines, seg.markerAfter, spans[k]!.end, o);
    if (endBlanks) spans[k] = { ...spans[k]!, drop: new Set([...(spans[k]!.drop ?? []), ...endBlanks]) };
  }
  return { spans: spans as Span[], ambiguities, rules };
}
