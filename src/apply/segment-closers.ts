// The closing line of a block a segment rewrites: balanced brackets, a word closer, a shell case
// branch's `;;`, or (indentation-structured languages) the end of the old body.
import { bracketDelta, startsWithCloser } from './brackets.js';
import { withoutClosers, type BlockPairs } from './new-block-closers.js';
import type { Lines } from './lines.js';
import { solidRow } from './lines.js';
import type { Segment } from './merge-context.js';
import { caseBranchCloser } from './flat-blocks.js';

/** A rewritten block's closer (balanceCloser, else findCloser), never one that closes a block the segment opened. */
export function tailCloser(s: Lines, o: Lines, first: [number, number], i: number, j: number, limit: number, delta: number, segDelta: number, blocks: BlockPairs | null, paired?: ReadonlyMap<number, number>): [number, number] | null {
  // The segment's last closer, when it closes a block the segment opened (`} catch {` … `}`), balances no original block.
  const balanced = balanceCloser(s, o, first, i, j, limit);
  // A shell `case` branch's `;;` closes the branch whose head is paired (flat-blocks.ts).
  const closer = (balanced && !blocks?.closesNewBlock(balanced[0]) ? balanced : null) ?? findCloser(s, o, i, j, limit, delta, segDelta, blocks) ?? (paired ? caseBranchCloser(s, o, i, j, limit, paired) : null);
  return closer && blocks?.closesOtherBlock(closer[0], closer[1]) ? null : closer;
}

/** Original lines a rewritten block body may span before its closing line. */
const MAX_CLOSER_DISTANCE = 400;

/**
 * A rewritten bracketed block: the segment ends with a line that closes brackets, and from its first
 * matched line to its end it opens and closes a net B. The original, read from the same first line,
 * reaches net B at its own closing line y: original lines up to y are the old block the segment replaces.
 */
function balanceCloser(s: Lines, o: Lines, first: [number, number], i: number, j: number, limit: number): [number, number] | null {
  let lastContent = s.text.length - 1;
  while (lastContent >= 0 && s.blank[lastContent]) lastContent--;
  if (lastContent < i || bracketDelta(s.text[lastContent]!) >= 0) return null;
  if (!closesOuterBlock(s, i, lastContent)) return null;
  let target = 0;
  for (let x = first[0]; x <= lastContent; x++) target += bracketDelta(s.text[x]!);
  let run = 0;
  for (let y = first[1]; y < j; y++) run += bracketDelta(o.text[y]!);
  const end = Math.min(limit, o.text.length, j + MAX_CLOSER_DISTANCE);
  for (let y = j; y < end; y++) {
    const b = bracketDelta(o.text[y]!);
    run += b;
    if (run < target) return null;
    if (run === target && b < 0) return codeCloserMismatch(s, o, lastContent, y, j) ? null : [lastContent, y];
  }
  return null;
}

/**
 * A last line with code before its closers (Lisp) balances original line y only where it holds y's
 * code, or where y is the very next original line (`(inc x))` rewritten in place as `(* 2 x))`): a
 * balance found further down (`["/:id/pdf" …]]` after a group whose closers the update moved) is
 * another block's closing line.
 */
function codeCloserMismatch(s: Lines, o: Lines, last: number, y: number, j: number): boolean {
  return y !== j && !startsWithCloser(s.norm[last]!) && withoutClosers(s.norm[last]!) !== withoutClosers(o.norm[y]!);
}

/**
 * Segment line c closes a block opened before line i (the original is still inside it), not one the
 * new lines [i, c) open themselves: those all sit deeper than c, but for continuations (`} else {`,
 * `elsif`, `rescue`). An anchor, a new function or rule, then a marker: the new block's `}` or `end`
 * must not take the next original block's closing line, and that block with it.
 */
function closesOuterBlock(s: Lines, i: number, c: number): boolean {
  for (let x = i; x < c; x++) {
    if (s.blank[x] || s.indent[x]! > s.indent[c]!) continue;
    if (startsWithCloser(s.norm[x]!) || /^(?:else|elsif|elif|else if|rescue|ensure|except|catch|finally|when|case|default)\b/.test(s.norm[x]!)) continue;
    return false;
  }
  return true;
}

/**
 * Segment lines inside word blocks (`end`, `fi`, `done`) that new lines from i open: after a head
 * p >= i with deeper lines, through the closer at p's indentation. Word blocks have no bracket to pair
 * (new-block-closers.ts), so they are paired by indentation: the `return nil` and `end` of a new
 * `if … end` inside a rewritten Lua or Julia body are not the body's own closer.
 */
