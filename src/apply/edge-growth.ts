// Grows a segment's edges from its first and last anchors over the original lines next to them:
// context the update shows, lines it edits in place, a few deleted lines skipped, a rewritten block's closer.
import { codeBracketDelta } from './brackets.js';
import { blockPairs } from './new-block-closers.js';
import { contextAboveWrapper, editedBeyondInsert, wrappedInNewBlock } from './edge-edits.js';
import { atSegmentEdge, continuedOnNext, wrapsWholeLine } from './edge-line-edit.js';
import type { Lines } from './lines.js';
import { extendedInPlace } from './extended-line.js';
import { renamedHeaderBeforeMarker } from './header-at-marker.js';
import { CLOSER_LINE, editedVersion, firstToken, opensBlock, renamedInPlace, sameStatementEdited, solidRow, tokens } from './lines.js';
import { copiesOtherLine, newNameBesideOld } from './new-name-evidence.js';
import { namesDiffer, renameShownInPlace, rowNamesDiffer, sameDepth, sameOwner } from './line-identity.js';
import { anotherElement, anotherItem, anotherSibling, pastNewItem } from './sibling-items.js';
import { pastCopiedBlock } from './copied-sibling.js';
import { sameSectionKey } from './flat-sections.js';
import { newSiblingLine } from './edit-evidence.js';
import { fillEqual } from './gap-fill.js';
import { tailCloser } from './segment-closers.js';

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
export function grow(s: Lines, o: Lines, i0: number, j0: number, dir: 1 | -1, limit: number, delta: number, first: [number, number] = [i0, j0], segDelta = delta, paired?: Map<number, number>, markerAbove = false): Array<[number, number]> {
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

const DEFINITION = /^(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:def|function|func|fn|class|struct|enum|interface|trait|CREATE\s+(?:UNIQUE\s+)?(?:OR\s+REPLACE\s+)?(?:TABLE|VIEW|INDEX|FUNCTION|PROCEDURE|TRIGGER|TYPE|SEQUENCE)(?:\s+IF\s+NOT\s+EXISTS)?)\s+([\w$.]+)/i;

/**
 * Two lines that each define something, under different names (`CREATE INDEX orders_user_idx` and
 * `CREATE INDEX orders_status_idx`): a new definition beside the old one, not its edit, when nothing
 * else anchors the segment.
 */
export function otherDefinition(a: string, b: string): boolean {
  const na = DEFINITION.exec(a)?.[1];
  const nb = DEFINITION.exec(b)?.[1];
  return na !== undefined && nb !== undefined && na !== nb;
}
