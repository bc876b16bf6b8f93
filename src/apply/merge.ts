// The merge engine's entry point: original code + update snippet (+ instruction) → merged file.
// Pure and deterministic. `fast` = greedy anchored alignment, `large` = global sequence alignment,
// `auto` = fast unless fast had to guess, then large; the result says which ran.
import { renderLines, splitLines, type Lines } from './lines.js';
import { buildContext, splitUpdate, type Chain, type MergeContext } from './merge-context.js';
import { fastChains, fileOrder } from './merge-fast.js';
import { finishPlacement, type Span } from './merge-finish.js';
import { assemble } from './assemble.js';
import { largeChains } from './merge-large.js';
import { expandBodyMarkers } from './body-markers.js';
import { hasByteOrderMark, withByteOrderMark, withoutByteOrderMark } from './byte-order-mark.js';
import { impliedEdgeMarkers } from './edge-markers.js';
import { fileOrderHolds, splitAtJumps } from './hunk-order.js';
import { instructionNames } from './instruction-scope.js';
import { locationComments, withPlaces } from './location-comments.js';
import { proseLocators } from './prose-locators.js';
import { expandUpdate } from './marker-expansion.js';
import { rescaleIndentUnit } from './indent-unit.js';
import { placeByInstruction } from './instructed-place.js';
import { placeNewDefinition } from './new-definition.js';
import { repeatShownEdits } from './same-change.js';
import { renamedOriginal, renameKeptLines, renameTokens } from './instructed-rename.js';
import { checkLoss, readsAsWholeFile, removedByAdjacency, restoreLost } from './loss.js';
import { markerOnlyMerge } from './marker-only.js';
import type { ApplyInput } from './parse.js';
import { asksForRemoval, instructedRemovals, instructedUnits, removalNames, removeInstructed, replacedPhrases } from './removals.js';
import { replacedParts, withoutDeadImports } from './dead-imports.js';
import type { MergeReport } from './report.js';
import { syntaxPass, type SyntaxPass } from './syntax/place.js';
import { newSyntaxErrors } from './syntax/parse-check.js';
import { parsingAlternative, type Alternative } from './parsing-alternative.js';
import { swapDropsCommentedCode } from './syntax/swap-licence.js';
import { topLocatedUpdate } from './top-location.js';
import { keptAlignment } from './kept-alignment.js';
import { commentsBesideEdits, leftOutComments, withCommentsBeside, withCommentsKept } from './left-out-comments.js';
import { withEditedDefinitionDocs } from './edited-definition-docs.js';
import { keptBesideEdit, rewrittenBesideEdit, withoutRows } from './kept-beside-edit.js';
import { supersededBlocks } from './superseded-blocks.js';
import { doubledRuns } from './doubled-runs.js';
import { linesAfterExit } from './after-exit.js';
import { withoutReplacedTerminals } from './terminal-edit.js';
import { removalUndone } from './undone-removal.js';
import { keptNamedRemovals } from './kept-named-removal.js';

export type MergeMode = 'fast' | 'large' | 'auto';
export type ApplyModelId = 'svc-v3-fast' | 'svc-v3-large';

export interface MergeResult {
  content: string;
  /** The algorithm that produced `content`. */
  model: ApplyModelId;
  /** 0..1; 1 when every segment was anchored without a competing placement. */
  confidence: number;
  /** Human-readable notes on every guess made (empty = unambiguous). */
  ambiguities: string[];
  /** Why the update was taken as the whole new file, when it was. */
  fullReplacement: boolean;
  /** What the merge did: hunks placed and by which rule, original lines kept by the no-loss pass. */
  report: MergeReport;
}

/** Deleting more than this share of the original through omission is flagged for review. */
const DELETION_FLAG_RATIO = 0.3;

function keptMask(ctx: MergeContext, spans: Span[]): Uint8Array {
  const N = ctx.orig.text.length;
  const kept = new Uint8Array(N);
  let cursor = 0;
  for (let k = 0; k < spans.length; k++) {
    const sp = spans[k]!;
    const start = Math.max(sp.start, cursor);
    if (ctx.segments[k]!.markerBefore || k > 0) for (let j = cursor; j < start; j++) kept[j] = 1;
    cursor = Math.max(cursor, sp.end);
  }
  const last = ctx.segments[ctx.segments.length - 1];
  if (!last || last.markerAfter) for (let j = cursor; j < N; j++) kept[j] = 1;
  return kept;
}

