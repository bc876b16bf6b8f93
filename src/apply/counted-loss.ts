// The lost lines of a loss check (loss.ts) counted the way the benchmark counts them.
import { type Lines } from './lines.js';
import { type Gap } from './loss.js';

function noBlankBetween(l: Lines, a: number, b: number): boolean {
  for (let j = a + 1; j < b; j++) if (l.blank[j]) return false;
  return true;
}

/**
 * The lost lines, counted the way the benchmark counts them: per trimmed text, the output must
 * hold as many occurrences as the original, less those rules (a)-(c) license. An unlicensed line
 * whose text the output still holds that often was moved, not lost (the update shows it elsewhere);
 * that reading is taken only for a whole run of them (lines not parted by a blank line), and not for
 * one of closing lines alone, so a block is never put back without lines that moved with it.
 */
export function countedLoss(orig: Lines, out: Lines, gaps: Gap[]): number[] {
  const missing = new Map<string, number>();
  for (let j = 0; j < orig.text.length; j++) if (!orig.blank[j]) missing.set(orig.text[j]!.trim(), (missing.get(orig.text[j]!.trim()) ?? 0) + 1);
  for (let k = 0; k < out.text.length; k++) {
    const t = out.text[k]!.trim();
    const n = missing.get(t);
    if (n !== undefined) missing.set(t, n - 1);
  }
  for (const g of gaps) for (const v of g.vanished) if (v.rule) missing.set(orig.text[v.j]!.trim(), missing.get(orig.text[v.j]!.trim())! - 1);
  const lost: number[] = [];
  for (const g of gaps) {
    const open = g.vanished.filter((v) => !v.rule);
    // Runs of unlicensed lines not parted by a blank line (a function, a paragraph): each moved or lost as one.
    for (let a = 0; a < open.length; ) {
      let b = a;
      while (b + 1 < open.length && noBlankBetween(orig, open[b]!.j, open[b + 1]!.j)) b++;
      const run = open.slice(a, b + 1);
      const moved = run.every((v) => missing.get(orig.text[v.j]!.trim())! <= 0) && run.some((v) => !orig.weak[v.j]);
      for (const v of run) {
        if (moved) v.present = true;
        else lost.push(v.j);
      }
      a = b + 1;
    }
  }
  return lost;
}
