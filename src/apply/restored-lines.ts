// Writes an output with the lines the no-loss check found lost put back (loss.ts restoreLost): each
// run of lost lines at its original place between the kept lines, before or after the update's new
// lines in the gap as the update orders them, with the blank lines that parted it.
import { renderLines, splitLines, type Lines } from './lines.js';
import type { LossCheck } from './loss.js';

interface OutLine {
  text: string;
  eol: string;
}


export function rebuild(orig: Lines, out: Lines, check: LossCheck, update: string): string {
  const updNorm = splitLines(update).norm.filter((n) => n.length > 0);
  const follows = (a: string, b: string): boolean => {
    for (let i = 0; i + 1 < updNorm.length; i++) if (updNorm[i] === a && updNorm[i + 1] === b) return true;
    return false;
  };
  const lines: OutLine[] = [];
  const outLine = (k: number): OutLine => ({ text: out.text[k]!, eol: out.eol[k] || orig.dominantEol });
  const origLine = (j: number): OutLine => ({ text: orig.text[j]!, eol: orig.eol[j] || orig.dominantEol });
  let k = 0;
  for (const gap of check.gaps) {
    if (!gap.vanished.some((v) => v.rule === null && !v.present)) continue;
    // Output up to and including the kept line before the gap.
    for (; k <= gap.kp; k++) lines.push(outLine(k));
    const lostSet = new Set(gap.vanished.filter((v) => v.rule === null && !v.present).map((v) => v.j));
    const ins: number[] = [];
    for (let x = gap.kp + 1; x < gap.kq; x++) ins.push(x);
    const hasInserted = ins.some((x) => !out.blank[x]);
    const anyLicensed = gap.vanished.some((v) => v.rule !== null);
    if (!hasInserted && !anyLicensed) {
      // A pure loss: the original stretch comes back as it was.
      for (let j = gap.p + 1; j < gap.q; j++) lines.push(origLine(j));
      k = gap.kq;
      continue;
    }
    // Runs of lost lines (with the blank lines inside them), in original order.
    const runs: Array<[number, number]> = [];
    for (let j = gap.p + 1; j < gap.q; j++) {
      if (!lostSet.has(j)) continue;
      const last = runs[runs.length - 1];
      let joinable = !!last;
      if (last) for (let y = last[1] + 1; y < j; y++) if (!orig.blank[y]) joinable = false;
      if (last && joinable) last[1] = j;
      else runs.push([j, j]);
    }
    const emitRun = ([a, b]: [number, number], afterContent: boolean): void => {
      if (afterContent && a > 0 && orig.blank[a - 1] && lines.length > 0 && lines[lines.length - 1]!.text.trim() !== '') lines.push(origLine(a - 1));
      for (let j = a; j <= b; j++) lines.push(origLine(j));
      if (!afterContent && b + 1 < orig.text.length && orig.blank[b + 1]) lines.push(origLine(b + 1));
    };
    let x = 0;
    const paired = gap.vanished.filter((v) => v.pairedWith >= 0);
    if (paired.length > 0) {
      let r = 0;
      for (const v of paired) {
        while (r < runs.length && runs[r]![0] < v.j) emitRun(runs[r++]!, x > 0);
        while (x < ins.length && ins[x]! <= v.pairedWith) lines.push(outLine(ins[x++]!));
      }
      while (r < runs.length) emitRun(runs[r++]!, true);
      while (x < ins.length) lines.push(outLine(ins[x++]!));
    } else {
      const firstIns = ins.find((y) => !out.blank[y]);
      const lastIns = [...ins].reverse().find((y) => !out.blank[y]);
      const insertedFirst = gap.p >= 0 && firstIns !== undefined && follows(orig.norm[gap.p]!, out.norm[firstIns]!);
      const insertedLast = gap.q < orig.text.length && lastIns !== undefined && follows(out.norm[lastIns]!, orig.norm[gap.q]!);
      if (insertedFirst || !insertedLast) {
        for (const y of ins) lines.push(outLine(y));
        for (const run of runs) emitRun(run, true);
        // The blank line that parted the last run from the kept line after the gap comes back with it.
        const end = runs[runs.length - 1]![1] + 1;
        if (end < gap.q && orig.blank[end] && gap.kq < out.text.length && !out.blank[gap.kq]) lines.push(origLine(end));
      } else {
        for (const run of runs) emitRun(run, false);
        for (const y of ins) lines.push(outLine(y));
      }
    }
    k = gap.kq;
  }
  for (; k < out.text.length; k++) lines.push(outLine(k));
  const finalNewline = out.text.length === 0 ? orig.finalNewline : out.finalNewline;
  return renderLines(lines, orig.dominantEol, finalNewline);
}
