// Turns anchor chains (one per segment, found by the fast or the large aligner) into the merged
// file: weak lines (braces, blanks) matched between anchors, segment edges grown over context and
// edited lines, segments without anchors placed, indentation rebased, original line endings kept.
import { markedShift, shiftedText } from './marked-shift.js';
import { inOtherNewBlock, underOtherHead } from './foreign-head.js';
import { hoistedHeadPair } from './hoisted-declaration.js';
import { markedBodyEnd } from './marked-body.js';
import { renamedLines, withRenamed } from './renames.js';
import { shallowSnippetLead } from './reindent.js';
import { bracketDelta, codeBracketDelta, startsWithCloser } from './brackets.js';
import { closerResume, dropNewBlockClosers, tailPairs } from './closer-resume.js';
import { carrySeparators, separatorChanged, separatorDroppedBeforeMarker } from './member-separators.js';
import { blockPairs, withoutClosers, type BlockPairs } from './new-block-closers.js';
import { blanksAfterEmptyMarker } from './empty-marker.js';
import { siblingAfterShownBlock } from './shown-block.js';
import { closersOutweighRepeated } from './repeated-chain.js';
import { enclosingCloser } from './enclosing-closer.js';
import { closerResumeAcross, closingTail, dropAnchorsAbove } from './closer-anchors.js';
import { contextAboveWrapper, editedBeyondInsert, wrappedInNewBlock } from './edge-edits.js';
import { atSegmentEdge, continuedOnNext, wrapsWholeLine } from './edge-line-edit.js';
import { blanksBeforeMarker, headsBlock, wholeBlocksAt } from './marker-blanks.js';
import { trailingLayoutBlanks } from './end-blanks.js';
import type { Lines } from './lines.js';
import { extendedInPlace } from './extended-line.js';
import { withoutCoincident } from './coincident-anchors.js';
import { renamedHeaderBeforeMarker } from './header-at-marker.js';
import { CLOSER_LINE, dice, editedVersion, firstToken, indentText, renamedInPlace, renderLines, sameStatementEdited, solidRow, tokens } from './lines.js';
import type { Chain, MergeContext, Segment } from './merge-context.js';
import { copiesOtherLine, newNameBesideOld } from './new-name-evidence.js';
import { otherStyleRule } from './block-names.js';
import { namesDiffer, renameShownInPlace, rowNamesDiffer, sameDepth, sameOwner } from './line-identity.js';
import { anotherElement, anotherItem, anotherSibling, pastNewItem } from './sibling-items.js';
import { newTrailingDefinition, newTrailingDefinitions } from './appended-definition.js';
import { CLOSER_ONLY } from './closer-pins.js';
import { copiedRanges, outsideCopies, pastCopiedBlock } from './copied-sibling.js';
import { leadsDefinition, newDefinitionAnchors } from './new-members.js';
import { anchorLeadingContext } from './leading-context.js';
import { sameSectionKey } from './flat-sections.js';
import { caseBranchCloser } from './flat-blocks.js';
import { newSiblingLine } from './edit-evidence.js';
import { siblingDeclarationSpan } from './declaration-siblings.js';

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

/** Above this many cells the gap between two anchors is matched from both ends instead of by LCS. */
const MAX_FILL_CELLS = 4_000_000;

function fillEqual(s: Lines, i: number, o: Lines, j: number, delta: number): boolean {
  if (s.norm[i] !== o.norm[j]) return false;
  if (s.blank[i]) return true;
  if (!s.weak[i]) return true;
  return o.indent[j]! - s.indent[i]! === delta;
}

/** A chain with the lines between its anchors matched (fillGap), ascending. */
function fillChain(s: Lines, o: Lines, chain: ReadonlyArray<[number, number]>): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let c = 0; c < chain.length; c++) {
    const cur = chain[c]!;
    if (c > 0) {
      const prev = chain[c - 1]!;
      const local = o.indent[prev[1]]! - s.indent[prev[0]]!;
      fillGap(s, prev[0], cur[0], o, prev[1], cur[1], local, pairs);
    }
    pairs.push(cur);
  }
  return pairs;
}

/** Matches segment lines (a0, a1) against original lines (b0, b1), exclusive bounds, by LCS. */
function fillGap(s: Lines, a0: number, a1: number, o: Lines, b0: number, b1: number, delta: number, out: Array<[number, number]>): void {
  const n = a1 - a0 - 1;
  const m = b1 - b0 - 1;
  if (n <= 0 || m <= 0) return;
  if (n * m > MAX_FILL_CELLS) {
    const head: Array<[number, number]> = [];
    let i = a0 + 1;
    let j = b0 + 1;
    while (i < a1 && j < b1 && fillEqual(s, i, o, j, delta)) head.push([i++, j++]);
    const tail: Array<[number, number]> = [];
    let x = a1 - 1;
    let y = b1 - 1;
    while (x >= i && y >= j && fillEqual(s, x, o, y, delta)) tail.push([x--, y--]);
    out.push(...head, ...tail.reverse());
    return;
  }
  const w = m + 1;
  const dp = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * w + j] = fillEqual(s, a0 + 1 + i, o, b0 + 1 + j, delta)
        ? dp[(i + 1) * w + j + 1]! + 1
        : Math.max(dp[(i + 1) * w + j]!, dp[i * w + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (fillEqual(s, a0 + 1 + i, o, b0 + 1 + j, delta) && dp[i * w + j] === dp[(i + 1) * w + j + 1]! + 1) {
      out.push([a0 + 1 + i, b0 + 1 + j]);
      i++;
      j++;
    } else if (dp[(i + 1) * w + j]! >= dp[i * w + j + 1]!) i++;
    else j++;
  }
}


/**
 * Next to an anchor, an update line that is not in the original replaces the original line in the
 * same place when it reads as an edit of it (otherwise the old line would have been shown as context).
 */
function edgeMatch(s: Lines, i: number, o: Lines, j: number, delta: number, dir: 1 | -1 = 1): boolean {
  // Equal lines in blocks of other names (a copied endpoint's body) are not the same line.
  if (fillEqual(s, i, o, j, delta)) return s.blank[i] || sameOwner(s, i, o, j);
  if (!mayBeEdit(s, i, o, j, delta, dir)) return false;
  const edited = editedVersion(o.norm[j]!, s.norm[i]!) || (renamedInPlace(o.norm[j]!, s.norm[i]!) && !bareValueRenamed(o.norm[j]!, s.norm[i]!)) ||
    extendedInPlace(o.norm[j]!, s.norm[i]!) || sameSectionKey(o, j, s.norm[i]!) ||
    (o.indent[j]! - s.indent[i]! === delta && sameStatementEdited(o.norm[j]!, s.norm[i]!)) ||
    // At the hunk's edge a line wrapped whole (`tokens` → `Ok(tokens)`) has no neighbour beyond to vouch for it.
    (atSegmentEdge(s, i, dir) && wrapsWholeLine(o.norm[j]!, s.norm[i]!));
  if (!edited) return false;
  // A line read as edited at a hunk's growing end (`def set_trial` → `def notify_status_change`,
  // `@Transactional` → `@Transactional(readOnly = true)`) is that line only when the segment goes on
  // as the original does after it: a new method written right after an anchor starts with lines of
  // the same shape as the next method's and goes on with a body of its own.
  if (dir > 0) {
    let x = i + 1;
    while (x < s.text.length && s.blank[x]) x++;
    let y = j + 1;
    while (y < o.text.length && o.blank[y]) y++;
    // Checked where a definition is in play: both lines open blocks, or both next lines do (an
    // annotation, then another method's header); an edited `f(x);` → `if (!f(x)) {` keeps its new body.
    // A line cut before its opener, the list going on to the next line (a parameter appended), opens no other block.
    const definition = (opensBlock(s.norm[i]!) && opensBlock(o.norm[j]!)) ||
      (x < s.text.length && y < o.text.length && opensBlock(s.norm[x]!) && opensBlock(o.norm[y]!) && !continuedOnNext(o.norm[j]!, s.norm[i]!, s.norm[x]!));
    if (definition && x < s.text.length && y < o.text.length && !fillEqual(s, x, o, y, delta) &&
        !(!s.weak[x] && !o.weak[y] && editedVersion(o.norm[y]!, s.norm[x]!))) return false;
    // Nothing after it in the hunk, or weak lines alone (`return err`, `}`: every sibling block ends
    // so), confirms the place: a line of j's form naming other things (a new `if err :=
    // durationEnv(…)` or `fs.DurationVar(…)` for a new field, above the next field's) is then a new
    // sibling (edit-evidence.ts).
    if (weakUntilEnd(s, x, o, y, delta) && newSiblingLine(o, j, s.norm[i]!)) return false;
  }
  return true;
}

