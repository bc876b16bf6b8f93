// A repeated original line (`if err != nil {`, `return nil;`, `self.save()`) that an update shows
// inside new code is an anchor only when something ties it to that occurrence. Held-out set g go05:
// after the anchor `cfg.WriteTimeout = wt` the update writes a new block `rt, err := durationEnv(…)`
// / `if err != nil {` / `return nil, err` / …; the original's next statement is `mb, err :=
// strconv.ParseInt(…)` / `if err != nil {` / `return nil, fmt.Errorf(…)`. Taking the new block's
// `if err != nil {` for the original's next one reads `rt, err := …` as the replacement of
// `mb, err := …` and drops that line, though nothing in the update says it goes: the new line is
// no edit of it, and the lines after the shared `if` differ too.
//
// The test, for both merges (merge-fast.ts, merge-large.ts) and for the no-loss check's rule (b)
// (loss.ts, where such a q is "pinned as the nearest occurrence"): the match at (i, j) skips
// original lines after the previous anchor (prevI, prevJ), the update shows new lines there, none of
// them reads as an edit of a skipped line, and the update line after i is not the original line
// after j. A pure deletion (nothing shown between the anchors) and an edit of the skipped line are
// untouched; so is a match the following line confirms.
import { editedVersion, sameStatementEdited, solidRow, type Lines } from './lines.js';
import { extendedInPlace } from './extended-line.js';
import { rowNamesDiffer } from './line-identity.js';
import { newSiblingLine } from './edit-evidence.js';
import { soleMemberRewritten } from './sole-member.js';
import { anotherItem, settingOfOtherItem } from './sibling-items.js';

/** Non-weak rows (lo, hi) of `l` (closers and keywords tell nothing), at most `cap` of them (null: more than that). */
function rowsBetween(l: Lines, lo: number, hi: number, cap: number): number[] | null {
  const out: number[] = [];
  for (let x = lo + 1; x < hi; x++) {
    if (l.weak[x]) continue;
    if (out.length >= cap) return null;
    out.push(x);
  }
  return out;
}

/** Rows compared pairwise at most (a long replacement is judged by other rules). */
const MAX_ROWS = 24;

function readsAsEdit(a: string, b: string): boolean {
  return a === b || editedVersion(a, b) || sameStatementEdited(a, b) || extendedInPlace(a, b);
}

/**
 * Segment row `i`, a line the original has more than once, matched to original row `j` after the
 * previous anchor (prevI, prevJ) in direction `dir` (1: i after prevI, j after prevJ; -1: before),
 * is new code that equals an original line by coincidence: see the module comment. `repeated` says
 * whether the original has the line more than once.
 */
export function coincidentAnchor(s: Lines, o: Lines, prevI: number, prevJ: number, i: number, j: number, dir: 1 | -1, repeated: boolean, edgeUnconfirmed = false): boolean {
  // A setting a new list item copies from j's item, named otherwise (sibling-items.ts), is no anchor
  // there even when the original has it once.
  if (settingOfOtherItem(o, j, s, i)) return true;
  if (!repeated) return false;
  // The far side: the update line beyond i must be there and differ from the original's beyond j.
  // For the no-loss check (`edgeUnconfirmed`), a segment that ends at i confirms nothing either.
  const si = solidRow(s, i, dir);
  if (si < 0 && !edgeUnconfirmed) return dir > 0 && closesNewHead(s, o, prevI, prevJ, i, j);
  const oj = solidRow(o, j, dir);
  // For the no-loss check, a weak anchor followed by weak lines alike up to the segment's end
  // (`return err`, `}`: every sibling block ends so) is confirmed no more than by the end itself.
  const weakToEnd = edgeUnconfirmed && s.weak[i]! && si >= 0 && weakAlikeToEnd(s, si, o, oj, dir);
  if (si >= 0 && oj >= 0 && s.norm[si] === o.norm[oj] && !weakToEnd) return false;
  // No far side (the segment ends at i): coincident only when a shown line is a new sibling of a
  // skipped one (edit-evidence.ts: `<Button variant="secondary" …>` beside `<Button variant="destructive" …>`).
  if (si < 0 || weakToEnd) return newSiblingBetween(s, o, prevI, prevJ, i, j, dir);
  // A repeated item head (`[[redirects]]`) over the settings of a new item beside the original's
  // next one (sibling-items.ts) heads that new item.
  if (dir > 0 && oj >= 0 && anotherItem(o, oj, s, si)) return true;
  const skipped = dir === 1 ? rowsBetween(o, prevJ, j, MAX_ROWS) : rowsBetween(o, j, prevJ, MAX_ROWS);
  if (skipped === null || skipped.length === 0) return false;
  const shown = dir === 1 ? rowsBetween(s, prevI, i, MAX_ROWS) : rowsBetween(s, i, prevI, MAX_ROWS);
  if (shown === null || shown.length === 0) return false;
  // A shown line naming another route, definition or key than the skipped one is no edit of it
  // (`app.delete(` / `"/api/projects/:id",` for `app.get(` / `"/api/projects/:id/tasks",`: set j js01).
  for (const x of shown) for (const y of skipped) if (readsAsEdit(o.norm[y]!, s.norm[x]!) && !rowNamesDiffer(o, y, s, x)) return false;
  // Nor is a head shown as the rewrite of the one member of its block (sole-member.ts).
  for (const x of shown) if (skipped.includes(soleMemberRewritten(s, x, o))) return false;
  return true;
}

