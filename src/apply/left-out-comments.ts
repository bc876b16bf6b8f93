// Comments a writer left out. Rule (b) of the no-loss check lets the lines between two anchors shown
// adjacent go, comments included; a doc comment deleted on purpose and one a writer did not copy
// (`// Default returns …` above `func Default()`, notes under a class head) are the same text, and
// nothing in the update tells them apart. The committed sets side with keeping them: of the gaps (b)
// licenses in every expected output, none is comments alone (branch lossx), while seven lossy
// outputs were. Random deletions (generated.test.ts) side with deleting them. So `fast` keeps its
// reading but reports it (the merge's confidence drops, so `auto` hands over), and `large` and
// `auto` keep such comments (merge.ts).
import { checkLoss } from './loss.js';
import { proseComment, SPEAKS_OF_COMMENTS } from './edited-definition-docs.js';
import { renderLines, splitLines } from './lines.js';

/** A stretch of the output where original comment lines went with nothing of the output in their place. */
interface LeftOut {
  /** Original rows before and after the stretch (kept), and the output rows they became. */
  p: number;
  q: number;
  kp: number;
  kq: number;
  rows: number[];
}

/**
 * The original comment lines the output drops by rule (b) alone: every missing line of the stretch
 * is a comment licensed only as between anchors, the output has nothing but blank lines there, and
 * the instruction does not speak of comments.
 */
export function leftOutComments(original: string, update: string, instruction: string | null, output: string): LeftOut[] {
  if (instruction !== null && SPEAKS_OF_COMMENTS.test(instruction)) return [];
  const check = checkLoss(original, update, instruction, output);
  if (check.lost.length > 0) return [];
  const orig = splitLines(original);
  const out = splitLines(output);
  const found: LeftOut[] = [];
  for (const g of check.gaps) {
    if (g.vanished.length === 0 || g.p < 0 || g.q >= orig.text.length) continue;
    if (!g.vanished.every((v) => v.rule === 'between-anchors' && !v.present && proseComment(orig.norm[v.j]!))) continue;
    let own = false;
    for (let k = g.kp + 1; k < g.kq; k++) if (!out.blank[k]) own = true;
    // Every non-blank original line of the stretch went (the gap holds nothing kept or moved).
    let whole = true;
    for (let j = g.p + 1; j < g.q; j++) if (!orig.blank[j] && !g.vanished.some((v) => v.j === j)) whole = false;
    if (!own && whole) found.push({ p: g.p, q: g.q, kp: g.kp, kq: g.kq, rows: g.vanished.map((v) => v.j) });
  }
  return found;
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