/**
 * From segment row x and original row y on, the segment goes on as the original does with weak lines
 * only (closers, `return err`) and then ends: nothing of substance ties the segment to this place.
 */
function weakUntilEnd(s: Lines, x: number, o: Lines, y: number, delta: number): boolean {
  while (x >= 0 && x < s.text.length) {
    if (y < 0 || y >= o.text.length || !s.weak[x] || !fillEqual(s, x, o, y, delta)) return false;
    x = solidRow(s, x, 1);
    y = solidRow(o, y, 1);
  }
  return true;
}

/**
 * Segment line i may stand for original line j at all: neither blank nor weak, same owner and depth,
 * and no sign of a line of its own (another definition, name, sibling, element, or a copy for a new name).
 */
function mayBeEdit(s: Lines, i: number, o: Lines, j: number, delta: number, dir: 1 | -1): boolean {
  if (s.blank[i] || o.blank[j] || s.weak[i] || o.weak[j]) return false;
  if (!sameOwner(s, i, o, j) || !sameDepth(s, i, o, j)) return false;
  // A definition under another name (`CREATE INDEX orders_status_idx` beside `… orders_user_idx`) is
  // its rename only when the update goes on past it as the original does (context shown beyond it).
  if (otherDefinition(o.norm[j]!, s.norm[i]!) && !renamedHeaderBeforeMarker(s, i, o, j, dir)) {
    let x = i + dir;
    while (x >= 0 && x < s.text.length && s.blank[x]) x += dir;
    let y = j + dir;
    while (y >= 0 && y < o.text.length && o.blank[y]) y += dir;
    if (x < 0 || x >= s.text.length || y < 0 || y >= o.text.length || !fillEqual(s, x, o, y, delta)) return false;
  }
  // A line naming another definition, test, key or element is new code, unless shown renamed in place.
  // A call head named by the literal below it (`app.get(` / `"/api/x",`) names that route (block-names.ts rowIdentity).
  if ((namesDiffer(o.norm[j]!, s.norm[i]!) || rowNamesDiffer(o, j, s, i)) && !renameShownInPlace(s, i, o, j)) return false;
  if (newNameBesideOld(s, i, o, j) || copiesOtherLine(o, j, s.norm[i]!)) return false;
  return !anotherSibling(o.norm[j]!, s.norm[i]!) && !anotherElement(o.norm[j]!, s.norm[i]!) && !anotherItem(o, j, s, i);
}

