// A line rewritten in place whose new text another original line already has at another depth
// (`Expires = erlang:system_time(second) + Ttl,` as in the clause above; `return errMismatch` as in
// the `if` it replaced): the copy guard of the loss check reads such a line as that twin moved, but
// the new line stands at j's indentation, where no original line has its text, and sets j's key or
// returns as j did (kept-beside-edit.ts `setsSameTarget`): two such lines in one place leave the
// first dead, so the update rewrote j there (rule (a)).
import { setsSameTarget } from './kept-beside-edit.js';
import type { Lines } from './lines.js';

/** How the original holds a line's text: trimmed (`has`), and with its indentation (`hasExact`). */
export interface OriginalTexts {
  has(norm: string): boolean;
  hasExact(text: string): boolean;
}

/**
 * Output row k rewrites original row j in place though its trimmed text is another original line's.
 * A weak j (`return nil`) only as the one line of its gap against the one new line there. Only text
 * the original has elsewhere: a new value under the same key (a new check's `message:` over an old
 * check's) is no edit of j by this reading.
 */
export function sameTargetRewrite(orig: Lines, j: number, out: Lines, k: number, lone: boolean, original: OriginalTexts): boolean {
  if (!original.has(out.norm[k]!) || original.hasExact(out.text[k]!)) return false;
  if ((orig.weak[j] && !lone) || out.indent[k] !== orig.indent[j]) return false;
  return setsSameTarget(orig.norm[j]!, out.norm[k]!);
}