function deletionRatio(ctx: MergeContext, spans: Span[], kept: Uint8Array): number {
  const N = ctx.orig.text.length;
  if (N === 0) return 0;
  const present = new Uint8Array(N);
  for (let j = 0; j < N; j++) if (kept[j]) present[j] = 1;
  for (const sp of spans) for (const [, j] of sp.pairs) present[j] = 1;
  let gone = 0;
  for (let j = 0; j < N; j++) if (!present[j] && !ctx.orig.blank[j]) gone++;
  return gone / N;
}

/** Original rows the instruction removes ("drop the flower service"), read before matching: the matcher may delete across them. */
function instructionRemovable(orig: Lines, input: ApplyInput): ReadonlySet<number> | undefined {
  if (!input.instruction || !asksForRemoval(input.instruction)) return undefined;
  const rows = instructedRemovals(orig, new Uint8Array(orig.text.length).fill(1), input.instruction, input.update, undefined, undefined, input.written);
  return rows.size > 0 ? rows : undefined;
}

function finish(ctx: MergeContext, chains: Chain[], input: ApplyInput, model: ApplyModelId, confidence: number, notes: string[]): MergeResult {
  const placed = finishPlacement(ctx, chains);
  const kept = keptMask(ctx, placed.spans);
  const removed = instructedRemovals(ctx.orig, kept, input.instruction, input.update, undefined, undefined, input.written);
  const ambiguities = [...notes, ...placed.ambiguities];
  const ratio = deletionRatio(ctx, placed.spans, kept);
  if (ratio > DELETION_FLAG_RATIO) ambiguities.push(`the update deletes ${(ratio * 100).toFixed(0)}% of the original by omission`);
  // A name the instruction removes that two units carry (named-units.ts): both stay, for review.
  const unclear: string[] = [];
  instructedUnits(ctx.orig, input.instruction, input.written ?? input.update, unclear);
  if (unclear.length > 0) ambiguities.push(`the instruction removes ${unclear.join(', ')}, which more than one place names: nothing removed`);
  const conf = ambiguities.length === 0 ? confidence : Math.min(confidence, 0.5);
  const report: MergeReport = {
    hunks: placed.rules.map((rule, k) => ({ rule, start: placed.spans[k]!.start, end: placed.spans[k]!.end })),
    removedByInstruction: removed.size,
    restored: [],
    wholeFile: false,
  };
  const instructed = removeInstructed(assemble(ctx, placed.spans, removed), input.instruction, input.update, input.code, input.written);
  // An import whose last uses the removal or replacement took goes with them (dead-imports.ts).
  const content = withoutDeadImports(instructed, input.code, input.update, input.instruction);
  return keepOriginal(input, { content, model, confidence: conf, ambiguities, fullReplacement: false, report }, ctx.orig);
}

/** Below this confidence a merge that had to put original lines back reports itself. */
const RESTORED_CONFIDENCE = 0.4;

/**
 * The no-loss pass every merge ends with: original lines missing from the result that no rule
 * licenses (src/apply/loss.ts) are put back where they stood, and the merge says so (its
 * confidence drops, so `auto` hands the request to svc-v3-large).
 */
function keepOriginal(input: ApplyInput, r: MergeResult, orig?: Lines): MergeResult {
  const { content, restored } = restoreLost(input.code, input.judged ?? input.update, input.instruction, r.content, orig);
  if (restored.length === 0) return r;
  const note = `kept ${restored.length} original line(s) the update did not remove (${describeLines(restored)}): placement was uncertain`;
  return {
    ...r,
    content,
    confidence: Math.min(r.confidence, RESTORED_CONFIDENCE),
    ambiguities: [...r.ambiguities, note],
    report: { ...r.report, restored },
  };
}

/** "3-7, 12" for 0-based line indices (printed 1-based). */
function describeLines(lines: number[]): string {
  const parts: string[] = [];
  for (let a = 0; a < lines.length; ) {
    let b = a;
    while (b + 1 < lines.length && lines[b + 1] === lines[b]! + 1) b++;
    parts.push(a === b ? `${lines[a]! + 1}` : `${lines[a]! + 1}-${lines[b]! + 1}`);
    a = b + 1;
  }
  return parts.length > 6 ? `${parts.slice(0, 6).join(', ')}, …` : parts.join(', ');
}