/** A line that opens a block: ends with an opening bracket or `:`, or starts a Ruby/Lua-style definition. */
export function opensBlock(norm: string): boolean {
  return /[{([:]$|\bdo(?:\s*\|[^|]*\|)?$/.test(norm) || /^(?:def|class|module|function|func|fn|sub|proc)\b/.test(norm);
}

/**
 * A list item or bare value whose only word changed (`- redis` → `- mailhog`, `RED,` → `CRIMSON,`) is
 * another item, not a rename: a rename keeps a key, call or declaration shape (`test:`, `super()`).
 */
function bareValueRenamed(a: string, b: string): boolean {
  const ta = tokens(a);
  const tb = tokens(b);
  const isWord = (t: string): boolean => /^[A-Za-z_$\d]/.test(t);
  let k = 0;
  while (k < ta.length && ta[k] === tb[k]) k++;
  if (ta.slice(0, k).concat(ta.slice(k + 1)).some(isWord)) return false;
  return !/^[(:={<.]$/.test(ta[k + 1] ?? '');
}

/**
 * Grows a segment's edge from the anchor pair (i, j) in direction dir over original lines that stay
 * contiguous: each next original line must equal (or be an edited version of) the next segment line,
 * or equal a later segment line when the segment inserts new lines first (`} catch {` before the `}`
 * it wraps). Blank original lines only pair with the very next segment line. `limit` bounds j
 * (exclusive going forward, inclusive lower bound going back).
 */
function grow(s: Lines, o: Lines, i0: number, j0: number, dir: 1 | -1, limit: number, delta: number, first: [number, number] = [i0, j0], segDelta = delta, paired?: Map<number, number>, markerAbove = false): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  // Tail side: closers of blocks the segment opens itself are not the original's (new-block-closers.ts).
  const blocks = paired && dir > 0 ? blockPairs(s, o, paired) : null;
  const other = (x: number, y: number): boolean => (blocks !== null && blocks.closesOtherBlock(x, y));
  const push = (x: number, y: number): void => {
    out.push([x, y]);
    paired?.set(x, y);
  };
  let i = i0 + dir;
  let j = j0 + dir;
  const inSeg = (x: number): boolean => x >= 0 && x < s.text.length;
  const inOrig = (y: number): boolean => (dir > 0 ? y < limit : y >= limit) && y >= 0 && y < o.text.length;
  // New lines, then the segment's outermost line edited from the original's next one (edge-edits.ts).
  const editedPast = (): boolean => {
    const late = editedBeyondInsert(s, o, i, j, dir, inOrig, (x, y) => edgeMatch(s, x, o, y, delta, dir));
    if (!late) return false;
    for (const [x, y] of dir > 0 ? late : late.slice().reverse()) push(x, y);
    const [x, y] = dir > 0 ? late[late.length - 1]! : late[0]!;
    i = x + dir;
    j = y + dir;
    return true;
  };
  // Head side: the update may show context that sat a few lines further up, the lines between
  // being deleted; believable when two lines in a row match there (one not blank).
  const skippedUp = (): boolean => {
    const hop = headSkip(s, o, i, j, limit, delta) ?? (markerAbove ? topLineOnce(s, o, i, j, limit, delta) : null);
    if (!hop) return false;
    [i, j] = hop;
    return true;
  };
  // Tail side: the closer of the original's block, found past new lines (tailCloser).
  const pastCloser = (): boolean => {
    const closer = tailCloser(s, o, first, i, j, limit, delta, segDelta, blocks, paired);
    if (!closer) return false;
    push(closer[0], closer[1]);
    i = closer[0] + 1;
    j = closer[1] + 1;
    // Past a closer found at the update's own indentation (a body re-indented into a new block),
    // the lines after it follow the closer's shift.
    delta = o.indent[closer[1]]! - s.indent[closer[0]]!;
    return true;
  };
  while (inSeg(i) && inOrig(j)) {
    if (edgeMatch(s, i, o, j, delta, dir) && !other(i, j)) {
      // A whole block of the segment copied from the original one here is new lines inserted
      // before it, not its edit: the edge goes on past the copy (copied-sibling.ts).
      // So is an item whose head equals the original's next one (`[[redirects]]`) and whose
      // settings all differ from that item's (sibling-items.ts).
      const past = pastCopiedBlock(s, i, o, j, dir) ?? (dir > 0 ? pastNewItem(s, i, o, j) : null);
      if (past !== null) {
        i = past;
        continue;
      }
      push(i, j);
      i += dir;
      j += dir;
      continue;
    }
    if (o.blank[j]) {
      // A blank original line pairs with a later blank segment line only when the line beyond both
      // also matches: `}`, blank, <new lines>, anchor is context around an insertion.
      let found = -1;
      for (let x = i + dir; inSeg(x); x += dir) {
        if (s.blank[x]) {
          found = x;
          break;
        }
      }
      if (found >= 0 && inSeg(found + dir) && inOrig(j + dir) && !s.blank[found + dir] && fillEqual(s, found + dir, o, j + dir, delta)) {
        out.push([found, j]);
        i = found + dir;
        j += dir;
        continue;
      }
      if (dir < 0 && skippedUp()) continue;
      if (dir > 0 && pastCloser()) continue;
      if (editedPast()) continue;
      break;
    }
    let found = -1;
    for (let x = i + dir; inSeg(x); x += dir) {
      if (fillEqual(s, x, o, j, delta) && !other(x, j)) {
        found = x;
        break;
      }
    }
    // One line between a pair and an equal line on each side, both starting alike: replaced in place.
    if (found < 0 && replacedBetween(s, i, o, j, dir, delta, inSeg, inOrig)) {
      push(i, j);
      i += dir;
      j += dir;
      continue;
    }
    if (found < 0 && dir < 0) {
      // Head side: a weak line above new lines that wrap the anchor in a block keeps its own indentation (edge-edits.ts).
      const [a, b] = out[out.length - 1] ?? [i0, j0];
      const above = contextAboveWrapper(s, o, i, j, a, b);
      if (above >= 0 && j === solidRow(o, b, -1)) {
        push(above, j);
        delta = o.indent[j]! - s.indent[above]!;
        i = above - 1;
        j -= 1;
        continue;
      }
      if (skippedUp()) continue;
    }
    if (found < 0) {
      if (dir > 0) {
        if (pastCloser()) continue;
        // New lines open a block whose first line is the original's next line wrapped (edge-edits.ts).
        const wrapped = wrappedInNewBlock(s, o, i, j);
        if (wrapped >= 0 && !other(wrapped, j)) {
          push(wrapped, j);
          i = wrapped + 1;
          j += 1;
          continue;
        }
      }
      if (editedPast()) continue;
      break;
    }
    const past = pastCopiedBlock(s, found, o, j, dir);
    if (past !== null) {
      i = past;
      continue;
    }
    push(found, j);
    i = found + dir;
    j += dir;
  }
  return dir > 0 ? out : out.reverse();
}

/**
 * Segment line i stands where original line j stood, between the line just paired and an equal line
 * beyond both (`, T.pack (show (rowTotal r))` → `, fmt prec (rowTotal r)` before the list's `]`): the
 * update shows j's neighbours around one other line, so that line is j's edit even where the rewrite
 * is too large for `editedVersion`. The same first token keeps a statement of another kind from
 * taking the place; `mayBeEdit` and `newSiblingLine` keep a new sibling of the original line's form
 * (`if cfg.MaxRetries, err = …` above `return nil, err`, where `if cfg.ShutdownGrace, err = …` stood) new.
 */
function replacedBetween(s: Lines, i: number, o: Lines, j: number, dir: 1 | -1, delta: number, inSeg: (x: number) => boolean, inOrig: (y: number) => boolean): boolean {
  if (!inSeg(i + dir) || !inOrig(j + dir)) return false;
  if (s.blank[i + dir] || o.blank[j + dir] || !fillEqual(s, i + dir, o, j + dir, delta)) return false;
  if (o.indent[j]! - s.indent[i]! !== delta || firstToken(o.norm[j]!) !== firstToken(s.norm[i]!)) return false;
  return mayBeEdit(s, i, o, j, delta, dir) && !newSiblingLine(o, j, s.norm[i]!);
}

/**
 * New lines, a blank line, then the anchor, after a marker: when the original's blank before the
 * anchor ends a block (the line above it is deeper than the anchor, or closes a block), the new
 * lines are a block of their own and go after that blank with the update's blank as their separator,
 * not glued to the end of the block above. `marked` is false at the update's first line with no
 * marker above: there only a new paragraph of the anchor's kind (`newFlatParagraph`) is read so.
 */
function unpairSeparator(s: Lines, o: Lines, head: Array<[number, number]>, first: [number, number], marked: boolean): void {
  if (head.length === 0) return;
  const [i, j] = head[0]!;
  if (!s.blank[i] || !o.blank[j] || i === 0) return;
  // A separator of several blank lines (two between Python definitions) paired only at its end:
  // the whole run is the new lines' separator, the original's run stays above them.
  let paired = 1;
  while (paired < head.length && s.blank[head[paired]![0]] && o.blank[head[paired]![1]] && head[paired]![0] === i + paired) paired++;
  let newBlanks = i;
  while (newBlanks > 0 && s.blank[newBlanks - 1]) newBlanks--;
  if (newBlanks === 0 || (newBlanks < i && !blankRun(o, j, i - newBlanks + paired))) return;
  // Only new lines at the anchor's depth (a module constant): deeper ones are members of the block above.
  if ((paired > 1 || newBlanks < i) && s.indent[solidAbove(s, newBlanks)]! > s.indent[(head[paired] ?? first)[0]]!) {
    if (newBlanks < i) return;
    paired = 1;
  }
  const anchor = head[paired] ?? first;
  let above = j - 1;
  while (above >= 0 && o.blank[above]) above--;
  if (above < 0) return;
  const endsBlock = o.indent[above]! > o.indent[anchor[1]]! || /^(?:[)}\]]|end\b)/.test(o.norm[above]!);
  // New lines that start deeper than the anchor are more members of the block above (a new case's
  // `given Decoder[Refunded]` after `given Decoder[Purchased]`): they go before its blank, unless
  // that block parts its members with blank lines (compose services), where the blank parts them too.
  let lead = 0;
  while (lead < i && s.blank[lead]) lead++;
  if (lead < i && !s.weak[lead] && s.indent[lead]! > s.indent[anchor[0]]! && o.indent[above]! > o.indent[anchor[1]]! && !blankPartedAbove(o, above, o.indent[anchor[1]]!)) return;
  // New lines that are a whole block of their own (`export interface Options {` … `}` at the anchor's
  // depth) are a declaration like the one the blank parts from the line above: parted from it too.
  const lastNew = solidAbove(s, newBlanks);
  const wholeBlock = lead < lastNew && s.indent[lead] === s.indent[anchor[0]] && s.indent[lastNew] === s.indent[anchor[0]] && CLOSER_LINE.test(s.norm[lastNew]!);
  // At the update's first line with no marker above, only a new paragraph of the anchor's kind is
  // read so (the code above the snippet is kept as if a marker stood there).
  if (((endsBlock || wholeBlock) && marked) || newFlatParagraph(s, lead, o, above, anchor)) head.splice(0, paired);
}

/**
 * Blank-parted paragraphs with no closers (Dockerfile stages, `FROM … AS …` over its instructions):
 * new lines at the anchor's depth that start with the anchor's first word, where the paragraph above
 * starts with that word too but its last line does not, are a paragraph of the anchor's kind, not
 * more lines of the paragraph above (whose last line would share the word, as `import` lines do).
 */
function newFlatParagraph(s: Lines, lead: number, o: Lines, above: number, anchor: readonly [number, number]): boolean {
  const word = firstToken(s.norm[anchor[0]]!);
  if (!/^[A-Za-z_]/.test(word) || s.blank[lead] || s.indent[lead] !== s.indent[anchor[0]] || firstToken(s.norm[lead]!) !== word) return false;
  if (firstToken(o.norm[above]!) === word || o.indent[above] !== o.indent[anchor[1]]) return false;
  let top = above;
  while (top > 0 && !o.blank[top - 1]) top--;
  return top < above && o.indent[top] === o.indent[anchor[1]] && firstToken(o.norm[top]!) === word;
}

/** The last non-blank row before row i (i itself is blank), or 0. */
function solidAbove(s: Lines, i: number): number {
  let x = i - 1;
  while (x > 0 && s.blank[x]) x--;
  return Math.max(x, 0);
}

/** The original has `n` blank lines ending with row j's run of blank lines (j and those right above it). */
function blankRun(o: Lines, j: number, n: number): boolean {
  let y = j;
  while (y + 1 < o.text.length && o.blank[y + 1]) y++;
  let run = 0;
  for (let x = y; x >= 0 && o.blank[x]; x--) run++;
  return run >= n;
}

/**
 * Segment rows [a, b) are the heads of a new block around row b: solid lines each shallower than b,
 * the last one opening a block, no blank line among them.
 */
function wrapHeadsAt(s: Lines, a: number, b: number): boolean {
  if (b <= a || !opensBlock(s.norm[b - 1]!)) return false;
  for (let i = a; i < b; i++) if (s.blank[i] || s.indent[i]! >= s.indent[b]!) return false;
  return true;
}

/** Going up from row y to the first line at `level` or shallower (its block's head), a blank line comes first. */
function blankPartedAbove(o: Lines, y: number, level: number): boolean {
  for (let x = y - 1; x >= 0; x--) {
    if (o.blank[x]) return true;
    if (o.indent[x]! <= level) return false;
  }
  return false;
}

/** A definition keyword opening a line: a definition written on one line is a block of its own. */
const ONE_LINE_DEFINITION = /^(?:(?:export|pub|public|private|protected|static|async)\s+)*(?:def|defp|defmacro|fn|func|fun|function|sub)\s+[A-Za-z_]/;

/**
 * Anchor, blank line, then a new block the segment ends with (no blank of its own before the
 * marker), where the original goes on with a sibling block after its blank: the blank is the new
 * block's separator from the anchor, and the original's stays between it and the sibling.
 */
function unpairTailSeparator(s: Lines, o: Lines, tail: Array<[number, number]>, last: [number, number]): void {
  if (tail.length === 0) return;
  const [i, j] = tail[tail.length - 1]!;
  if (!s.blank[i] || !o.blank[j]) return;
  // Blank lines the segment ends with before its marker are layout there (end-blanks.ts): the new
  // lines end at its last non-blank line (an Elm `case` branch added last, `-- ... existing code ...` after).
  let n = s.text.length;
  while (n > i + 1 && s.blank[n - 1]) n--;
  if (i + 1 >= n || s.blank[i + 1]) return;
  let next = j + 1;
  while (next < o.text.length && o.blank[next]) next++;
  if (next >= o.text.length) return;
  const anchor = tail[tail.length - 2] ?? last;
  const shift = o.indent[anchor[1]]! - s.indent[anchor[0]]!;
  // The new lines are one or more whole blocks at the sibling's level (marker-blanks.ts).
  const level = o.indent[next]! - shift;
  // Or blocks deeper than what follows: new members that end the enclosing block (a method added
  // last in a Python class, the next class after the blank lines).
  const closesEnclosing = s.indent[i + 1]! > level && wholeBlocksAt(s, i + 1, n - 1, s.indent[i + 1]!);
  if (!closesEnclosing && !wholeBlocksAt(s, i + 1, n - 1, level)) return;
  // Closed by a closing line, the new lines are a block; else the sibling must head one (a rule, a heading).
  // Or the new lines open with a definition (`def f(x), do: …`, `def f(x): return …` written on one line).
  // Members ending the enclosing block are parted from what follows by its own blank lines (`-- VIEW` after an Elm `case`).
  if (!closesEnclosing && !(s.weak[n - 1] && /^(?:[)}\]]|end\b)/.test(s.norm[n - 1]!)) && !headsBlock(o, next) && !ONE_LINE_DEFINITION.test(s.norm[i + 1]!)) return;
  tail.pop();
}


