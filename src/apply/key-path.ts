// Config values repeat under different keys: `memory: 256Mi` is the old `limits:` value and the new
// `requests:` value in one Kubernetes edit (`memory: 128Mi` → `256Mi`, `256Mi` → `512Mi`). An update
// line whose text the original has only inside blocks of other names (line-identity.ts `sameOwner`,
// compared header by header up the key path) is new text where the update writes it, so it may be
// the edit of the line it replaces at its own key path; a copy of a line from the same block is not.
import { assignmentKey, type Lines } from './lines.js';
import { sameOwner } from './line-identity.js';
import { rowsOf } from './merge-context.js';

/**
 * Every place the update shows `norm` (`shown`: segment lines, by segment) sits in blocks named
 * otherwise than every original line of that text: the text is new at its key path.
 */
export function newAtKeyPath(orig: Lines, norm: string, shown: ReadonlyArray<readonly [Lines, number]>): boolean {
  const rows = rowsOf(orig, norm);
  if (rows.length === 0 || shown.length === 0) return false;
  for (const [l, i] of shown) for (const j of rows) if (sameOwner(l, i, orig, j)) return false;
  return true;
}

/**
 * Output row k sets the key original row j sets, under heads of the same names, to a text no
 * original line has under those heads: j's edit at its key path (`enabled: true` under worker's
 * `autoscaling:` for its `enabled: false`), though the text stands under other parents (every
 * service's own `enabled: true`). A block holds a key once, so it is no second line beside j.
 */
export function keyEditedAtPath(orig: Lines, j: number, out: Lines, k: number): boolean {
  const setKey = assignmentKey(out.norm[k]!);
  return setKey !== null && assignmentKey(orig.norm[j]!) === setKey && sameOwner(out, k, orig, j) && newAtKeyPath(orig, out.norm[k]!, [[out, k]]);
}