/** A step run on the merged result: it mends it or reports what it doubts. */
type FinishStep = (sent: ApplyInput, r: MergeResult) => MergeResult;

/**
 * The steps run on a merge's result, in order, each on the one before's result: mends read from the
 * result (`with…`, `keep…`) and checks that only lower confidence and say why (`report…`).
 */
function finishSteps(mode: MergeMode): FinishStep[] {
  return [
    withTerminalEdits,
    withDocsOfEdits,
    (sent, r) => keepLeftOutComments(sent, mode, r),
    withKeptAlignment,
    reportAdjacencyRemovals,
    withRewrittenBesideEdit,
    reportKeptBesideEdit,
    reportSupersededBlocks,
    reportUndoneRemoval,
    reportDoubledRuns,
    reportLinesAfterExit,
    reportKeptNamedRemovals,
  ];
}

/**
 * A result that no longer parses where its original did is read again the other ways the pipeline
 * has (parsing-alternative.ts); the first that parses and loses nothing answers. When none does,
 * the result stays and is reported: the error lines go in the report and its confidence drops, so
 * `auto` and the user know to look (syntax/parse-check.ts).
 */
export function mergeApply(sent: ApplyInput, mode: MergeMode): MergeResult {
  // The original's byte-order mark marks the file: merged without it, it starts the result (byte-order-mark.ts).
  if (hasByteOrderMark(sent.code)) {
    const r = mergeApply({ ...sent, code: withoutByteOrderMark(sent.code), update: withoutByteOrderMark(sent.update) }, mode);
    return r.content === '' ? r : { ...r, content: withByteOrderMark(r.content) };
  }
  const result = finishSteps(mode).reduce((r, step) => step(sent, r), mergeOnce(sent, mode));
  const broken = newSyntaxErrors(sent.code, result.content);
  if (!broken) return result;
  const reread = parsingAlternative(sent.code, sent.update, result, broken, alternatives(sent, mode, result));
  if (reread) return reread;
  const note = `the merged file does not parse at line${broken.length > 1 ? 's' : ''} ${broken.join(', ')} where the original did: review it`;
  return { ...result, confidence: Math.min(result.confidence, BROKEN_SYNTAX_CONFIDENCE), ambiguities: [...result.ambiguities, note], report: { ...result.report, syntaxErrors: broken } };
}

/** A block's last `return` the update rewrote after a marker: the old one is not kept above the new one (terminal-edit.ts). */
function withTerminalEdits(sent: ApplyInput, r: MergeResult): MergeResult {
  if (r.content === '' || r.report.wholeFile) return r;
  const content = withoutReplacedTerminals(sent.code, sent.update, r.content);
  return content === r.content ? r : { ...r, content };
}

/**
 * Original comments the result drops only because the update shows the lines around them adjacent
 * (left-out-comments.ts): `fast` keeps its reading and reports it; `large` and `auto` keep them.
 */
function keepLeftOutComments(sent: ApplyInput, mode: MergeMode, merged: MergeResult): MergeResult {
  // Comments that went from beside the hunk's own edit are written back in every mode.
  const beside = merged.content === '' ? [] : commentsBesideEdits(sent.code, sent.update, sent.instruction, merged.content);
  const r = beside.length === 0 ? merged : { ...merged, content: withCommentsBeside(sent.code, merged.content, beside) };
  const stretches = leftOutComments(sent.code, sent.update, sent.instruction, r.content);
  if (stretches.length === 0) return r;
  const rows = stretches.flatMap((s) => s.rows);
  const kept = mode !== 'fast';
  const note = `the update shows the lines around ${rows.length} original comment line(s) (${describeLines(rows)}) adjacent: ${kept ? 'kept them as left out' : 'dropped them as deleted'}`;
  return {
    ...r,
    content: kept ? withCommentsKept(sent.code, r.content, stretches) : r.content,
    model: kept ? 'svc-v3-large' : r.model,
    confidence: Math.min(r.confidence, LEFT_OUT_COMMENTS_CONFIDENCE),
    ambiguities: [...r.ambiguities, note],
  };
}