/**
 * A segment whose matches end on annotation lines (`@dataclass`, `#[derive(…)]`, `[Fact]`, `@impl true`) whose original
 * goes on with a header the segment does not match: they belong to that header (kept with it),
 * while the segment's copies head its own new definition.
 */
function unpairAnnotations(s: Lines, o: Lines, tail: Array<[number, number]>): void {
  while (tail.length > 1) {
    const [i, j] = tail[tail.length - 1]!;
    if (s.blank[i] || !leadsDefinition(s.norm[i]!)) return;
    let y = j + 1;
    while (y < o.text.length && o.blank[y]) y++;
    let x = i + 1;
    while (x < s.text.length && s.blank[x]) x++;
    if (y >= o.text.length || x >= s.text.length || s.norm[x] === o.norm[y]) return;
    tail.pop();
  }
}

/** Original lines scanned above a segment's first match for the block header it rewrote. */
const MAX_HEADER_REACH = 40;

/**
 * A segment that opens, right after its marker, with an edited block header (`def fetch_page(url,
 * retries=3):`) and then new lines before its first match rewrites that block from its header: the
 * original header above the match, with only deeper lines between them, is where the segment starts,
 * and those lines are what its new lines replace (the old header is not kept beside the new one).
 */
function extendToEditedHeader(s: Lines, o: Lines, head: Array<[number, number]>, first: [number, number], lo: number): void {
  const top = head[0] ?? first;
  let f = 0;
  while (f < top[0] && s.blank[f]) f++;
  if (f >= top[0] || s.weak[f] || !opensBlock(s.norm[f]!)) return;
  for (let x = f + 1; x < top[0]; x++) if (!s.blank[x] && s.indent[x]! <= s.indent[f]!) return;
  // The lines between the header and the match all sit inside the header's block.
  let inner = o.indent[top[1]]!;
  for (let y = top[1] - 1; y >= lo && top[1] - y <= MAX_HEADER_REACH && inner > 0; y--) {
    if (o.blank[y]) continue;
    if (o.indent[y]! < inner && !o.weak[y] && opensBlock(o.norm[y]!) && editedVersion(o.norm[y]!, s.norm[f]!)) {
      head.unshift([f, y]);
      return;
    }
    inner = Math.min(inner, o.indent[y]!);
  }
}

/** Original lines a head may skip (delete) to reach the context the update shows above an anchor. */
const MAX_HEAD_SKIP = 3;

/**
 * Head side: the update may show context that sat a few lines further up, the original lines in
 * between deleted and the update's lines in between new. Believable when two lines in a row match
 * there, one of them not blank. Returns [segment line, original line] of the lower match, or null.
 */
function headSkip(s: Lines, o: Lines, i: number, j: number, limit: number, delta: number): [number, number] | null {
  for (let x = i; x >= 1 && x >= i - MAX_HEAD_SKIP; x--) {
    for (let d = x === i ? 1 : 0; d <= MAX_HEAD_SKIP; d++) {
      const y = j - d;
      if (y - 1 < limit) break;
      if (!fillEqual(s, x, o, y, delta) || !fillEqual(s, x - 1, o, y - 1, delta) || (s.blank[x] && s.blank[x - 1])) continue;
      // The lines hopped over are deleted: only whole blocks, never the closers of blocks opened
      // above (`}` and `});` of the route before, when a new route copies its `next(err);`).
      let net = 0;
      for (let z = y + 1; z <= j; z++) net += codeBracketDelta(o.text[z]!);
      if (net < 0) continue;
      return [x, y];
    }
  }
  return null;
}