/**
 * The head at row `r`'s indentation that opens the block `r` closes, searched up to row `floor`
 * (exclusive): the nearest line above at that indentation with only deeper lines between (at least
 * one); -1 when a line left of it comes first, or none.
 */
function blockHead(l: Lines, r: number, floor: number): number {
  let deeper = false;
  for (let y = r - 1; y > floor; y--) {
    if (l.blank[y]) continue;
    if (l.indent[y]! > l.indent[r]!) {
      deeper = true;
      continue;
    }
    return l.indent[y] === l.indent[r] && deeper ? y : -1;
  }
  return -1;
}

/**
 * Segment row i, the segment's last line (a marker or the end follows: nothing beyond confirms it),
 * closes a block that a new line after the previous anchor opens (`IF p_points < v_min THEN` …
 * `END IF;`), and original row j closes a block opened after prevJ (`IF NOT FOUND THEN`) that is not
 * that line's edit in its place (right after prevJ, read as an edit): i is the new block's closer.
 * Paired with j, the new block would stand for the original lines up to j (`SELECT … FOR UPDATE;`
 * and that other block), which the update never shows.
 */
function closesNewHead(s: Lines, o: Lines, prevI: number, prevJ: number, i: number, j: number): boolean {
  const p = blockHead(s, i, prevI);
  const h = blockHead(o, j, prevJ);
  if (p < 0 || h < 0 || s.norm[p] === o.norm[h]) return false;
  for (let y = 0; y < o.text.length; y++) if (o.norm[y] === s.norm[p]) return false;
  // An edit of that head in its place (the next line after prevJ) is the one reading that keeps j.
  return solidRow(o, prevJ, 1) !== h || !readsAsEdit(o.norm[h]!, s.norm[p]!);
}

/** From rows x of `s` and y of `o` on in direction dir, weak lines equal pairwise until the segment ends. */
function weakAlikeToEnd(s: Lines, x: number, o: Lines, y: number, dir: 1 | -1): boolean {
  while (x >= 0) {
    if (y < 0 || !s.weak[x] || s.norm[x] !== o.norm[y]) return false;
    x = solidRow(s, x, dir);
    y = solidRow(o, y, dir);
  }
  return true;
}

/** Some update row between prevI and i is a new sibling of an original row between prevJ and j. */
function newSiblingBetween(s: Lines, o: Lines, prevI: number, prevJ: number, i: number, j: number, dir: 1 | -1): boolean {
  const skipped = dir === 1 ? rowsBetween(o, prevJ, j, MAX_ROWS) : rowsBetween(o, j, prevJ, MAX_ROWS);
  const shown = dir === 1 ? rowsBetween(s, prevI, i, MAX_ROWS) : rowsBetween(s, i, prevI, MAX_ROWS);
  if (!skipped || !shown) return false;
  for (const x of shown) for (const y of skipped) if (newSiblingLine(o, y, s.norm[x]!)) return true;
  return false;
}

/**
 * `chain` less the anchors after its first that are coincident (above) with the anchor kept before
 * them: a segment resumed on a closer (closer-resume.ts) keeps its pivot only when it is tied to it.
 */
export function withoutCoincident(s: Lines, o: Lines, chain: Array<[number, number]>, occurrences: (norm: string) => number): Array<[number, number]> {
  if (chain.length < 2) return chain;
  const out: Array<[number, number]> = [chain[0]!];
  for (let c = 1; c < chain.length; c++) {
    const [pi, pj] = out[out.length - 1]!;
    const [i, j] = chain[c]!;
    if (coincidentAnchor(s, o, pi, pj, i, j, 1, occurrences(s.norm[i]!) > 1)) continue;
    out.push(chain[c]!);
  }
  return out;
}