/** A result that drops original lines only because the update shows their neighbours adjacent is at most this sure of itself. */
const ADJACENCY_REMOVAL_CONFIDENCE = 0.8;

/**
 * Original lines dropped by adjacency where nothing tells a run left out from one deleted
 * (loss.ts `removedByAdjacency`): the deletion stands, as most such edits mean it, but is not
 * silent: the report names the lines and the confidence drops below 1. A whole new file is exempt.
 */
function reportAdjacencyRemovals(sent: ApplyInput, r: MergeResult): MergeResult {
  if (r.content === '' || r.report.wholeFile) return r;
  const rows = removedByAdjacency(sent.code, sent.update, sent.instruction, r.content);
  if (rows.length === 0) return r;
  const note = `removed ${rows.length} original line(s) (${describeLines(rows)}) because the update shows the lines around them adjacent: review`;
  return { ...r, confidence: Math.min(r.confidence, ADJACENCY_REMOVAL_CONFIDENCE), ambiguities: [...r.ambiguities, note], report: { ...r.report, removedByAdjacency: rows } };
}

/**
 * Original lines kept right beside a new line of the update that sets the same key or also returns
 * (kept-beside-edit.ts, the second reading): the first of two such lines is dead beside the second,
 * so the update rewrote it there (rule (a)) and it goes. Only where the no-loss check licenses every
 * line so dropped; the rows are reported.
 */
function withRewrittenBesideEdit(sent: ApplyInput, r: MergeResult): MergeResult {
  if (r.content === '' || r.report.wholeFile) return r;
  const rows = rewrittenBesideEdit(sent.code, sent.update, r.content);
  if (rows.length === 0) return r;
  const content = withoutRows(r.content, rows.map(([, y]) => y));
  const before = new Set(checkLoss(sent.code, sent.update, sent.instruction, r.content).lost);
  if (checkLoss(sent.code, sent.update, sent.instruction, content).lost.some((j) => !before.has(j))) return r;
  return { ...r, content, report: { ...r.report, replacedBesideEdit: rows.map(([j]) => j) } };
}

/** A result that keeps an original line beside a new line restating it is at most this sure of itself. */
const KEPT_BESIDE_EDIT_CONFIDENCE = 0.6;

/**
 * Original lines the update never shows, kept right beside a new line that restates them (a call
 * wrapped in a new retry loop next to the old call): the update may have rewritten them or meant
 * them kept; they stay (no loss), and the merge says it guessed (kept-beside-edit.ts).
 */
function reportKeptBesideEdit(sent: ApplyInput, r: MergeResult): MergeResult {
  if (r.content === '' || r.report.wholeFile) return r;
  const rows = keptBesideEdit(sent.code, sent.update, r.content);
  if (rows.length === 0) return r;
  const note = `kept ${rows.length} original line(s) (${describeLines(rows)}) beside new lines that restate them: the update may replace them, review`;
  return { ...r, confidence: Math.min(r.confidence, KEPT_BESIDE_EDIT_CONFIDENCE), ambiguities: [...r.ambiguities, note], report: { ...r.report, keptBesideEdit: rows } };
}

/** A result that keeps an original block beside a new block restating its whole body is at most this sure of itself. */
const SUPERSEDED_BLOCK_CONFIDENCE = 0.6;

/**
 * Original blocks kept beside a new block of the update that restates their whole body in their place
 * (a renamed Terraform variable, tests folded into one parametrized test): the update most likely
 * replaced them; they stay (no loss), and the merge says it guessed (superseded-blocks.ts).
 */
function reportSupersededBlocks(sent: ApplyInput, r: MergeResult): MergeResult {
  if (r.content === '' || r.report.wholeFile) return r;
  const rows = supersededBlocks(sent.code, sent.update, r.content);
  if (rows.length === 0) return r;
  const note = `kept ${rows.length} original block(s) (headed at ${describeLines(rows)}) beside a new block that restates their body: the update may replace them, review`;
  return { ...r, confidence: Math.min(r.confidence, SUPERSEDED_BLOCK_CONFIDENCE), ambiguities: [...r.ambiguities, note], report: { ...r.report, supersededBlocks: rows } };
}

