// Rule (a)'s refusal (loss.ts): an output line that reads like an original line's edit but is new
// code beside it (another name, key, sibling or block).
import { closesAt } from './brackets.js';
import { wrapsLine } from './wrapped-line.js';
import { assignmentKey, renamedInPlace, tokens, type Lines } from './lines.js';
import { lineIdentity, renameShownInPlace, rowNamesDiffer, sameDepth, sameOwner } from './line-identity.js';
import { namedHeadRow } from './block-names.js';
import { distinctUnderShownHeads } from './shown-parent-edit.js';
import { closerOwnersMatch, distinctEdit, ownerEditMatches } from './licence-rules.js';
import { anotherElement, anotherItem, anotherSibling } from './sibling-items.js';
import { extendedInPlace } from './extended-line.js';
import { keyRenamedKeepingValue, ownerRenamedThroughout, renamedThroughout, renamedWithUses } from './rename-evidence.js';
import { type UpdateView, key } from './update-view.js';

/**
 * Output line `norm` is new code beside original line j, not j's edit: it names something else
 * (line-identity.ts) and no update line of that text shows it as j renamed in place, or the update
 * shows it only inside blocks of other names than j's (`- run: npm run lint` in a new job is not
 * the `- run: npm run build` of the job after it).
 */
export function otherNamed(view: UpdateView, orig: Lines, j: number, norm: string, moved = false): boolean {
  // Another list item or element (sibling-items.ts) is never j's edit.
  if (anotherSibling(orig.norm[j]!, norm) || anotherElement(orig.norm[j]!, norm)) return true;
  // A line no more like j than j's siblings are is a new sibling (a mapping line beside the old
  // ones), unless it is j with one token renamed, shown in j's place (licence-rules.ts).
  // j grown or shrunk at one place (a name lengthened, a literal extended) is j's edit, not a sibling (extended-line.ts).
  // So is j wrapped whole in a new expression (wrapped-line.ts).
  const distinct = orig.weak[j] || distinctEdit(orig, j, norm) || extendedInPlace(orig.norm[j]!, norm) || wrapsLine(orig.norm[j]!, norm);
  const oneToken = !distinct && renamedInPlace(orig.norm[j]!, norm);
  const at = view.where.get(key(norm));
  // A line that came from an inline marker's expansion is judged by its text alone.
  if (!at) return !distinct || namesDiffer(orig.norm[j]!, norm) || keysDiffer(orig.norm[j]!, norm);
  for (const [s, i] of at) {
    const l = view.segments[s]!.lines;
    // A setting of a new item beside j's (sibling-items.ts) is no edit of j wherever it is shown.
    if (anotherItem(orig, j, l, i)) continue;
    // The heads the update shows the line under leave only j's own siblings to compete (shown-parent-edit.ts).
    const distinctHere = distinct || distinctUnderShownHeads(view.segments, s, i, orig, j, norm);
    // A rename the update carries through other original lines in their places is evidence of its
    // own: the renamed head's block may be rewritten (a helper renamed with its callers, its body new).
    if (!distinctHere && !(oneToken && ((renameShownInPlace(l, i, orig, j) && (headsBlock(orig, j) || shownBetweenNeighbours(l, i, orig, j) || renameRepeated(view, orig.norm[j]!, norm))) || (headsBlock(orig, j) && renamedWithUses(view.segments, orig, j, norm))))) continue;
    // A name on the line below a call head (`router.post(` / `"/projects",`) names that call's block.
    // A line grown at one place keeps all it had: a key its new run creates (`RUN --mount=…`) is no rename.
    const keyRenamed = keysDiffer(orig.norm[j]!, norm) && !extendedInPlace(orig.norm[j]!, norm);
    const differ = rowNamesDiffer(orig, j, l, i) || keyRenamed;
    // Another key at a marker edge (`insights_enabled = true` for `deletion_protection = true`) is a
    // new key: renamed only between both old neighbours, as a longer form of it, throughout the update,
    // or with a value of substance kept (rename-evidence.ts).
    if (keyRenamed && !headsBlock(orig, j) && !keysRelated(orig.norm[j]!, norm) && !shownBetweenNeighbours(l, i, orig, j) && !renameRepeated(view, orig.norm[j]!, norm) && !renamedThroughout(view.segments, orig, orig.norm[j]!, norm) && !keyRenamedKeepingValue(orig, j, norm)) continue;
    // A closer edited in place closes the same block.
    if (orig.weak[j] && !closerOwnersMatch(l, i, orig, j)) continue;
    // An edit inside a new header stands for j only when that header is the edit of j's.
    // So is an edit moved into a new block with its own neighbours (`moved`, wrapped-run.ts): they place it.
    if (orig.norm[j] !== norm && !moved && !ownerEditMatches(l, i, orig, j, (n) => view.origCount.has(key(n)))) continue;
    // The same text re-indented (wrapped in a new block) is that line; an edit stays at its depth
    // unless its neighbours moved with it.
    // A rename the update carries through other original lines in their places (rename-evidence.ts)
    // is a rename in place, and so is the block it heads.
    if ((!differ || renameShownInPlace(l, namedHeadRow(l, i), orig, namedHeadRow(orig, j)) || renamedThroughout(view.segments, orig, orig.norm[j]!, norm)) && (moved || sameOwner(l, i, orig, j) || ownerRenamedThroughout(view.segments, l, i, orig, j)) && (moved || orig.norm[j] === norm || sameDepth(l, i, orig, j))) return false;
  }
  return true;
}