/**
 * The segment's top line (only blank lines between it and the marker above) has no line above it
 * to confirm it: a closer the original has once, above j and below the previous anchor, is pinned
 * by itself (`</Select>` above a deleted `<Button>`, `</dependencies>` above a deleted
 * `<repositories>` block), the original lines after it up to j deleted. A closer, because it ends
 * what the marker kept: the lines after it are the next siblings, which the update shows adjacent.
 */
function topLineOnce(s: Lines, o: Lines, i: number, j: number, limit: number, delta: number): [number, number] | null {
  const x = solidRow(s, i + 1, -1);
  if (x < 0 || x < i - MAX_HEAD_SKIP || solidRow(s, x, -1) >= 0 || !CLOSER_LINE.test(s.norm[x]!)) return null;
  for (let y = j - 1; y >= Math.max(limit, 0); y--) if (fillEqual(s, x, o, y, delta)) return onceIn(o, y) ? [x, y] : null;
  return null;
}

/** Row y's text occurs once in `o`. */
function onceIn(o: Lines, y: number): boolean {
  for (let k = 0; k < o.text.length; k++) if (k !== y && o.norm[k] === o.norm[y]) return false;
  return true;
}

/** A rewritten block's closer (balanceCloser, else findCloser), never one that closes a block the segment opened. */
function tailCloser(s: Lines, o: Lines, first: [number, number], i: number, j: number, limit: number, delta: number, segDelta: number, blocks: BlockPairs | null, paired?: ReadonlyMap<number, number>): [number, number] | null {
  // The segment's last closer, when it closes a block the segment opened (`} catch {` … `}`), balances no original block.
  const balanced = balanceCloser(s, o, first, i, j, limit);
  // A shell `case` branch's `;;` closes the branch whose head is paired (flat-blocks.ts).
  const closer = (balanced && !blocks?.closesNewBlock(balanced[0]) ? balanced : null) ?? findCloser(s, o, i, j, limit, delta, segDelta, blocks) ?? (paired ? caseBranchCloser(s, o, i, j, limit, paired) : null);
  return closer && blocks?.closesOtherBlock(closer[0], closer[1]) ? null : closer;
}

/** Original lines a rewritten block body may span before its closing line. */
const MAX_CLOSER_DISTANCE = 400;

/**
 * A rewritten bracketed block: the segment ends with a line that closes brackets, and from its first
 * matched line to its end it opens and closes a net B. The original, read from the same first line,
 * reaches net B at its own closing line y: original lines up to y are the old block the segment replaces.
 */
function balanceCloser(s: Lines, o: Lines, first: [number, number], i: number, j: number, limit: number): [number, number] | null {
  let lastContent = s.text.length - 1;
  while (lastContent >= 0 && s.blank[lastContent]) lastContent--;
  if (lastContent < i || bracketDelta(s.text[lastContent]!) >= 0) return null;
  if (!closesOuterBlock(s, i, lastContent)) return null;
  let target = 0;
  for (let x = first[0]; x <= lastContent; x++) target += bracketDelta(s.text[x]!);
  let run = 0;
  for (let y = first[1]; y < j; y++) run += bracketDelta(o.text[y]!);
  const end = Math.min(limit, o.text.length, j + MAX_CLOSER_DISTANCE);
  for (let y = j; y < end; y++) {
    const b = bracketDelta(o.text[y]!);
    run += b;
    if (run < target) return null;
    if (run === target && b < 0) return codeCloserMismatch(s, o, lastContent, y, j) ? null : [lastContent, y];
  }
  return null;
}

/**
 * A last line with code before its closers (Lisp) balances original line y only where it holds y's
 * code, or where y is the very next original line (`(inc x))` rewritten in place as `(* 2 x))`): a
 * balance found further down (`["/:id/pdf" …]]` after a group whose closers the update moved) is
 * another block's closing line.
 */
function codeCloserMismatch(s: Lines, o: Lines, last: number, y: number, j: number): boolean {
  return y !== j && !startsWithCloser(s.norm[last]!) && withoutClosers(s.norm[last]!) !== withoutClosers(o.norm[y]!);
}

/**
 * Segment line c closes a block opened before line i (the original is still inside it), not one the
 * new lines [i, c) open themselves: those all sit deeper than c, but for continuations (`} else {`,
 * `elsif`, `rescue`). An anchor, a new function or rule, then a marker: the new block's `}` or `end`
 * must not take the next original block's closing line, and that block with it.
 */
function closesOuterBlock(s: Lines, i: number, c: number): boolean {
  for (let x = i; x < c; x++) {
    if (s.blank[x] || s.indent[x]! > s.indent[c]!) continue;
    if (startsWithCloser(s.norm[x]!) || /^(?:else|elsif|elif|else if|rescue|ensure|except|catch|finally|when|case|default)\b/.test(s.norm[x]!)) continue;
    return false;
  }
  return true;
}

/**
 * Segment lines inside word blocks (`end`, `fi`, `done`) that new lines from i open: after a head
 * p >= i with deeper lines, through the closer at p's indentation. Word blocks have no bracket to pair
 * (new-block-closers.ts), so they are paired by indentation: the `return nil` and `end` of a new
 * `if … end` inside a rewritten Lua or Julia body are not the body's own closer.
 */
function newWordBlockLines(s: Lines, i: number): Set<number> {
  const inside = new Set<number>();
  for (let p = i; p < s.text.length; p++) {
    if (s.blank[p] || startsWithCloser(s.norm[p]!) || WORD_CLOSER_LINE.test(s.norm[p]!)) continue;
    let c = p + 1;
    while (c < s.text.length && (s.blank[c] || s.indent[c]! > s.indent[p]!)) c++;
    if (c === solidRow(s, p, 1) || c >= s.text.length || s.indent[c] !== s.indent[p] || !WORD_CLOSER_LINE.test(s.norm[c]!)) continue;
    for (let x = p + 1; x <= c; x++) inside.add(x);
  }
  return inside;
}

/** A line that is only a word closer. */
const WORD_CLOSER_LINE = /^(?:end[;.]?|fi|esac|done)$/;

/**
 * A rewritten block tail: the segment continues with new lines and then a closing line (`}`, `end`,
 * `</div>`) that closes the block the original is still inside. The original lines up to that closer,
 * all indented deeper than it, are the old body the new lines replace.
 */
function findCloser(s: Lines, o: Lines, i: number, j: number, limit: number, delta: number, segDelta = delta, blocks: BlockPairs | null = null): [number, number] | null {
  let x = i;
  const inNewBlock = newWordBlockLines(s, i);
  // The closer of a new block (`} catch {` … `}`, a new `for … end`) is passed over for the one after it.
  while (x < s.text.length && (s.blank[x] || !s.weak[x] || blocks?.closesNewBlock(x) || inNewBlock.has(x))) x++;
  if (x >= s.text.length) return null;
  if (!closesOuterBlock(s, i, x)) return null;
  const end = Math.min(limit, o.text.length, j + MAX_CLOSER_DISTANCE);
  const at = (want: number): [number, number] | null => {
    for (let y = j; y < end; y++) {
      if (o.blank[y]) continue;
      if (o.indent[y]! < want) return null;
      if (o.indent[y] === want) return o.norm[y] === s.norm[x] ? [x, y] : null;
    }
    return null;
  };
  // The lines before the closer may have moved into a new block (`BEGIN TRY` around a body): the
  // closer of the outer block then keeps the segment's own shift.
  return at(s.indent[x]! + delta) ?? (segDelta !== delta ? at(s.indent[x]! + segDelta) : null);
}

