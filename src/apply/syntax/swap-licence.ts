// Rule (a) "replaced" at definition level, for the no-loss invariant (docs/apply.md): an original
// definition that the update shows again, complete, with the same kind group and name, is replaced
// by it, whatever lines the two bodies share. The line-based check (loss.ts) cannot see that: when
// a new body repeats old lines elsewhere (`}`, `return nil`), its alignment pairs them up and calls
// the old body's other lines lost. So a merge that used the syntax pass is judged against the
// original with those definitions swapped in (place.ts), which holds every original line outside
// them: nothing outside a swapped definition may go missing except by rules (a)-(c).
import { expandMarkersInLines } from '../marker-expansion.js';
import { lineCounts, splitLines, type Lines } from '../lines.js';
import { commentCoveredRows } from '../licence-rules.js';
import { splitUpdate } from '../merge-context.js';
import { INLINE_MARKER } from '../markers.js';
import { trailingMarker } from '../trailing-marker.js';
import type { LossCheck } from '../loss.js';
import { instructionNames } from '../instruction-scope.js';
import { syntaxPass } from './place.js';

type Analyse = (orig: Lines, out: Lines, original: string, update: string, instruction: string | null) => LossCheck;

/**
 * The line check's verdict `check`, or, when it found lost lines and the syntax pass swaps
 * definitions for this original and update, the verdict against the swapped original if that one
 * finds none (its `licensed.replaced` then also counts the swapped definitions' original lines;
 * its `gaps` are in the swapped original's rows).
 */
export function withSwappedDefinitions(check: LossCheck, original: string, update: string, instruction: string | null, output: string, analyse: Analyse): LossCheck {
  if (check.lost.length === 0) return check;
  // Code a new comment stands for (`/* unchanged lookup */` inside the new body) is not replaced by the body.
  if (check.gaps.some((g) => g.vanished.some((v) => v.commented && !v.present))) return check;
  const pass = swapped(original, update, instruction);
  if (!pass) return check;
  const verdict = analyse(pass.lines, splitLines(output), pass.code, update, instruction);
  if (verdict.lost.length > 0) return check;
  return { ...verdict, licensed: { ...verdict.licensed, replaced: verdict.licensed.replaced + pass.rows } };
}

/** The last few swapped originals: the oracle judges many outputs of one edit in a row (tests, restoreLost rounds). */
const recent: Array<{ original: string; update: string; instruction: string | null; pass: { code: string; lines: Lines; rows: number } | null }> = [];

function swapped(original: string, update: string, instruction: string | null): { code: string; lines: Lines; rows: number } | null {
  const hit = recent.find((r) => r.original === original && r.update === update && r.instruction === instruction);
  if (hit) return hit.pass;
  const expanded = expandMarkersInLines(update, original);
  // The twin the instruction names, as the merge chose it (instruction-scope.ts).
  const sp = syntaxPass(original, expanded, instructionNames(instruction));
  let pass = null;
  // A definition still holding a marker inside a line is not shown complete: that marker stands for code.
  if (sp && !unexpandedInlineMarker(expanded, original)) {
    const orig = splitLines(original);
    let rows = 0;
    for (const s of sp.swaps) for (let r = s.start; r <= s.end; r++) if (!orig.blank[r]) rows++;
    pass = { code: sp.code, lines: splitLines(sp.code), rows };
  }
  recent.unshift({ original, update, instruction, pass });
  if (recent.length > 4) recent.pop();
  return pass;
}

/** Some line of the update holds an inline marker the original does not (one left unexpanded). */
function unexpandedInlineMarker(update: string, original: string): boolean {
  for (const line of update.split('\n')) {
    const m = INLINE_MARKER.exec(line);
    if (m && line.trim() !== m[0] && !original.includes(m[0])) return true;
    if (trailingMarker(line) && !original.includes(line.trim())) return true;
  }
  return false;
}

/**
 * A swap the licence does not cover: an original row of a swapped (not inserted) definition that a
 * new comment of the update stands for (`/* unchanged lookup *\/` between two of its lines,
 * licence-rules.ts `commentCoveredRows`). The swapped original lacks that code, so a merge judged
 * against it could not see the loss; such a syntax merge is not taken (merge.ts).
 */
export function swapDropsCommentedCode(original: string, update: string, swaps: ReadonlyArray<{ start: number; end: number; inserted?: boolean }>): boolean {
  const orig = splitLines(original);
  const count = lineCounts(orig, { solidOnly: true });
  const row = new Map<string, number>();
  orig.norm.forEach((n, j) => {
    if (!orig.blank[j]) row.set(n, j);
  });
  const split = splitUpdate(expandMarkersInLines(update, original), orig, original);
  const covered = commentCoveredRows(orig, split.segments, (n) => count.has(n), (n) => (count.get(n) === 1 ? row.get(n) : undefined));
  if (covered.size === 0) return false;
  return swaps.some((d) => !d.inserted && [...covered].some((j) => j >= d.start && j <= d.end));
}