/** Original line j opens a block (brackets or deeper lines after it). */
export function headsBlock(orig: Lines, j: number): boolean {
  if (closesAt(orig.text, j) > j) return true;
  let y = j + 1;
  while (y < orig.text.length && orig.blank[y]) y++;
  return y < orig.text.length && orig.indent[y]! > orig.indent[j]!;
}

/** Update row i stands between the lines that stood around original line j, both shown. */
function shownBetweenNeighbours(l: Lines, i: number, orig: Lines, j: number): boolean {
  const near = (t: Lines, x: number, dir: 1 | -1): string | undefined => {
    for (let y = x + dir; y >= 0 && y < t.text.length; y += dir) if (!t.blank[y]) return t.norm[y];
    return undefined;
  };
  const a = near(l, i, -1);
  const b = near(l, i, 1);
  return a !== undefined && b !== undefined && a === near(orig, j, -1) && b === near(orig, j, 1);
}

/**
 * The one token renamed from `old` to `norm` is renamed throughout the update: the new name on at
 * least two of its lines, the old one on none (a field renamed with its uses, not a new sibling).
 */
function renameRepeated(view: UpdateView, old: string, norm: string): boolean {
  const a = tokens(old);
  const b = tokens(norm);
  let k = 0;
  while (k < a.length && a[k] === b[k]) k++;
  const from = a[k];
  const to = b[k];
  if (!from || !to || !/^[A-Za-z_$]/.test(to)) return false;
  let withNew = 0;
  for (const seg of view.segments) {
    for (const n of seg.lines.norm) {
      if (!n.includes(to) && !n.includes(from)) continue;
      const t = tokens(n);
      if (t.includes(from)) return false;
      if (t.includes(to)) withNew++;
    }
  }
  return withNew >= 2;
}

/** The keys of two `key = value` lines, one inside the other (`Addr` → `ListenAddr`, `timeout` → `timeoutMs`). */
function keysRelated(a: string, b: string): boolean {
  const ka = assignmentKey(a)?.toLowerCase();
  const kb = assignmentKey(b)?.toLowerCase();
  return !!ka && !!kb && (ka.includes(kb) || kb.includes(ka));
}

function namesDiffer(a: string, b: string): boolean {
  const ia = lineIdentity(a);
  const ib = ia === null ? null : lineIdentity(b);
  return ia !== null && ib !== null && ia !== ib;
}

/** `key = value` lines of different keys (`deletion_protection = true`, `performance_insights_enabled = true`). */
function keysDiffer(a: string, b: string): boolean {
  const ka = assignmentKey(a);
  const kb = ka === null ? null : assignmentKey(b);
  return ka !== null && kb !== null && ka !== kb;
}