/**
 * Indentation-structured blocks (Python, YAML) have no closing line to anchor on. When the segment
 * rewrites a block body (new lines deeper than a matched header) and the marker after it sits at or
 * left of that header, the block is finished in the update: the rest of the old body goes too.
 */
function closeIndentedBlock(seg: Segment, o: Lines, pairs: Array<[number, number]>, end: number, limit: number): number {
  const s = seg.lines;
  if (seg.markerAfterIndent === null || end >= limit || pairs.length === 0) return end;
  let j = end;
  while (j < limit && o.blank[j]) j++;
  if (j >= limit) return end;
  // The header: the last matched line left of the original's next line.
  let h = -1;
  for (let p = pairs.length - 1; p >= 0; p--) {
    if (o.indent[pairs[p]![1]]! < o.indent[j]!) {
      h = p;
      break;
    }
  }
  if (h < 0) return end;
  const [hi, hj] = pairs[h]!;
  if (!o.norm[hj]!.endsWith(':') || seg.markerAfterIndent > s.indent[hi]!) return end;
  // Body lines shown as they were after the header: the new lines are added after them (the
  // fields of a dataclass, then one more), the members below stay.
  for (let p = h + 1; p < pairs.length; p++) if (!o.blank[pairs[p]![1]]) return end;
  // Bracket languages close the block with a line of their own (`};` after `private:`): not ours.
  for (let y = end; y < o.text.length; y++) {
    if (o.blank[y] || o.indent[y]! > o.indent[hj]!) continue;
    if (o.weak[y] && startsWithCloser(o.norm[y]!)) return end;
    break;
  }
  // Only when the segment ends in rewritten code back at the body's first level: a segment that
  // ends on an unchanged line, or deeper inside a nested block, leaves the rest of the body alone.
  const matchedSeg = new Set(pairs.map(([i]) => i));
  let lastContent = s.text.length - 1;
  while (lastContent > hi && s.blank[lastContent]) lastContent--;
  let firstBody = hi + 1;
  while (firstBody < s.text.length && s.blank[firstBody]) firstBody++;
  if (lastContent <= hi || firstBody > lastContent || matchedSeg.has(lastContent)) return end;
  if (s.indent[lastContent]! > s.indent[firstBody]! || s.indent[firstBody]! <= s.indent[hi]!) return end;
  let last = end - 1;
  for (let y = end; y < limit; y++) {
    if (o.blank[y]) continue;
    if (o.indent[y]! <= o.indent[hj]!) break;
    last = y;
  }
  return last + 1;
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

/** Net count of opening minus closing brackets over lines [a, b) (string contents are not skipped). */
function bracketBalance(l: Lines, a: number, b: number): number {
  let d = 0;
  for (let j = a; j < b; j++) d += bracketDelta(l.text[j]!);
  return d;
}

/** How far from the file's edge an unanchored edge segment may reach, in multiples of its length. */
const EDGE_REACH = 3;
const MAX_EDGE_REACH = 64;

/**
 * An unanchored segment at the file's start or end: the span [a, hi) ('tail') or [lo, b) ('head')
 * whose LCS with the segment, minus the original lines it would delete, is best.
 */
function bestEdgeSpan(s: Lines, o: Lines, lo: number, hi: number, side: 'head' | 'tail' | 'whole'): Span {
  if (side === 'whole') {
    const pairs: Array<[number, number]> = [];
    fillGap(s, -1, s.text.length, o, lo - 1, hi, 0, pairs);
    return { start: lo, end: hi, pairs, delta: 0 };
  }
  const n = s.text.length;
  const segBalance = bracketBalance(s, 0, n);
  const reach = Math.min(hi - lo, EDGE_REACH * n + 2, MAX_EDGE_REACH);
  let best: Span = side === 'tail' ? { start: hi, end: hi, pairs: [], delta: 0 } : { start: lo, end: lo, pairs: [], delta: 0 };
  let bestScore = 0;
  for (let len = 1; len <= reach; len++) {
    const a = side === 'tail' ? hi - len : lo;
    const b = side === 'tail' ? hi : lo + len;
    const pairs: Array<[number, number]> = [];
    fillGap(s, -1, n, o, a - 1, b, 0, pairs);
    // Every original line in the span must be matched or it is deleted; the span's outer edge must match.
    const edgeMatched = pairs.some(([, j]) => j === (side === 'tail' ? a : b - 1));
    if (!edgeMatched) continue;
    // The replaced original text must open and close as many brackets as the segment does, so a
    // new block's `}` does not stand in for the original's.
    if (bracketBalance(o, a, b) !== segBalance) continue;
    const score = pairs.length - 1.01 * (len - pairs.length);
    if (score > bestScore) {
      bestScore = score;
      best = { start: a, end: b, pairs, delta: 0 };
    }
  }
  return best;
}

const IMPORT_LIKE = /^(import\b|from\s+\S+\s+import\b|#include\b|using\b|use\b|require\b|const\s+\w+\s*=\s*require\(|@import\b|package\b)/;

/**
 * Places a segment with no anchor inside the free window [lo, hi): at the file's end when it is the
 * last segment and no marker follows, at the start when it is the first and none precedes, after the
 * imports when it is imports, else just before hi. Context lines it shares with the window's edges are absorbed.
 */
function placeUnanchored(ctx: MergeContext, seg: Segment, lo: number, hi: number, isFirst: boolean, isLast: boolean): Span {
  const o = ctx.orig;
  const s = seg.lines;
  const n = s.text.length;
  const pairs: Array<[number, number]> = [];
  const insertAt = (g: number): Span => ({ start: g, end: g, pairs, delta: 0 });
  if (!seg.markerAfter && isLast) {
    // A new definition after a marker is appended, not matched against the last one (appended-definition.ts).
    if (seg.markerBefore && (newTrailingDefinition(s, o) || newTrailingDefinitions(s, o))) return insertAt(beforeOuterClosers(o, s, lo, hi));
    // The segment ends the file: choose its start so it replaces the original tail it matches best.
    const tail = pastCopiedLead(s, o, bestEdgeSpan(s, o, lo, hi, seg.markerBefore ? 'tail' : 'whole'));
    // New lines only, after a marker: like a new definition, inside the blocks the window's closers end.
    if (seg.markerBefore && tail.pairs.length === 0 && tail.start === hi && tail.end === hi) return insertAt(beforeOuterClosers(o, s, lo, hi));
    return tail;
  }
  if (!seg.markerBefore && isFirst) return bestEdgeSpan(s, o, lo, hi, 'head');
  let firstContent = 0;
  while (firstContent < n && s.blank[firstContent]) firstContent++;
  if (IMPORT_LIKE.test(s.norm[firstContent] ?? '')) {
    let lastImport = -1;
    for (let j = lo; j < hi; j++) if (IMPORT_LIKE.test(o.norm[j]!)) lastImport = j;
    if (lastImport >= 0) return insertAt(lastImport + 1);
  }
  // Just before hi, past trailing blank lines of the window so the insert sits after the last code.
  let g = beforeOuterClosers(o, s, lo, hi);
  while (g > lo && o.blank[g - 1]) g--;
  return insertAt(g);
}

/**
 * A tail span whose segment opens (blank lines aside) with a block copied from the original block
 * it was matched into (copied-sibling.ts: a new route written like the last one): the copy is new
 * lines, so the span starts after that original block, which stays, and its lines pair with nothing.
 */
function pastCopiedLead(s: Lines, o: Lines, span: Span): Span {
  const copies = copiedRanges(s, o, span.pairs);
  if (copies.length === 0) return span;
  const first = Math.min(...copies.map(([sb]) => sb[0]));
  if (span.pairs.some(([i]) => i < first && !s.blank[i])) return span;
  const past = Math.max(...copies.map(([, ob]) => ob[1] + 1));
  if (past > span.end) return span;
  return { ...span, start: Math.max(span.start, past), pairs: outsideCopies(span.pairs, copies).filter(([, j]) => j >= past) };
}

/**
 * Where new lines written at a member's depth go when the previous hunk stands inside a block whose
 * closer the update does not show (`companion object {…}` after `// ... the other methods ...`, the
 * class's `}` left out): before that closer, the first line after lo shallower than the segment, when
 * it lies in the window [lo, hi). hi otherwise: a segment at column 0, no previous hunk, a previous
 * hunk outside such a block, a block ended by a dedent rather than a closer.
 */
function beforeOuterClosers(o: Lines, s: Lines, lo: number, hi: number): number {
  let first = 0;
  while (first < s.text.length && s.blank[first]) first++;
  const depth = s.indent[first] ?? 0;
  const above = solidRow(o, lo, -1);
  if (depth === 0 || above < 0 || o.indent[above]! < depth) return hi;
  for (let y = lo; y < hi; y++) {
    if (o.blank[y] || o.indent[y]! >= depth) continue;
    return CLOSER_ONLY.test(o.norm[y]!) ? y : hi;
  }
  return hi;
}

/**
 * `branches:` (a block header ending the previous segment), an indented marker, then new lines with
 * no anchor (`- next`): the marker stands for the block's existing lines, so the new lines go at the
 * end of that block. Returns the insertion line, or -1 when the previous segment does not end on a
 * matched header that the segment and its marker sit inside.
 */
function endOfShownBlock(o: Lines, prev: Segment, prevSpan: Span, seg: Segment, lo: number, hi: number): number {
  const p = prev.lines;
  let last = p.text.length - 1;
  while (last >= 0 && p.blank[last]) last--;
  const pair = prevSpan.pairs.find(([i]) => i === last);
  if (!pair || prev.markerAfterIndent === null) return -1;
  const h = pair[1];
  const s = seg.lines;
  let first = 0;
  while (first < s.text.length && s.blank[first]) first++;
  if (first >= s.text.length || !/[:{[(]$/.test(o.norm[h]!)) return -1;
  if (prev.markerAfterIndent <= p.indent[last]! || s.indent[first]! <= p.indent[last]!) return -1;
  // The header's block: deeper lines after it (its closing line, when it has one, stays after the insert).
  let end = h + 1;
  for (let y = h + 1; y < o.text.length && (o.blank[y] || o.indent[y]! > o.indent[h]!); y++) if (!o.blank[y]) end = y + 1;
  return end >= lo && end <= hi ? end : -1;
}

/** Segment lines and window lines examined when looking for an edited-line anchor. */
const MAX_SIMILAR_SEGMENT_LINES = 24;
const MAX_SIMILAR_WINDOW = 20_000;
/**
 * For a segment whose lines all changed: the most similar (segment line, original line) pair in the
 * window, e.g. `timeoutMs: 30000,` for `timeoutMs: 10000,`.
 */
function similarAnchor(ctx: MergeContext, seg: Segment, lo: number, hi: number, leads: string[]): Chain {
  const o = ctx.orig;
  const s = seg.lines;
  const found: Array<{ i: number; j: number; score: number }> = [];
  let seen = 0;
  for (let i = 0; i < s.text.length && seen < MAX_SIMILAR_SEGMENT_LINES; i++) {
    if (s.weak[i]) continue;
    seen++;
    const lead = firstToken(s.norm[i]!);
    for (let j = lo; j < hi && j - lo < MAX_SIMILAR_WINDOW; j++) {
      // Same first token first (cheap), then the full test: edits rarely change how a line starts.
      if (o.weak[j] || leads[j] !== lead || !editedVersion(o.norm[j]!, s.norm[i]!)) continue;
      if (otherDefinition(o.norm[j]!, s.norm[i]!) || (otherStyleRule(o.norm[j]!, s.norm[i]!) && !renameShownInPlace(s, i, o, j)) || (namesDiffer(o.norm[j]!, s.norm[i]!) && !renameShownInPlace(s, i, o, j)) || !sameOwner(s, i, o, j) || !sameDepth(s, i, o, j) || inOtherNewBlock(ctx, s, i, o, j)) continue;
      // Not a line under another head than the one the update shows it under (foreign-head.ts): such
      // a line is no candidate at all, so the twin under the shown head is picked among the rest.
      if (underOtherHead(ctx, seg, i, j)) continue;
      found.push({ i, j, score: dice(o.norm[j]!, s.norm[i]!) });
    }
  }
  if (found.length === 0) return [];
  found.sort((a, b) => b.score - a.score || a.j - b.j);
  // One candidate per implied stretch (the most similar line in it).
  const starts = new Set<number>();
  const stretches = found.filter(({ i, j }) => !starts.has(j - i) && starts.add(j - i));
  // A line shown with only its trailing separator changed is that line (a member appended after it):
  // it outweighs real edits of other lines, whose stretches may hold more of the segment's tokens
  // when its new lines copy their neighbours (`akka-http-testkit` beside `akka-http`).
  const unchanged = stretches.filter(({ i, j }) => separatorChanged(o.norm[j]!, s.norm[i]!));
  const cands = (unchanged.length > 0 ? unchanged : stretches).slice(0, MAX_SIMILAR_CANDIDATES);
  const picked = cands.length > 1 ? distinctiveCandidate(s, o, cands) : cands[0]!;
  return [[picked.i, picked.j]];
}

const DEFINITION = /^(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:def|function|func|fn|class|struct|enum|interface|trait|CREATE\s+(?:UNIQUE\s+)?(?:OR\s+REPLACE\s+)?(?:TABLE|VIEW|INDEX|FUNCTION|PROCEDURE|TRIGGER|TYPE|SEQUENCE)(?:\s+IF\s+NOT\s+EXISTS)?)\s+([\w$.]+)/i;

/**
 * Two lines that each define something, under different names (`CREATE INDEX orders_user_idx` and
 * `CREATE INDEX orders_status_idx`): a new definition beside the old one, not its edit, when nothing
 * else anchors the segment.
 */
function otherDefinition(a: string, b: string): boolean {
  const na = DEFINITION.exec(a)?.[1];
  const nb = DEFINITION.exec(b)?.[1];
  return na !== undefined && nb !== undefined && na !== nb;
}

/** Edited-line candidates compared by the segment's distinctive tokens. */
const MAX_SIMILAR_CANDIDATES = 8;

/**
 * Twin lines (a Prev and a Next button) are both edited versions of the segment's changed line, and
 * the one most alike character by character may be the wrong twin. The original stretch each
 * candidate implies (as long as the segment) is scored by the segment's tokens it holds, each token
 * weighted by how few candidate stretches hold it (`Next`, `+` decide; `button`, `onClick` do not).
 * Ties keep the most similar line.
 */
function distinctiveCandidate(s: Lines, o: Lines, cands: Array<{ i: number; j: number; score: number }>): { i: number; j: number; score: number } {
  const segTokens = new Set<string>();
  for (let i = 0; i < s.text.length; i++) if (!s.blank[i]) for (const t of tokens(s.norm[i]!)) segTokens.add(t);
  const windows = cands.map(({ i, j }) => {
    const held = new Set<string>();
    const a = Math.max(0, j - i);
    for (let y = a; y < Math.min(o.text.length, a + s.text.length); y++) for (const t of tokens(o.norm[y]!)) if (segTokens.has(t)) held.add(t);
    return held;
  });
  const holders = new Map<string, number>();
  for (const w of windows) for (const t of w) holders.set(t, (holders.get(t) ?? 0) + 1);
  let best = 0;
  let bestScore = -1;
  windows.forEach((w, c) => {
    let score = 0;
    for (const t of w) score += 1 / holders.get(t)!;
    if (score > bestScore + 1e-9) {
      bestScore = score;
      best = c;
    }
  });
  return cands[best]!;
}

/** Cells above which the weak-line alignment of an unanchored segment is skipped. */
const MAX_WEAK_CELLS = 2_000_000;
const MAX_WEAK_TOTAL_CELLS = 20_000_000;

/**
 * A segment made only of new lines and common ones (`return true;`, `}`): align it to its window by
 * LCS (indentation-exact) and keep the densest cluster of non-blank matches as its anchors.
 */
function weakAnchor(ctx: MergeContext, seg: Segment, lo: number, hi: number, budget: { cells: number }): Chain {
  const s = seg.lines;
  const o = ctx.orig;
  const cells = (hi - lo) * s.text.length;
  if (cells > MAX_WEAK_CELLS || cells > budget.cells || hi <= lo) return [];
  budget.cells -= cells;
  const pairs: Array<[number, number]> = [];
  fillGap(s, -1, s.text.length, o, lo - 1, hi, 0, pairs);
  const solid = pairs.filter(([i]) => !s.blank[i]);
  if (solid.length === 0) return [];
  let best: Chain = [];
  let cur: Chain = [];
  for (const p of solid) {
    const prev = cur[cur.length - 1];
    if (prev && p[1] - prev[1] > p[0] - prev[0] + 3) {
      if (cur.length > best.length) best = cur;
      cur = [];
    }
    cur.push(p);
  }
  if (cur.length > best.length) best = cur;
  return best;
}

/**
 * An edited-line chain without the pairs inside a block the segment copies from the one it was
 * matched into (copied-sibling.ts): the head of a new sibling (`post("/{id}/renew") {` written like
 * `post("/{id}/return") {`) read as that head's edit would stand the copy in for its neighbour.
 */
function outsideCopiedHeads(s: Lines, o: Lines, chain: Chain, renamedOnly = false): Chain {
  if (chain.length === 0) return chain;
  const copies = copiedRanges(s, o, fillChain(s, o, chain), renamedOnly);
  return copies.length === 0 ? chain : outsideCopies(chain, copies);
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

/**
 * New lines going in at the end of a shown block (before original line p, its closer): when the
 * segment ends with the block's own last lines (`return nil` / `}`, as the original has them up to
 * and including p), those are paired with them and the new lines go before them (set j go05).
 */
function closingTailAt(s: Lines, o: Lines, p: number, lo: number): Span {
  const pairs: Array<[number, number]> = [];
  let i = s.text.length - 1;
  let j = p;
  while (i >= 0 && s.blank[i]) i--;
  // Net brackets the segment opens before row x: a line closing a block the segment itself opened is new.
  let open = 0;
  for (let x = 0; x < i; x++) open += bracketDelta(s.text[x]!);
  while (i >= 0 && j >= lo && j < o.text.length && !s.blank[i] && !o.blank[j] && s.norm[i] === o.norm[j] && s.indent[i] === o.indent[j] && open <= 0) {
    pairs.unshift([i, j]);
    i--;
    j--;
    if (i >= 0) open -= bracketDelta(s.text[i]!);
  }
  // Only the closer itself, or nothing, matched: the plain insertion before p.
  if (pairs.length < 2) return { start: p, end: p, pairs: [], delta: 0 };
  return { start: j + 1, end: p + 1, pairs, delta: 0 };
}

interface OutLine {
  text: string;
  /** The line's own terminator when it comes from the original; null = the file's dominant one. */
  eol: string | null;
  /** The original row a marker kept here (not shown by the update); undefined for update lines. */
  from?: number;
}

/** The text a segment contributes: original text where a line is unchanged, update text (rebased) elsewhere. */
function segmentOutput(o: Lines, seg: Segment, span: Span, out: OutLine[]): void {
  const s = seg.lines;
  const matched = new Map<number, number>();
  for (const [i, j] of span.pairs) matched.set(i, j);
  let lastContent = s.text.length - 1;
  while (lastContent >= 0 && s.blank[lastContent]) lastContent--;
  for (let i = 0; i < s.text.length; i++) {
    if (span.drop?.has(i)) continue;
    const j = matched.get(i);
    // Unchanged line: the original's bytes (tabs, trailing spaces). Internal whitespace the update
    // changed (gofmt re-aligning fields) is an edit, so that line comes from the update.
    if (j !== undefined && s.norm[i] === o.norm[j] && o.indent[j]! - s.indent[i]! === span.delta &&
        s.text[i]!.trim() === o.text[j]!.trim()) {
      out.push({ text: o.text[j]!, eol: o.eol[j] || null });
      continue;
    }
    // Its separator dropped right before a marker that stands for the members after it: unchanged (member-separators.ts).
    if (j !== undefined && separatorDroppedBeforeMarker(s.norm[i]!, o.norm[j]!, seg.markerAfter && i === lastContent)) {
      out.push({ text: o.text[j]!, eol: o.eol[j] || null });
      continue;
    }
    const t = s.text[i]!;
    if (s.blank[i]) {
      out.push({ text: '', eol: null });
      continue;
    }
    const lead = t.length - t.trimStart().length;
    const ws = t.slice(0, lead);
    if (j !== undefined && s.norm[i] === o.norm[j] && o.indent[j]! - s.indent[i]! === span.delta) {
      out.push({ text: o.text[j]!.slice(0, o.text[j]!.length - o.text[j]!.trimStart().length) + t.trim(), eol: o.eol[j] || null });
      continue;
    }
    const styleClash = (o.usesTabs && ws.includes(' ') && !ws.includes('\t')) || (!o.usesTabs && ws.includes('\t') && o.indent.some((x) => x > 0));
    if (span.delta === 0 && !styleClash) out.push({ text: t, eol: null });
    else out.push({ text: indentText(s.indent[i]! + span.delta, o.usesTabs) + t.slice(lead), eol: null });
  }
}

/** Assembles the merged file; `removed` marks original lines dropped by the instruction. */
export function assemble(ctx: MergeContext, spans: Span[], removed: ReadonlySet<number>): string {
  const o = ctx.orig;
  const out: OutLine[] = [];
  let cursor = 0;
  const keep = (a: number, b: number, shift = 0): void => {
    for (let j = a; j < b; j++) if (!removed.has(j)) out.push({ text: shiftedText(o, j, shift), eol: o.eol[j] || null, from: j });
  };
  for (let k = 0; k < spans.length; k++) {
    const sp = spans[k]!;
    const seg = ctx.segments[k]!;
    const start = Math.max(sp.start, cursor);
    // Lines a marker stands for inside a block the update re-indents move with it (marked-shift.ts).
    const shift = k > 0 && start > cursor ? markedShift(o, { seg: ctx.segments[k - 1]!, pairs: spans[k - 1]!.pairs, delta: spans[k - 1]!.delta }, { seg, pairs: sp.pairs, delta: sp.delta }, cursor, start) : 0;
    if (seg.markerBefore || k > 0) keep(cursor, start, shift);
    segmentOutput(o, seg, sp, out);
    cursor = Math.max(cursor, sp.end);
  }
  const lastSeg = ctx.segments[ctx.segments.length - 1];
  if (!lastSeg || lastSeg.markerAfter) keep(cursor, o.text.length);
  // A member appended after an original last member the update does not show takes its comma.
  carrySeparators(out, o);
  return renderLines(out, o.dominantEol, o.finalNewline || o.text.length === 0);
}

