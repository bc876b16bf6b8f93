// A statement the merge placed right after a `return` / `raise` / `throw` at the same depth, where it
// can never run: an old function's body kept and the update's last line (`return jsonify(…)`) written
// under its `return`, a guard the update rewrote kept above the new one's `return null;`. Writers put
// nothing there (the next line closes the block, opens the next branch or is a comment); when neither
// the original nor the update holds the two lines together, the merge joined them. The output is not
// changed (which of the two is misplaced is not known); the merge says it guessed. Over every
// development case's expected file this never holds.
import { MODIFIER } from './kept-beside-edit.js';
import { exactRows, heldByInputs, splitLines } from './lines.js';

/** A line that leaves its block: the whole statement, not a Ruby/Perl guarded exit (`return 0 if done`). */
const EXIT = /^(?:return|raise|throw)\b/;
/** The exit goes on below (an open bracket, an operator, a backslash, `:`): the next line is part of it. */
const CONTINUED = /[([{,\\+\-*\/&|=:.?<>]$/;
/** What may follow an exit at its depth: a closer, the next branch or handler, a label, a comment. */
const MAY_FOLLOW = /^(?:[)}\]]|(?:end|else|elif|elsif|except|rescue|ensure|finally|catch|case|when|default|fi|done|esac|until)\b|;;|#|\/\/|--|\/\*|\*|<\/)/;

/**
 * Rows (0-based) of `content` that follow an exit line directly at its indentation and are not what
 * may follow one, when neither `code` nor `update` holds the two lines together.
 */
export function linesAfterExit(code: string, update: string, content: string): number[] {
  const out = splitLines(content);
  const rows = exactRows(out);
  const held = heldByInputs(code, update);
  const found: number[] = [];
  for (let i = 0; i + 1 < rows.length; i++) {
    const exit = out.norm[i]!;
    if (!EXIT.test(exit) || MODIFIER.test(exit) || CONTINUED.test(exit)) continue;
    const next = i + 1;
    if (out.blank[next] || out.indent[next] !== out.indent[i] || MAY_FOLLOW.test(out.norm[next]!)) continue;
    if (held([rows[i]!, rows[next]!])) continue;
    found.push(next);
  }
  return found;
}
