// A block the update shows under a new head (`message DeleteTransferRequest {`, `Response
// AddressHandler::handle(…) {`, `CREATE TABLE products (`) whose body goes on as an original
// block's does reads as that block renamed in place, or as a new sibling copied from the same
// pattern. Files of look-alike definitions (handlers, messages, tables, stages) make the second
// reading as likely as the first, and taking the wrong one silently drops a whole definition
// (sets l and m: the new block written after an anchor, a marker after it). So a block head reads
// as renamed in place (line-identity.ts renameShownInPlace, for the merge's edge growth and for the
// no-loss check alike) only with evidence that the block is that one: its body is more like that block's body than like any sibling's (a renamed function keeps a
// body of its own), or the update shows it between that block's neighbours (the line above its head
// and the line after its end). Otherwise the original block stays: a kept duplicate is visible, a
// lost definition is not.
import { strongRow, tokens, type Lines } from './lines.js';

/** End (exclusive) of the block line h heads and whether the lines hold it whole (line-identity.ts headedBlock). */
type BlockOf = (l: Lines, h: number) => { end: number; whole: boolean } | null;
/** The header row of the block row x sits in, -1 at top level (line-identity.ts ownerRow). */
type OwnerOf = (l: Lines, x: number) => number;

/** Solid (non-blank, non-weak) body lines of the block headed at h, [h+1, end). */
function bodyLines(l: Lines, h: number, end: number): string[] {
  const out: string[] = [];
  for (let x = h + 1; x < end; x++) if (!l.blank[x] && !l.weak[x]) out.push(l.norm[x]!);
  return out;
}

/** How many of `shown` (as a multiset) the body `body` holds. */
export function sharedLines(shown: readonly string[], body: readonly string[]): number {
  const left = new Map<string, number>();
  for (const n of body) left.set(n, (left.get(n) ?? 0) + 1);
  let n = 0;
  for (const x of shown) {
    const c = left.get(x) ?? 0;
    if (c > 0) {
      n++;
      left.set(x, c - 1);
    }
  }
  return n;
}

/** The block's last row: its closer where `end` stands on one (brace blocks), else the row before `end`. */
function lastRow(l: Lines, end: number): number {
  return end < l.text.length && /^[)\]}]/.test(l.norm[end]!) ? end : end - 1;
}

/** Sibling heads looked at on each side: blocks at j's indentation under j's owner, opening like j. */
const SIBLING_WINDOW = 80;

/** Original blocks headed like j (same first token, same indentation, same owner), other than j. */
function siblingHeads(o: Lines, j: number, ownerRow: OwnerOf): number[] {
  const first = tokens(o.norm[j]!)[0];
  const owner = ownerRow(o, j);
  const out: number[] = [];
  for (const dir of [-1, 1] as const) {
    let seen = 0;
    for (let y = j + dir; y >= 0 && y < o.text.length && seen < SIBLING_WINDOW; y += dir) {
      if (o.blank[y] || o.indent[y] !== o.indent[j]) continue;
      seen++;
      if (ownerRow(o, y) !== owner || tokens(o.norm[y]!)[0] !== first) continue;
      out.push(y);
    }
  }
  return out;
}

/**
 * Update row i of `s` (a head naming something else than original head j, its block going on as
 * j's) is j renamed in place: the body it shows is more like j's than like every sibling's, or the
 * update shows it between j's neighbours on both sides.
 */
export function renamedBlockEvidenced(s: Lines, i: number, o: Lines, j: number, headedBlock: BlockOf, ownerRow: OwnerOf): boolean {
  const ob = headedBlock(o, j);
  const ub = headedBlock(s, i);
  // Only a block shown complete is a candidate copy: a head with a few body lines before a marker (a
  // rename with its callers) shows too little of the body to compare.
  if (!ob || !ub || !ub.whole) return true;
  const shown = bodyLines(s, i, ub.end);
  // A head shown over a marker (its body elided) has no body to compare: other rules judge it.
  if (shown.length === 0) return true;
  const own = sharedLines(shown, bodyLines(o, j, ob.end));
  let best = -1;
  for (const y of siblingHeads(o, j, ownerRow)) {
    const yb = headedBlock(o, y);
    if (yb) best = Math.max(best, sharedLines(shown, bodyLines(o, y, yb.end)));
  }
  if (own > best) return true;
  // Between both neighbours: the line above the head and the line after the block, as in the original.
  // Closers and keywords (`}`, `end`) stand next to every block: the nearest lines that say something.
  const above = strongRow(s, i, -1);
  const oAbove = strongRow(o, j, -1);
  const after = strongRow(s, lastRow(s, ub.end), 1);
  const oAfter = strongRow(o, lastRow(o, ob.end), 1);
  return above >= 0 && oAbove >= 0 && s.norm[above] === o.norm[oAbove] && after >= 0 && oAfter >= 0 && s.norm[after] === o.norm[oAfter];
}
