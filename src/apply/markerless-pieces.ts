// An update with no marker at all that does not read as the whole file is a set of pieces (the
// imports, then one function far below; set k go10). Between two pieces the original may hold whole
// blocks — definitions, a struct, a `typedef` — that the update never shows: the model left them
// out, it did not delete them (a deletion needs the instruction or markers around adjacent
// neighbours). Rule (b) of loss.ts does not license such a gap.
import { shownIdentities, unmentionedDefinitionRows } from './licence-rules.js';
import type { Lines } from './lines.js';
import { blockEnd } from './removals.js';

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
