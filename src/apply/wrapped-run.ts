// A run of original lines wrapped in a new block comes back one level deeper. Its solid lines are
// recognised by their text; its closers and short statements (`}`, `),`, `continue;`) are alike
// everywhere, so their text alone says nothing: their neighbours say which original line they are.
import { solidRow, type Lines } from './lines.js';

/** How many neighbours a chain of weak lines may run through before it reaches a solid one. */
const MAX_CHAIN = 24;

/**
 * Output line k is original line j moved into a new block: the same text at another depth, with a
 * chain of j's own neighbours on one side, moved by the same amount, up to a line that is not weak.
 */
export function wrappedCopy(orig: Lines, j: number, out: Lines, k: number): boolean {
  if (out.norm[k] !== orig.norm[j]) return false;
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