/** A result that leaves out a removal the instruction orders is at most this sure of itself. */
const UNDONE_REMOVAL_CONFIDENCE = 0.6;

/**
 * The instruction orders a removal and the result keeps every original line (undone-removal.ts):
 * what was to go lies where the no-loss rule keeps it. The code stays; the merge says so.
 */
function reportUndoneRemoval(sent: ApplyInput, r: MergeResult): MergeResult {
  if (r.content === '' || r.report.wholeFile || r.report.removedByInstruction > 0 || !removalUndone(sent.code, sent.instruction, r.content)) return r;
  const note = 'the instruction asks for a removal and the merged file removes nothing: review';
  return { ...r, confidence: Math.min(r.confidence, UNDONE_REMOVAL_CONFIDENCE), ambiguities: [...r.ambiguities, note], report: { ...r.report, removalUndone: true } };
}

/** A result that writes a run of lines twice in a row where neither the original nor the update does is at most this sure of itself. */
const DOUBLED_RUN_CONFIDENCE = 0.6;

/**
 * A run of lines written twice in a row that neither the original nor the update holds twice (a
 * loop's `done` under a new `fi`, a copied `case` tail restated): one piece was placed twice. The
 * result stays (which copy is meant is not known); the merge says it guessed (doubled-runs.ts).
 */
function reportDoubledRuns(sent: ApplyInput, r: MergeResult): MergeResult {
  if (r.content === '' || r.report.wholeFile) return r;
  const rows = doubledRuns(sent.code, sent.update, r.content);
  if (rows.length === 0) return r;
  const note = `wrote ${rows.length} run(s) of lines twice in a row (at output ${describeLines(rows)}) where neither the original nor the update does: review`;
  return { ...r, confidence: Math.min(r.confidence, DOUBLED_RUN_CONFIDENCE), ambiguities: [...r.ambiguities, note], report: { ...r.report, doubledRuns: rows } };
}

/** A result that puts a statement right after a `return` at its depth, where neither input does, is at most this sure of itself. */
const LINE_AFTER_EXIT_CONFIDENCE = 0.6;

/**
 * A statement placed right after a `return`/`raise`/`throw` at its depth, which neither the original
 * nor the update puts there (an old body kept above the update's last line): code that cannot run,
 * so a piece went to the wrong place. The result stays; the merge says it guessed (after-exit.ts).
 */
function reportLinesAfterExit(sent: ApplyInput, r: MergeResult): MergeResult {
  if (r.content === '' || r.report.wholeFile) return r;
  const rows = linesAfterExit(sent.code, sent.update, r.content);
  if (rows.length === 0) return r;
  const note = `placed ${rows.length} line(s) (at output ${describeLines(rows)}) right after a return where neither the original nor the update does: review`;
  return { ...r, confidence: Math.min(r.confidence, LINE_AFTER_EXIT_CONFIDENCE), ambiguities: [...r.ambiguities, note], report: { ...r.report, linesAfterExit: rows } };
}

/** A result that keeps a line naming what the instruction orders removed is at most this sure of itself. */
const KEPT_NAMED_REMOVAL_CONFIDENCE = 0.6;

/**
 * The instruction orders a package entry removed, or a thing with its uses, and the result keeps an
 * original line naming it that the update never shows (`"black>=24.4",`, a handler's registration):
 * the removal was done in part or not at all. The code stays; the merge says so (kept-named-removal.ts).
 */
function reportKeptNamedRemovals(sent: ApplyInput, r: MergeResult): MergeResult {
  if (r.content === '' || r.report.wholeFile) return r;
  const rows = keptNamedRemovals(sent.code, sent.update, sent.instruction, r.content);
  if (rows.length === 0) return r;
  const note = `kept ${rows.length} line(s) (at output ${describeLines(rows)}) naming what the instruction asks to remove: review`;
  return { ...r, confidence: Math.min(r.confidence, KEPT_NAMED_REMOVAL_CONFIDENCE), ambiguities: [...r.ambiguities, note], report: { ...r.report, keptNamedRemovals: rows } };
}

/** Doc comments left out above definitions the update edits stay above them (edited-definition-docs.ts). */
function withDocsOfEdits(sent: ApplyInput, r: MergeResult): MergeResult {
  const content = r.content === '' ? null : withEditedDefinitionDocs(sent.code, sent.update, sent.instruction, r.content);
  return content === null ? r : { ...r, content };
}

