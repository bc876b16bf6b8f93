// A snippet written with another indentation unit than the file's (two spaces per level for a file
// indented by four, often together with a method pulled out to column 0): its lines are rescaled to
// the file's unit before placement, so the lines it shows unchanged are the original's lines and
// its new lines sit at the file's depths. Only when the lines the snippet shares with the original
// (once each there, not weak) all fit the rescaled indentation with one shift and do not all fit
// the snippet's own indentation with one shift.
import { splitLines, type Lines } from './lines.js';

/** Greatest common divisor of the positive indentations of space-indented lines; 0 when none or tabs are used. */
function unit(l: Lines): number {
  let g = 0;
  for (let i = 0; i < l.text.length; i++) {
    if (l.blank[i] || l.indent[i] === 0) continue;
    if (l.text[i]!.startsWith('\t')) return 0;
    let a = g;
    let b = l.indent[i]!;
    while (b) [a, b] = [b, a % b];
    g = a;
  }
  return g;
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
  if (uu === 0 || ou === 0 || ou <= uu || ou % uu !== 0) return update;
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
    return (u.blank[i] ? t : ' '.repeat(u.indent[i]! * scale) + t.slice(lead)) + u.eol[i]!;
  }).join('');
}
