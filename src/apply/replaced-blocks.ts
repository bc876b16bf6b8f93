// Rule (a) by structure (loss.ts): a block header the update shows, kept or edited, followed by a new
// block shown whole; the original block's rest is what the new block replaces.
import { bracketDelta, closesAt } from './brackets.js';
import { continuedBelow, indentBlockEnd, solidRow, type Lines } from './lines.js';
import { blockEnd as removalBlockEnd } from './definition-blocks.js';
import { rowNamesDiffer } from './line-identity.js';
import { type UpdateView, key, inlineMarkerBetween } from './update-view.js';
import { contextHolds } from './anchor-context.js';

/** Weak lines rewritten in place that the context pinning a replaced block's header may step over. */
const CONTEXT_SUBSTITUTIONS = 2;

/**
 * When some segment shows original line p (a block header, position confirmed) and the block's
 * body after it, through its end (the closing line, or the dedent), what the segment shows is the
 * new block: returns the end (exclusive) of p's original block, whose lines it replaces; p + 1 otherwise.
 */
export function blockRestReplaced(view: UpdateView, orig: Lines, p: number): { end: number; shown: Set<string> } {
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
export function editedBlockRest(view: UpdateView, orig: Lines, h: number, shown: string): { end: number; shown: Set<string> } {
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
export function braceRow(l: Lines, h: number): number {
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