/** Original lines the update shows with their aligned columns collapsed keep their spacing (kept-alignment.ts). */
function withKeptAlignment(sent: ApplyInput, r: MergeResult): MergeResult {
  const content = keptAlignment(sent.code, sent.update, sent.instruction, r.content);
  return content === null ? r : { ...r, content };
}

/** A result that dropped or kept comments the update left out is at most this sure of itself. */
const LEFT_OUT_COMMENTS_CONFIDENCE = 0.5;

/** A result that breaks its original's syntax is at most this sure of itself. */
const BROKEN_SYNTAX_CONFIDENCE = 0.3;

/**
 * The other readings of an update, closest first: without the syntax pass's swaps (when it swapped
 * something), then with the other alignment algorithm, with and without the pass.
 */
function alternatives(sent: ApplyInput, mode: MergeMode, first: MergeResult): Alternative[] {
  const other: MergeMode = first.model === 'svc-v3-fast' ? 'large' : 'fast';
  const out: Alternative[] = [];
  if (first.report.syntax) out.push({ how: 'without the syntax pass', merge: () => mergeOnce(sent, mode, false) });
  out.push({ how: `with the ${other} alignment`, merge: () => mergeOnce(sent, other) });
  out.push({ how: `with the ${other} alignment, without the syntax pass`, merge: () => mergeOnce(sent, other, false) });
  return out;
}

/** `syntax` false: the line merge alone, with no definition swapped by the syntax pass. */
function mergeOnce(given: ApplyInput, mode: MergeMode, syntax = true): MergeResult {
  // `// and at the top of the file:` moves the hunk after it to the update's start (top-location.ts).
  const topped = topLocatedUpdate(given.update, given.code);
  const toppedSent = topped === null ? given : { ...given, update: topped };
  // `// add this right after the constructor` is an instruction to the applier (prose-locators.ts).
  const placed = proseLocators(toppedSent.update, toppedSent.code);
  const sent = placed === null ? toppedSent : { ...toppedSent, update: placed };
  // `# in ProjectRepository` opening a hunk says where it goes: placement, not content (location-comments.ts).
  const located = locationComments(sent.update, sent.code);
  const sentRaw = located ? { ...sent, update: located.update, instruction: withPlaces(sent.instruction, located.names) } : sent;
  // A rename the instruction names and the update carries reaches the original before placement,
  // so its renamed heads and callers anchor where the old ones stand (instructed-rename.ts).
  const raw = renamedOriginal(sentRaw);
  // Placement works on the update as the no-loss pass reads it (expandUpdate: markers inside lines,
  // blocks collapsed onto one line, the closers of a snippet that stops inside its blocks).
  const inlineExpanded = expandUpdate(raw.update, raw.code);
  // Judged against the update with its body markers as written: an expansion that leaves no marker
  // would read the update as marker-less pieces, whose left-out blocks no adjacency deletes.
  const input = { ...raw, update: rescaleIndentUnit(expandBodyMarkers(inlineExpanded, raw.code), raw.code), written: raw.update, judged: inlineExpanded };
  // Renames the instruction names reach the original lines the markers kept too (instructed-rename.ts).
  // A `same change … in every other handler` note repeats the shown line edit (same-change.ts).
  // An instructed rename already carries a rename's "same change" (renamedOriginal above).
  const merged = withInstructedRenames(mergeExpanded(input, mode, syntax), raw);
  const result = raw.code === sentRaw.code ? withSameChange(merged, raw) : merged;
  // Body markers expanded (body-markers.ts) must not license any deletion: the no-loss pass judges
  // the result once more against the update with only its inline markers expanded.
  return input.update === inlineExpanded ? result : keepOriginal({ ...raw, update: inlineExpanded }, result);
}

function withSameChange(r: MergeResult, raw: ApplyInput): MergeResult {
  const repeated = repeatShownEdits(raw.code, raw.update, r.content);
  if (repeated.unread) return { ...r, confidence: Math.min(r.confidence, 0.5), ambiguities: [...r.ambiguities, 'a note asks for the same change elsewhere, and the update shows no line edit to repeat'] };
  return repeated.content === r.content ? r : { ...r, content: repeated.content };
}

