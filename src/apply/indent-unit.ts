// A snippet written with another indentation unit than the file's (two spaces per level for a file
// indented by four, often together with a method pulled out to column 0, or four for a file of two): its lines are rescaled to
// the file's unit before placement, so the lines it shows unchanged are the original's lines and
// its new lines sit at the file's depths. Only when the lines the snippet shares with the original
// (once each there, not weak) all fit the rescaled indentation with one shift and do not all fit
// the snippet's own indentation with one shift.
import { splitLines, type Lines } from './lines.js';

/**
 * The indentation unit of space-indented lines: the step by which a line most often goes deeper than
 * the line before it (a block opening one level in), so that a continuation aligned under an open
 * parenthesis or a stray odd line does not make it one column; 0 when no line goes deeper or tabs
 * are used. A block comment's ` * ` lines sit one column past their level and do not count.
 */
function unit(l: Lines): number {
  const steps = new Map<number, number>();
  let prev = 0;
  for (let i = 0; i < l.text.length; i++) {
    if (l.blank[i]) continue;
    if (l.text[i]!.startsWith('\t')) return 0;
    if (l.text[i]!.trimStart().startsWith('*')) continue;
    const d = l.indent[i]! - prev;
    if (d > 0) steps.set(d, (steps.get(d) ?? 0) + 1);
    prev = l.indent[i]!;
  }
  let best = 0;
  for (const [d, n] of steps) if (best === 0 || n > steps.get(best)! || (n === steps.get(best)! && d < best)) best = d;
  return best;
}

/** True when every pair keeps one shift (original indentation − scale × update indentation). */
function oneShift(pairs: Array<[number, number]>, scale: number): boolean {
  let shift: number | null = null;
  for (const [ui, oi] of pairs) {
    const d = oi - scale * ui;
    if (shift === null) shift = d;
    else if (d !== shift) return false;
  }
  return shift !== null;
}

/** The update with its indentation rescaled to the original's unit, or the update unchanged. */
export function rescaleIndentUnit(update: string, code: string): string {
  const u = splitLines(update);
  const o = splitLines(code);
  const uu = unit(u);
  const ou = unit(o);
  // Either way round: two spaces a level for a file of four, or four for a file of two.
  if (uu === 0 || ou === 0 || ou === uu || (ou % uu !== 0 && uu % ou !== 0)) return update;
  const scale = ou / uu;
  const count = new Map<string, number>();
  const at = new Map<string, number>();
  for (let j = 0; j < o.text.length; j++) {
    if (o.weak[j]) continue;
    count.set(o.norm[j]!, (count.get(o.norm[j]!) ?? 0) + 1);
    at.set(o.norm[j]!, j);
  }
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < u.text.length; i++) {
    if (u.weak[i] || count.get(u.norm[i]!) !== 1) continue;
    pairs.push([u.indent[i]!, o.indent[at.get(u.norm[i]!)!]!]);
  }
  // Lines at different depths are needed to tell the units apart.
  if (new Set(pairs.map(([ui]) => ui)).size < 2 || !oneShift(pairs, scale) || oneShift(pairs, 1)) return update;
  return u.text.map((t, i) => {
    const lead = t.length - t.trimStart().length;
    // Snippet indentations are multiples of its unit, so the rescaled ones are whole.
    return (u.blank[i] ? t : ' '.repeat((u.indent[i]! / uu) * ou) + t.slice(lead)) + u.eol[i]!;
  }).join('');
}
