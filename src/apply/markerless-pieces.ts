// An update with no marker at all that does not read as the whole file is a set of pieces (the
// imports, then one function far below; set k go10). Between two pieces the original may hold whole
// blocks — definitions, a struct, a `typedef` — that the update never shows: the model left them
// out, it did not delete them (a deletion needs the instruction or markers around adjacent
// neighbours). Rule (b) of loss.ts does not license such a gap, unless the update shows the gap's
// neighbours as siblings: one block whole from its head, then the next sibling's head (see
// `siblingsShownAround`).
import { shownIdentities, unmentionedDefinitionRows } from './licence-rules.js';
import { lineIdentity } from './line-identity.js';
import { solidRow, type Lines } from './lines.js';
import { blockEnd } from './definition-blocks.js';
import { wholeBlocksBetween } from './whole-blocks.js';

/** Rows strictly between p and q hold a whole block (more than its head, ended before q) the update does not show. */
export function leftOutBlocks(orig: Lines, p: number, q: number, shownIds: Set<string>, shown: (norm: string) => boolean): boolean {
  if (unmentionedDefinitionRows(orig, p + 1, q, shownIds).size > 0) return true;
  for (let h = p + 1; h < q; h++) {
    if (orig.blank[h] || orig.weak[h] || shown(orig.norm[h]!)) continue;
    const end = blockEnd(orig, h);
    if (end > h + 2 && end <= q) return true;
  }
  return false;
}

/**
 * The update leaves out a whole definition of the original that it never names: it shows pieces
 * (the imports and the last function), not a new whole file, unless it keeps most of the file.
 */
export function omitsDefinitions(orig: Lines, u: Lines): boolean {
  return unmentionedDefinitionRows(orig, 0, orig.text.length, shownIdentities([{ lines: u }])).size > 0;
}

/** The kind of head a line is (`def`, `route`, … of line-identity.ts; '' for a head that names nothing, such as a CSS selector). */
function headKind(norm: string): string {
  return lineIdentity(norm)?.split(' ')[0] ?? '';
}

/** The original head of the block whose last line is p, at indentation `depth` (an Allman `{` steps to the head above it), or -1. */
function headEndingAt(orig: Lines, p: number, depth: number): number {
  let h = orig.indent[p] === depth ? p - 1 : p;
  while (h >= 0 && (orig.blank[h] || orig.indent[h]! > depth)) h--;
  if (h >= 0 && orig.norm[h] === '{') h = solidRow(orig, h, -1);
  return h >= 0 && orig.indent[h] === depth && blockEnd(orig, h) === p + 1 ? h : -1;
}

/**
 * Sibling blocks deleted by adjacency in a marker-less update (t css01, al swift03): the update shows
 * a block whole, from its head (segment row above i1, the body deeper) to its last line i1 (original
 * p), and next the head of a following block (original q); both heads at one indentation and of one
 * kind, and every missing line between them belongs to a whole block of that indentation and kind.
 * The update then shows the neighbours of what it deletes, not two pieces of the file: a left-out
 * stretch (the imports, then a function far below) starts after a block of another kind.
 */
export function siblingsShownAround(orig: Lines, seg: Lines, i1: number, p: number, q: number, missing: readonly number[]): boolean {
  if (i1 < 0 || p < 0 || q >= orig.text.length || missing.length === 0) return false;
  const depth = orig.indent[q]!;
  const kind = headKind(orig.norm[q]!);
  if (blockEnd(orig, q) <= q + 1) return false;
  const hp = headEndingAt(orig, p, depth);
  if (hp < 0 || headKind(orig.norm[hp]!) !== kind) return false;
  let hu = solidRow(seg, i1, -1);
  while (hu >= 0 && (seg.indent[hu]! > seg.indent[i1]! - (orig.indent[p]! - depth) || seg.norm[hu] === '{')) hu = solidRow(seg, hu, -1);
  if (hu < 0 || seg.norm[hu] !== orig.norm[hp]) return false;
  const sibling = (o: Lines, h: number): boolean => o.indent[h] === depth && headKind(o.norm[h]!) === kind;
  return wholeBlocksBetween(orig, missing, q, blockEnd, sibling);
}