function newWordBlockLines(s: Lines, i: number): Set<number> {
  const inside = new Set<number>();
  for (let p = i; p < s.text.length; p++) {
    if (s.blank[p] || startsWithCloser(s.norm[p]!) || WORD_CLOSER_LINE.test(s.norm[p]!)) continue;
    let c = p + 1;
    while (c < s.text.length && (s.blank[c] || s.indent[c]! > s.indent[p]!)) c++;
    if (c === solidRow(s, p, 1) || c >= s.text.length || s.indent[c] !== s.indent[p] || !WORD_CLOSER_LINE.test(s.norm[c]!)) continue;
    for (let x = p + 1; x <= c; x++) inside.add(x);
  }
  return inside;
}

/** A line that is only a word closer. */
const WORD_CLOSER_LINE = /^(?:end[;.]?|fi|esac|done)$/;

/**
 * A rewritten block tail: the segment continues with new lines and then a closing line (`}`, `end`,
 * `</div>`) that closes the block the original is still inside. The original lines up to that closer,
 * all indented deeper than it, are the old body the new lines replace.
 */
function findCloser(s: Lines, o: Lines, i: number, j: number, limit: number, delta: number, segDelta = delta, blocks: BlockPairs | null = null): [number, number] | null {
  let x = i;
  const inNewBlock = newWordBlockLines(s, i);
  // The closer of a new block (`} catch {` … `}`, a new `for … end`) is passed over for the one after it.
  while (x < s.text.length && (s.blank[x] || !s.weak[x] || blocks?.closesNewBlock(x) || inNewBlock.has(x))) x++;
  if (x >= s.text.length) return null;
  if (!closesOuterBlock(s, i, x)) return null;
  const end = Math.min(limit, o.text.length, j + MAX_CLOSER_DISTANCE);
  const at = (want: number): [number, number] | null => {
    for (let y = j; y < end; y++) {
      if (o.blank[y]) continue;
      if (o.indent[y]! < want) return null;
      if (o.indent[y] === want) return o.norm[y] === s.norm[x] ? [x, y] : null;
    }
    return null;
  };
  // The lines before the closer may have moved into a new block (`BEGIN TRY` around a body): the
  // closer of the outer block then keeps the segment's own shift.
  return at(s.indent[x]! + delta) ?? (segDelta !== delta ? at(s.indent[x]! + segDelta) : null);
}

/**
 * Indentation-structured blocks (Python, YAML) have no closing line to anchor on. When the segment
 * rewrites a block body (new lines deeper than a matched header) and the marker after it sits at or
 * left of that header, the block is finished in the update: the rest of the old body goes too.
 */
export function closeIndentedBlock(seg: Segment, o: Lines, pairs: Array<[number, number]>, end: number, limit: number): number {
  const s = seg.lines;
  if (seg.markerAfterIndent === null || end >= limit || pairs.length === 0) return end;
  let j = end;
  while (j < limit && o.blank[j]) j++;
  if (j >= limit) return end;
  // The header: the last matched line left of the original's next line.
  let h = -1;
  for (let p = pairs.length - 1; p >= 0; p--) {
    if (o.indent[pairs[p]![1]]! < o.indent[j]!) {
      h = p;
      break;
    }
  }
  if (h < 0) return end;
  const [hi, hj] = pairs[h]!;
  if (!o.norm[hj]!.endsWith(':') || seg.markerAfterIndent > s.indent[hi]!) return end;
  // Body lines shown as they were after the header: the new lines are added after them (the
  // fields of a dataclass, then one more), the members below stay.
  for (let p = h + 1; p < pairs.length; p++) if (!o.blank[pairs[p]![1]]) return end;
  // Bracket languages close the block with a line of their own (`};` after `private:`): not ours.
  for (let y = end; y < o.text.length; y++) {
    if (o.blank[y] || o.indent[y]! > o.indent[hj]!) continue;
    if (o.weak[y] && startsWithCloser(o.norm[y]!)) return end;
    break;
  }
  // Only when the segment ends in rewritten code back at the body's first level: a segment that
  // ends on an unchanged line, or deeper inside a nested block, leaves the rest of the body alone.
  const matchedSeg = new Set(pairs.map(([i]) => i));
  let lastContent = s.text.length - 1;
  while (lastContent > hi && s.blank[lastContent]) lastContent--;
  let firstBody = hi + 1;
  while (firstBody < s.text.length && s.blank[firstBody]) firstBody++;
  if (lastContent <= hi || firstBody > lastContent || matchedSeg.has(lastContent)) return end;
  if (s.indent[lastContent]! > s.indent[firstBody]! || s.indent[firstBody]! <= s.indent[hi]!) return end;
  let last = end - 1;
  for (let y = end; y < limit; y++) {
    if (o.blank[y]) continue;
    if (o.indent[y]! <= o.indent[hj]!) break;
    last = y;
  }
  return last + 1;
}