function withInstructedRenames(r: MergeResult, raw: ApplyInput): MergeResult {
  const map = renameTokens(raw.instruction, raw.code, raw.update);
  if (map.size === 0) return r;
  const content = renameKeptLines(r.content, map, raw.update, raw.instruction);
  return content === r.content ? r : { ...r, content };
}

function mergeExpanded(input: ApplyInput, mode: MergeMode, useSyntax: boolean): MergeResult {
  // One new definition the instruction places ("add X after Y"): inserted there, nothing removed.
  // One new definition and nothing else, placed nowhere by the instruction: after its last sibling (new-definition.ts).
  const instructed = placeByInstruction(input.code, input.update, input.instruction);
  const placed = instructed ?? placeNewDefinition(input.code, input.update, input.instruction);
  if (placed) {
    const report: MergeReport = { hunks: [{ rule: 'definition', start: placed.at, end: placed.at }], removedByInstruction: 0, restored: [], wholeFile: false };
    const model: ApplyModelId = mode === 'large' ? 'svc-v3-large' : 'svc-v3-fast';
    const ambiguities = instructed ? [] : [`a new definition shown alone went after its last sibling (line ${placed.at + 1})`];
    return keepOriginal(input, { content: placed.content, model, confidence: instructed ? 1 : 0.5, ambiguities, fullReplacement: false, report });
  }
  const syntax = useSyntax ? syntaxPass(input.code, input.update, instructionNames(input.instruction)) : null;
  // A swapped definition whose new body has a comment where original code stood (`/* unchanged
  // lookup */`) is not licensed (syntax/swap-licence.ts): the swapped original lacks that code.
  if (!syntax || swapDropsCommentedCode(input.code, input.update, syntax.swaps)) return mergeLines(input, mode);
  const withSyntax = syntaxMerge(input, mode, syntax);
  // The syntax pass must never cost code: when the no-loss pass, judging against the swapped
  // original, had to put lines back, the line merge alone answers instead.
  if (withSyntax.report.restored.length > 0) return mergeLines(input, mode);
  return withSyntax;
}

/**
 * The merge on the original with the update's definitions swapped in (syntax/place.ts): the result
 * itself when the update is only such definitions, else the line merge's input. Judged for loss
 * against that swapped original: a swapped definition is replaced by rule (a) as a whole
 * (syntax/swap-licence.ts), every other original line is in the swapped original.
 */
function syntaxMerge(input: ApplyInput, mode: MergeMode, syntax: SyntaxPass): MergeResult {
  const swapped = { ...input, code: syntax.code };
  const info = { language: syntax.language, definitions: syntax.swaps };
  // Removals the instruction names ("replace X with Y" too) go through the line merge, which knows the rules for them.
  if (syntax.covers && removalNames(splitLines(input.code), input.instruction).length === 0 && replacedPhrases(input.instruction).length === 0) {
    const hunks = syntax.swaps.map((d) => ({ rule: 'definition' as const, start: d.start, end: d.end + 1 }));
    const report: MergeReport = { hunks, removedByInstruction: 0, restored: [], wholeFile: false, syntax: info };
    const model: ApplyModelId = mode === 'large' ? 'svc-v3-large' : 'svc-v3-fast';
    return withoutDeadImportsOf(input, keepOriginal(swapped, { content: syntax.code, model, confidence: 1, ambiguities: [], fullReplacement: false, report }));
  }
  // The line merge ends with the no-loss pass against its input, the swapped original.
  const lines = mergeLines(swapped, mode);
  return withoutDeadImportsOf(input, { ...lines, report: { ...lines.report, syntax: info } });
}

/** A syntax merge without the imports a replacement's swaps left dead: judged against the request's
 *  original, since the swapped original no longer shows the uses the swapped definitions took
 *  (dead-imports.ts). Without a replacement, dead imports are the line merge's (mergeOnce), as before. */
function withoutDeadImportsOf(input: ApplyInput, r: MergeResult): MergeResult {
  if (replacedParts(input.instruction).length === 0) return r;
  const content = withoutDeadImports(r.content, input.code, input.update, input.instruction);
  return content === r.content ? r : { ...r, content };
}

