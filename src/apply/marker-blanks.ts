// Blank lines next to a marker are layout, not code. Two shapes the merge got wrong:
// - `- [Development](#development)`, blank, `<!-- ... -->`: the blank sets the marker apart; where
//   the original goes on without a blank after that (shown, unchanged or edited) line, adding one
//   splits a list or a table in two.
// - anchor, blank, new lines at the level of the original's next sibling, marker (`-include
//   $(OBJS:.o=.d)` after a rule, a `> **Note:**` paragraph after a code fence): the update's blank
//   parts the new lines from the anchor and the original's blank still parts them from the sibling.
import { bracketDelta } from './brackets.js';
import { flatBlock } from './flat-blocks.js';
import { lineIdentity } from './line-identity.js';
import type { Lines } from './lines.js';

/**
 * Segment rows of the blank lines the segment ends with, to leave out: when its last non-blank
 * line is matched to original line `j`, or is the last of new lines right after such a line at its
 * indentation (`import { StatusBadge }` added below `import { Spinner }`), and the original line
 * after `j` (where the marker's kept code resumes) is not blank. Empty when they stay.
 */
export function blanksBeforeMarker(s: Lines, pairs: ReadonlyArray<readonly [number, number]>, o: Lines, trailing: number): number[] {
  if (trailing === 0) return [];
  const last = s.text.length - 1 - trailing;
  if (last < 0) return [];
  const pair = pairs.find(([i]) => i === last) ?? siblingsAbove(s, pairs, last);
  if (!pair || pair[1] + 1 >= o.text.length || o.blank[pair[1] + 1]) return [];
  const rows: number[] = [];
  for (let i = last + 1; i < s.text.length; i++) rows.push(i);
  return rows;
}

/** The pair of the shown line that new lines ending at segment row `last` follow, unbroken and at its indentation. */
function siblingsAbove(s: Lines, pairs: ReadonlyArray<readonly [number, number]>, last: number): readonly [number, number] | undefined {
  let i = last;
  while (i >= 0 && !s.blank[i] && !pairs.some(([x]) => x === i)) i--;
  const pair = pairs.find(([x]) => x === i);
  if (!pair || i === last || s.blank[i]) return undefined;
  for (let x = i + 1; x <= last; x++) if (s.indent[x] !== s.indent[i]) return undefined;
  return pair;
}

/**
 * Segment rows [a, b] are one or more whole new blocks at column `level`: the first and last at that
 * level or (the last) deeper, none shallower, and their brackets balanced or closed by a last line
 * that is a closing one (`}`, `end`).
 */
export function wholeBlocksAt(s: Lines, a: number, b: number, level: number): boolean {
  if (a > b || s.indent[a] !== level) return false;
  let balance = 0;
  for (let x = a; x <= b; x++) {
    if (s.blank[x]) continue;
    if (s.indent[x]! < level) return false;
    balance += bracketDelta(s.text[x]!);
  }
  const closer = s.indent[b] === level && s.weak[b]! && /^(?:[)}\]]|end\b)/.test(s.norm[b]!);
  return closer || balance === 0;
}

/**
 * Original line `y` heads a block of its own: it names something (a heading, a section, a rule, a
 * definition, a Dockerfile stage), or the next non-blank line sits deeper (a Makefile rule's recipe). A statement is
 * not one: new lines before it may go on without a blank between.
 */
export function headsBlock(o: Lines, y: number): boolean {
  if (lineIdentity(o.norm[y]!) !== null || flatBlock(o, y, 1) !== null) return true;
  let z = y + 1;
  while (z < o.text.length && o.blank[z]) z++;
  return z < o.text.length && o.indent[z]! > o.indent[y]!;
}
