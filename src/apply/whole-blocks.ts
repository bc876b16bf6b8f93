// Rule (b) deletes between two anchors shown adjacent. Where the missing lines head something (a
// definition, a section), the nearest occurrence of a repeated anchor is not trusted: past one head,
// the next `def create` may be another class's. A gap that is nothing but whole blocks is different:
// each head's block (its body and its closer) ends inside the gap, so the anchors below and above
// are the blocks' neighbours in one enclosing block (`def index … end`, blank, [`def show … end`,
// blank,] `def create` — an action deleted by showing its neighbours adjacent).
import { annotationLine } from './licence-rules.js';
import { lineIdentity } from './line-identity.js';
import type { Lines } from './lines.js';

/** What a definition-like head names (line-identity.ts): a function, class, test, route or SQL/HCL object. */
const DEFINITION_KINDS = /^(?:def|test|route|sql|hcl) /;

/** Comment lines that lead a definition (`///`, `#`, `--`, `/**`), kept with the head below them. */
const LEADING_COMMENT = /^(?:\/\/|#(?!include)|\/\*|\*|--|;|<!--|"""|''')/;

/** A definition-like head (line-identity.ts), the heads `wholeBlocksBetween` counts unless told otherwise. */
function definitionHead(orig: Lines, h: number): boolean {
  return DEFINITION_KINDS.test(lineIdentity(orig.norm[h]!) ?? '');
}

/**
 * The missing original rows (non-blank, in order, all strictly between p and q) are whole blocks:
 * each run is optional leading comments or annotations, then a head (`isHead`: a definition by
 * default) whose block (`blockEnd`, removals.ts) holds more than the head line and ends before q.
 */
export function wholeBlocksBetween(orig: Lines, missing: readonly number[], q: number, blockEnd: (o: Lines, h: number) => number, isHead: (orig: Lines, h: number) => boolean = definitionHead): boolean {
  let k = 0;
  let blocks = 0;
  while (k < missing.length) {
    let h = k;
    while (h < missing.length && (annotationLine(orig.norm[missing[h]!]!) || LEADING_COMMENT.test(orig.norm[missing[h]!]!))) h++;
    if (h >= missing.length) return false;
    const head = missing[h]!;
    // Definitions only: a config key's block (`ports:` between `environment:` and `depends_on:`)
    // may be a twin service's, and the anchors another service's copies.
    if (!isHead(orig, head)) return false;
    const end = blockEnd(orig, head);
    // A block of more than its head line (an empty `def show` / `end` counts), closed before q.
    if (end <= head + 1 || end > q) return false;
    while (k < missing.length && missing[k]! < end) k++;
    blocks++;
  }
  return blocks > 0;
}

/**
 * The anchor after the gap is the enclosing block's own closer (`}` of the class, shallower than the
 * first missing line): the update showed no neighbour after the blocks, only the container's end,
 * which a snippet of one method shows as readily as a deletion does. loss.ts trusts it as a deletion
 * only when no instruction says otherwise: "fix tryAcquire" removes no method (set ak ts04), while
 * with no instruction, or one that removes, the last method goes (sets f kt03, d rb03, ak php01).
 */
export function closerOfEnclosing(orig: Lines, missing: readonly number[], q: number): boolean {
  return q < orig.text.length && missing.length > 0 && orig.weak[q]! && orig.indent[q]! < orig.indent[missing[0]!]!;
}
