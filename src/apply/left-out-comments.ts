// Comments a writer left out. Rule (b) of the no-loss check lets the lines between two anchors shown
// adjacent go, comments included; a doc comment deleted on purpose and one a writer did not copy
// (`// Default returns …` above `func Default()`, notes under a class head) are the same text, and
// nothing in the update tells them apart. The committed sets side with keeping them: of the gaps (b)
// licenses in every expected output, none is comments alone (branch lossx), while seven lossy
// outputs were. Random deletions (generated.test.ts) side with deleting them. So `fast` keeps its
// reading but reports it (the merge's confidence drops, so `auto` hands over), and `large` and
// `auto` keep such comments (merge.ts).
// A comment run that went from a stretch which also holds the hunk's own change (a head renamed
// below a banner, a line added before a doc comment) is not that change: the hunk exists for the
// edit, as with edited-definition-docs.ts. It is written back in every mode beside the line it
// clung to (no blank between), unless new code now clings to that line in its place (a `TODO`
// comment replaced by its code).
import { checkLoss, gapHoldsOutput, type LossCheck } from './loss.js';
import { proseComment, SPEAKS_OF_COMMENTS } from './edited-definition-docs.js';
import { renderLines, splitLines, type Lines } from './lines.js';

/** A stretch of the output where original comment lines went with nothing of the output in their place. */
interface LeftOut {
  /** Original rows before and after the stretch (kept), and the output rows they became. */
  p: number;
  q: number;
  kp: number;
  kq: number;
  rows: number[];
}

/** The loss check of an output with both texts split; null where the comments are not ours to judge
 *  (the instruction speaks of comments, or the output loses lines unlicensed). */
function checkedOutput(original: string, update: string, instruction: string | null, output: string): { check: LossCheck; orig: Lines; out: Lines } | null {
  if (instruction !== null && SPEAKS_OF_COMMENTS.test(instruction)) return null;
  const check = checkLoss(original, update, instruction, output);
  if (check.lost.length > 0) return null;
  return { check, orig: splitLines(original), out: splitLines(output) };
}

/**
 * The original comment lines the output drops by rule (b) alone: every missing line of the stretch
 * is a comment licensed only as between anchors, the output has nothing but blank lines there, and
 * the instruction does not speak of comments.
 */
export function leftOutComments(original: string, update: string, instruction: string | null, output: string): LeftOut[] {
  const seen = checkedOutput(original, update, instruction, output);
  if (!seen) return [];
  const { check, orig, out } = seen;
  const found: LeftOut[] = [];
  for (const g of check.gaps) {
    if (g.vanished.length === 0 || g.p < 0 || g.q >= orig.text.length) continue;
    if (!g.vanished.every((v) => v.rule === 'between-anchors' && !v.present && proseComment(orig.norm[v.j]!))) continue;
    // Every non-blank original line of the stretch went (the gap holds nothing kept or moved).
    let whole = true;
    for (let j = g.p + 1; j < g.q; j++) if (!orig.blank[j] && !g.vanished.some((v) => v.j === j)) whole = false;
    if (!gapHoldsOutput(g, out) && whole) found.push({ p: g.p, q: g.q, kp: g.kp, kq: g.kq, rows: g.vanished.map((v) => v.j) });
  }
  return found;
}

/** Original comment rows to write back before output row `at` (a stretch that also held an edit). */
export interface BesideEdit {
  at: number;
  rows: number[];
}

/**
 * The comment runs the output drops by rule (b) alone from a stretch whose other missing lines an
 * edit replaces, or where the output has lines of its own: each run goes back next to the original
 * line it clung to, at that line's place in the output (kept, or the update line that replaced it).
 */
export function commentsBesideEdits(original: string, update: string, instruction: string | null, output: string): BesideEdit[] {
  const seen = checkedOutput(original, update, instruction, output);
  if (!seen) return [];
  const { check, orig, out } = seen;
  const found: BesideEdit[] = [];
  for (const g of check.gaps) {
    if (g.p < 0 || g.q >= orig.text.length) continue;
    const dropped = new Set(g.vanished.filter((v) => v.rule === 'between-anchors' && !v.present && proseComment(orig.norm[v.j]!)).map((v) => v.j));
    if (dropped.size === 0) continue;
    // Every other missing line has its licence from an edit (replaced), none from adjacency alone.
    if (g.vanished.some((v) => !dropped.has(v.j) && v.rule !== 'replaced')) continue;
    const image = new Map<number, number>([[g.p, g.kp], [g.q, g.kq]]);
    for (const v of g.vanished) if (v.rule === 'replaced' && v.pairedWith > g.kp && v.pairedWith < g.kq) image.set(v.j, v.pairedWith);
    const paired = new Set(image.values());
    let edited = image.size > 2;
    for (let k = g.kp + 1; k < g.kq; k++) if (!out.blank[k] && !paired.has(k)) edited = true;
    if (!edited) continue;
    for (let j = g.p + 1; j < g.q; j++) {
      if (!dropped.has(j) || dropped.has(j - 1)) continue;
      let end = j;
      while (dropped.has(end + 1)) end++;
      const rows = Array.from({ length: end - j + 1 }, (_, x) => j + x);
      const above = orig.blank[j - 1] ? undefined : image.get(j - 1);
      const below = orig.blank[end + 1] ? undefined : image.get(end + 1);
      // The output line on the run's other side must be blank (or the other neighbour): new code there took its place.
      if (above !== undefined && (out.blank[above + 1] || above + 1 === below)) found.push({ at: above + 1, rows });
      else if (below !== undefined && (out.blank[below - 1] || below - 1 === above)) found.push({ at: below, rows });
    }
  }
  return found;
}

/** The output with each run written back before its output row. */
export function withCommentsBeside(original: string, output: string, runs: readonly BesideEdit[]): string {
  const orig = splitLines(original);
  const out = splitLines(output);
  const lines: Array<{ text: string; eol: string }> = [];
  for (let k = 0; k <= out.text.length; k++) {
    for (const r of runs) if (r.at === k) for (const j of r.rows) lines.push({ text: orig.text[j]!, eol: orig.eol[j] || orig.dominantEol });
    if (k < out.text.length) lines.push({ text: out.text[k]!, eol: out.eol[k] || orig.dominantEol });
  }
  return renderLines(lines, orig.dominantEol, out.finalNewline);
}

/** The output with each left-out stretch written back as the original had it (blank lines included). */
export function withCommentsKept(original: string, output: string, stretches: readonly LeftOut[]): string {
  const orig = splitLines(original);
  const out = splitLines(output);
  const lines: Array<{ text: string; eol: string }> = [];
  const outLine = (k: number): void => {
    lines.push({ text: out.text[k]!, eol: out.eol[k] || orig.dominantEol });
  };
  let k = 0;
  for (const s of stretches) {
    for (; k <= s.kp; k++) outLine(k);
    for (let j = s.p + 1; j < s.q; j++) lines.push({ text: orig.text[j]!, eol: orig.eol[j] || orig.dominantEol });
    k = s.kq;
  }
  for (; k < out.text.length; k++) outLine(k);
  return renderLines(lines, orig.dominantEol, out.finalNewline);
}