function mergeLines(input: ApplyInput, mode: MergeMode): MergeResult {
  const orig = splitLines(input.code);
  const split = splitUpdate(input.update, orig, input.code);
  const fallbackModel: ApplyModelId = mode === 'large' ? 'svc-v3-large' : 'svc-v3-fast';
  // A marker-less snippet that does not read as the whole file (one `describe` block, one function)
  // is a hunk of it: merged as if a marker stood on each side, so the rest of the file stays.
  // Markers alone keep the whole file; only the instruction's removals change it (marker-only.ts).
  const kept = markerOnlyMerge(input.code, input.update, input.instruction, split);
  if (kept !== null) {
    const report: MergeReport = { hunks: [], removedByInstruction: orig.text.length - splitLines(kept).text.length, restored: [], wholeFile: false };
    return keepOriginal(input, { content: kept, model: fallbackModel, confidence: 1, ambiguities: [], fullReplacement: false, report }, orig);
  }
  const snippet = !split.hasMarkers && split.segments.length === 1 && !readsAsWholeFile(orig, split.updateLines);
  if (snippet) split.segments[0] = { ...split.segments[0]!, markerBefore: true, markerAfter: true };
  else if (!split.hasMarkers || split.segments.length === 0) {
    // No marker: the update is the new file. Keep the original's line endings and final newline.
    const u = split.updateLines;
    const lines = u.text.map((text) => ({ text, eol: null }));
    const finalNewline = orig.text.length === 0 ? true : orig.finalNewline;
    const content = lines.length === 0 ? '' : renderLines(lines, orig.text.length === 0 ? u.dominantEol : orig.dominantEol, finalNewline);
    const report: MergeReport = { hunks: [], removedByInstruction: 0, restored: [], wholeFile: true };
    const r = keepOriginal(input, { content, model: fallbackModel, confidence: 1, ambiguities: [], fullReplacement: true, report }, orig);
    return r.report.restored.length > 0 && mode === 'auto' ? { ...r, model: 'svc-v3-large' } : r;
  }
  const scope = instructionNames(input.instruction);
  const removable = instructionRemovable(orig, input);
  let ctx = buildContext(orig, split.segments, scope, removable);
  // A segment whose anchors jump over another hunk's is cut there first, when that puts the hunks in file order.
  const cut = splitAtJumps(ctx);
  for (const c of cut ? [buildContext(orig, cut, scope, removable), ctx] : [ctx]) {
    const order = fileOrder(c);
    if (!order || !fileOrderHolds(c, order)) continue;
    // Out-of-order hunks go in file order; a marker stands between any two of them.
    const segments = order.map((k) => ({ ...c.segments[k]!, markerBefore: true, markerAfter: true }));
    ctx = buildContext(orig, segments, scope, removable);
    break;
  }
  const edged = impliedEdgeMarkers(ctx, split.hasMarkers);
  if (edged) ctx = buildContext(orig, edged, scope, removable);
  let fastResult: MergeResult | null = null;
  if (mode === 'fast' || mode === 'auto') {
    const fast = fastChains(ctx);
    fastResult = finish(ctx, fast.chains, input, 'svc-v3-fast', fast.ambiguities.length === 0 ? 1 : 0.5, fast.ambiguities);
    if (mode === 'fast' || fastResult.ambiguities.length === 0) return fastResult;
  }
  const large = largeChains(ctx);
  if (!large.complete) {
    const fast = fastChains(ctx);
    return finish(ctx, fast.chains, input, 'svc-v3-large', 0.25, [...fast.ambiguities, 'too many candidate anchors for global alignment; used greedy chains']);
  }
  const largeResult = finish(ctx, large.chains, input, 'svc-v3-large', large.confidence, large.ambiguities);
  // A global placement the no-loss pass had to put code back into loses to a greedy one it did not
  // (the greedy one's doubts stay in its confidence and notes), in auto and in large alike.
  if (largeResult.report.restored.length === 0) return largeResult;
  if (!fastResult) {
    const fast = fastChains(ctx);
    fastResult = finish(ctx, fast.chains, input, 'svc-v3-fast', fast.ambiguities.length === 0 ? 1 : 0.5, fast.ambiguities);
  }
  return fastResult.report.restored.length === 0 ? fastResult : largeResult;
}
