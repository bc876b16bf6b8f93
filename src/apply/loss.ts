// The no-loss invariant of an apply: an original line may be missing from the merged file only when
//   (a) 'replaced'        an update line that reads as its edit stands in its place,
//   (b) 'between-anchors' it lies between two original lines that one update segment shows in order
//                         with no marker between them, inside the same block (nothing between them
//                         sits left of both), weak anchors (`}`, `return err`) backed by context, or
//   (c) 'instructed'      the instruction asks to remove the definition it belongs to.
// Computed from the original, the update, the instruction and the output alone (an LCS alignment of
// the original's non-blank lines against the output's), so it serves both as the merge's final pass
// (restoreLost puts unlicensed lines back) and as the test oracle.
import { braceDelta, closesAt, openedAt } from './brackets.js';
import { alignLines } from './line-diff.js';
import { closerRepunctuated } from './closer-resume.js';
import { separatorChanged } from './member-separators.js';
import { movedEdit, wrappedCopy } from './wrapped-run.js';
import { wrapsLine } from './wrapped-line.js';
import { declaresBare, hoistedAssignment } from './hoisted-declaration.js';
import { wrappedInNewBlock } from './edge-edits.js';
import { editedVersion, exactText, lineCounts, renamedInPlace, sameStatementEdited, solidRow, splitLines, type Lines } from './lines.js';
import { asksForRemoval } from './removals.js';
import { withSwappedDefinitions } from './syntax/swap-licence.js';
import { keyEditedAtPath, newAtKeyPath } from './key-path.js';
import { sameSectionKey } from './flat-sections.js';
import { leftOutDocRows, unmentionedDefinitionRows } from './licence-rules.js';
import { INLINE_MARKER } from './markers.js';
import { extendedInPlace } from './extended-line.js';
import { renamedThroughout } from './rename-evidence.js';
import { asCloseToKeptLine, closerToKeptLine, newSiblingLine } from './edit-evidence.js';
import { otherHeadOverRewrittenBody } from './rewritten-head.js';
import { rotatedReadings } from './rotated-gap.js';
import { deadImportRows } from './dead-imports.js';
import { leavesNameDangling, usedDefinitionRows } from './dangling-name.js';
import { rowsBetweenEdits, type PairedEdit } from './between-edits.js';
import { terminalReplaced } from './terminal-edit.js';
import { sameTargetRewrite } from './same-target-edit.js';
import { shownInPlace, siblingBesideOld } from './parallel-names.js';
import { rebuild } from './restored-lines.js';
import { type UpdateView, fromInline, shownAt, shownUnder, soleMemberShown, key, updateView, unexpandedInline } from './update-view.js';
import { shownAdjacent } from './adjacent-anchors.js';
import { blockRestReplaced, editedBlockRest, braceRow } from './replaced-blocks.js';
import { otherNamed, headsBlock } from './other-named.js';
import { instructedLines } from './instructed-lines.js';
import { countedLoss } from './counted-loss.js';

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

export { INLINE_MARKER };
/** Read by merge.ts from here, as before the view moved to update-view.ts. */
export { readsAsWholeFile } from './update-view.js';

/** The output holds lines of its own between the gap's two kept lines (not a pure deletion). */
export function gapHoldsOutput(g: Gap, out: Lines): boolean {
  for (let k = g.kp + 1; k < g.kq; k++) if (!out.blank[k]) return true;
  return false;
}

/** Curly braces opened before each row (the running sum of braceDelta). */
function bracketDepths(text: readonly string[]): number[] {
  const depth = [0];
  for (let r = 0; r < text.length; r++) depth.push(depth[r]! + braceDelta(text[r]!));
  return depth;
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
