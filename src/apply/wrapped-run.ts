// A run of original lines wrapped in a new block comes back one level deeper. Its solid lines are
// recognised by their text; its closers and short statements (`}`, `),`, `continue;`) are alike
// everywhere, so their text alone says nothing: their neighbours say which original line they are.
import { CLOSER_LINE, editedVersion, renamedInPlace, sameStatementEdited, similarLines, solidRow, type Lines } from './lines.js';
import { extendedInPlace } from './extended-line.js';
import { wrapsLine } from './wrapped-line.js';

/** How many neighbours a chain of weak lines may run through before it reaches a solid one. */
const MAX_CHAIN = 24;

/**
 * Output line k is original line j moved into a new block: the same text at another depth, with a
 * chain of j's own neighbours on one side, moved by the same amount, up to a line that is not weak.
 */
export function wrappedCopy(orig: Lines, j: number, out: Lines, k: number): boolean {
  return out.norm[k] === orig.norm[j] && movedWithNeighbours(orig, j, out, k);
}

/**
 * Output line k stands in original line j's place, moved into (or out of) a block: it sits at another
 * depth, next to a chain of j's own neighbours on one side moved by the same amount up to a solid
 * line. What the line says is left to the caller (the same text, or an edit of j's).
 */
export function movedWithNeighbours(orig: Lines, j: number, out: Lines, k: number): boolean {
  const shift = out.indent[k]! - orig.indent[j]!;
  if (shift === 0) return false;
  return pinnedTowards(orig, j, out, k, shift, -1) || pinnedTowards(orig, j, out, k, shift, 1);
}

function pinnedTowards(orig: Lines, j: number, out: Lines, k: number, shift: number, dir: 1 | -1): boolean {
  let y = j;
  let z = k;
  for (let step = 0; step < MAX_CHAIN; step++) {
    y = solidRow(orig, y, dir);
    z = solidRow(out, z, dir);
    if (y < 0 || z < 0 || out.norm[z] !== orig.norm[y] || out.indent[z]! - orig.indent[y]! !== shift) return false;
    if (!orig.weak[y]) return true;
  }
  return false;
}

/**
 * Output line k is original line j, kept or edited, as its run was moved into a new block: close to j
 * by the strict tests (not just the same first word: a new `if r := recover()` beside a moved body
 * line that reads like the old `if err := task()`'s is no edit of it), beside j's own neighbours moved
 * with it, in a run that is mostly the original's (movedRunKept) under a head the original does not
 * have. The same text counts too: a statement's continuation lines (`.client`, `.get(&url)`) wrapped
 * with it keep their text while its head is rewritten (`let releases = self` → `let res = self`), so
 * the head above them is no longer the one they stood under.
 */
export function movedEdit(orig: Lines, j: number, out: Lines, k: number): boolean {
  const a = orig.norm[j]!;
  const b = out.norm[k]!;
  if (orig.weak[j]) return false;
  return (a === b || strictlyClose(a, b)) && movedWithNeighbours(orig, j, out, k) && movedRunKept(orig, j, out, k);
}

function strictlyClose(a: string, b: string): boolean {
  return similarLines(a, b) || sameStatementEdited(a, b) || renamedInPlace(a, b) || extendedInPlace(a, b) || wrapsLine(a, b);
}

/**
 * The run around j, read in step on both sides (each row at j's shift, its text the same or an edit
 * of its original row), keeps at least as many of its lines unchanged as it edits (closers are the
 * blocks' shape, not their content: they are not counted; `break;` is), and when it
 * went deeper, a head above it is new. A block copied into a new callback with its head and a body
 * line edited (`if (!task.ok())` → `if (!task.saved())`) is a new block written like the old one,
 * not the old one moved: the marker beside it may stand for the original, which then stays.
 */
function movedRunKept(orig: Lines, j: number, out: Lines, k: number): boolean {
  const shift = out.indent[k]! - orig.indent[j]!;
  const same = out.norm[k] === orig.norm[j];
  let edited = same ? 0 : 1;
  let kept = same ? 1 : 0;
  let top = k;
  for (const dir of [-1, 1] as const) {
    let y = j;
    let z = k;
    for (;;) {
      y = solidRow(orig, y, dir);
      z = solidRow(out, z, dir);
      if (y < 0 || z < 0 || out.indent[z]! - orig.indent[y]! !== shift) break;
      if (out.norm[z] === orig.norm[y]) {
        if (!CLOSER_LINE.test(orig.norm[y]!)) kept++;
      } else if (!orig.weak[y] && (editedVersion(orig.norm[y]!, out.norm[z]!) || strictlyClose(orig.norm[y]!, out.norm[z]!))) edited++;
      else break;
      if (dir === -1) top = z;
    }
  }
  return edited <= kept && (shift < 0 || newHeadAbove(orig, out, top, out.indent[top]! - shift));
}

const LONE_OPENER = /^[{([]$/;

/**
 * One of the heads that open the run's new block (the shallower rows above output row `top`, up to the
 * first at the run's original depth) is a line the update added: the output holds its text more often
 * than the original does (`try {` may stand elsewhere in the file). Lone openers (`{` of an Allman head)
 * are alike everywhere and say nothing: the head is the line above them.
 */
function newHeadAbove(orig: Lines, out: Lines, top: number, depth: number): boolean {
  const added = (t: string): boolean => out.norm.filter((n) => n === t).length > orig.norm.filter((n) => n === t).length;
  let indent = out.indent[top]!;
  for (let z = solidRow(out, top, -1); z >= 0; z = solidRow(out, z, -1)) {
    if (out.indent[z]! >= indent || LONE_OPENER.test(out.norm[z]!)) continue;
    if (added(out.norm[z]!)) return true;
    if (out.indent[z]! <= depth) return false;
    indent = out.indent[z]!;
  }
  return false;
}
