// A snippet that writes one closer too many: `});` / `});` at one indentation after the last test
// of a `describe` whose head it does not show (a model closing "the rest" out of habit). Two closing
// lines at one indentation cannot both close blocks of an indented file: the second closes a block
// opened before the snippet at the first's own level, which no head can be. Read as written, it is
// new code (a stray `});` in the next block) or an anchor pairing with a later closer, which deletes
// or misplaces the lines between. The update is read without it, in the merge and in the no-loss
// check alike.
//
// Only a line that closes brackets opened before its segment (a marker ends a segment), right after
// a line of the same text at the same indentation (blank lines between aside), in a file that never
// writes two such lines in a row itself (nested C++ namespaces closed at column 0 keep both).
import { CLOSING_BRACKET, forEachCodeBracket } from './brackets.js';
import { CLOSER_ONLY } from './closer-pins.js';
import { solidRow, splitLines, type Lines } from './lines.js';
import { markerLines } from './markers.js';

/** The file closes two blocks with equal lines at one indentation, one right after the other. */
function stacksCloser(orig: Lines, norm: string, indent: number): boolean {
  for (let j = 0; j < orig.text.length; j++) {
    if (orig.blank[j] || orig.norm[j] !== norm || orig.indent[j] !== indent) continue;
    const n = solidRow(orig, j, 1);
    if (n >= 0 && orig.norm[n] === norm && orig.indent[n] === indent) return true;
  }
  return false;
}

/** No line of the file holds closing brackets alone: each block closes at the end of a code line. */
function closesOnCodeLines(orig: Lines): boolean {
  for (let j = 0; j < orig.text.length; j++) if (!orig.blank[j] && /[)}\]]/.test(orig.norm[j]!) && CLOSER_ONLY.test(orig.norm[j]!)) return false;
  return true;
}

/** The update without closing lines that repeat the one before them and close nothing of its own (unchanged when none). */
export function withoutExtraClosers(update: string, code: string): string {
  const u = splitLines(update);
  const orig = splitLines(code);
  const isMarker = markerLines(u.text, orig.text);
  const drop = new Set<number>();
  // Whether the original writes no closer-only line, read once on first need.
  let closersInCode: boolean | undefined;
  // Brackets opened in the current segment and still open.
  let open = 0;
  for (let x = 0; x < u.text.length; x++) {
    if (isMarker[x]) {
      open = 0;
      continue;
    }
    let unmatched = false;
    forEachCodeBracket(u.text[x]!, (c) => {
      if (CLOSING_BRACKET[c]) open++;
      else if (open > 0) open--;
      else unmatched = true;
    });
    if (!unmatched || !/[)}\]]/.test(u.norm[x]!) || !CLOSER_ONLY.test(u.norm[x]!)) continue;
    const w = solidRow(u, x, -1);
    // Right after a marker, in a file that closes every block at the end of a code line (Lisp, EDN):
    // the line stands for the closers of the body the marker elides, which the original keeps.
    if (w >= 0 && isMarker[w] && (closersInCode ??= closesOnCodeLines(orig))) {
      drop.add(x);
      continue;
    }
    if (w < 0 || drop.has(w) || u.norm[w] !== u.norm[x] || u.indent[w] !== u.indent[x]) continue;
    if (!stacksCloser(orig, u.norm[x]!, u.indent[x]!)) drop.add(x);
  }
  if (drop.size === 0) return update;
  let out = '';
  for (let x = 0; x < u.text.length; x++) if (!drop.has(x)) out += u.text[x]! + u.eol[x]!;
  return out;
}
