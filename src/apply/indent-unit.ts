// A snippet written with another indentation unit than the file's (two spaces per level for a file
// indented by four or by tabs, often together with a method pulled out to column 0, or four for a
// file of two): its lines are rescaled to the file's unit, in the file's indent characters, before
// placement, so the lines it shows unchanged are the original's lines and its new lines sit at the
// file's depths. Only when the lines the snippet shares with the original (not weak, at one depth
// wherever the original has them) all fit the rescaled indentation with one shift and do not all
// fit the snippet's own indentation with one shift.
import { indentText, solidRow, splitLines, type Lines } from './lines.js';
import { markerLines } from './markers.js';

/**
 * The indentation unit in columns (a tab counts TAB_WIDTH): the step by which a line most often goes
 * deeper than the line before it (a block opening one level in), so that a continuation aligned
 * under an open parenthesis or a stray odd line does not make it one column; 0 when no line goes
 * deeper. A block comment's ` * ` lines sit one column past their level and do not count.
 */
function unit(l: Lines): number {
  const steps = new Map<number, number>();
  let prev = 0;
  for (let i = 0; i < l.text.length; i++) {
    if (l.blank[i]) continue;
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

/** True when every pair's residual (original − scale × update indentation) is the same modulo `grid`. */
function onGrid(pairs: Array<[number, number]>, scale: number, grid: number): boolean {
  const r = pairs.map(([ui, oi]) => (((oi - scale * ui) % grid) + grid) % grid);
  return r.every((x) => x === r[0]);
}

/** The distinct values `at(j)` takes over the non-weak original lines j, by line text. */
function byText(o: Lines, at: (j: number) => number): Map<string, number[]> {
  const values = new Map<string, number[]>();
  for (let j = 0; j < o.text.length; j++) {
    if (o.weak[j]) continue;
    const seen = values.get(o.norm[j]!);
    if (!seen) values.set(o.norm[j]!, [at(j)]);
    else if (!seen.includes(at(j))) seen.push(at(j));
  }
  return values;
}

/** The indentation of the next non-blank line where it is deeper than line x (x opens a block there), else -1. */
function bodyDepth(l: Lines, x: number): number {
  const y = solidRow(l, x, 1);
  return y >= 0 && l.indent[y]! > l.indent[x]! ? l.indent[y]! : -1;
}

/**
 * [update indentation, original indentation] of the lines that open the bodies of blocks whose head
 * the snippet shares with the original (at one depth there, every occurrence's body at one depth):
 * whatever the snippet writes first inside `function f() {`, it stands where the original's body does.
 * A marker there is no body line: models indent markers as they please.
 */
function bodyPairs(u: Lines, o: Lines, depths: Map<string, number[]>, bodies: Map<string, number[]>): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  const marker = markerLines(u.text, o.text);
  for (let i = 0; i < u.text.length; i++) {
    const ds = u.weak[i] ? undefined : depths.get(u.norm[i]!);
    const bs = bodies.get(u.norm[i]!);
    const inside = bodyDepth(u, i);
    if (ds?.length === 1 && bs?.length === 1 && bs[0]! >= 0 && inside >= 0 && !marker[solidRow(u, i, 1)]) pairs.push([inside, bs[0]!]);
  }
  return pairs;
}

/**
 * [update indentation, original indentation] of the snippet's non-weak lines the original has,
 * where `usable` accepts the original's indentations of that line (the first one stands for all).
 */
function sharedPairs(u: Lines, depths: Map<string, number[]>, usable: (ds: number[]) => boolean): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < u.text.length; i++) {
    const ds = u.weak[i] ? undefined : depths.get(u.norm[i]!);
    if (ds && usable(ds)) pairs.push([u.indent[i]!, ds[0]!]);
  }
  return pairs;
}

/**
 * How many levels of the file (`grid` columns each) the pairs' depths move against one another when
 * the snippet is read at `scale`: each residual (original − scale × update indentation) against the
 * reading's best common one; Infinity when a residual is off that one's grid (a line between levels).
 */
function levelsMoved(pairs: Array<[number, number]>, scale: number, grid: number): number {
  const residuals = pairs.map(([ui, oi]) => oi - scale * ui);
  let best = Infinity;
  for (const base of new Set(residuals)) {
    let moved = 0;
    for (const r of residuals) moved += (r - base) % grid === 0 ? Math.abs(r - base) / grid : Infinity;
    best = Math.min(best, moved);
  }
  return best;
}

/** Lines at different depths are needed to tell the units apart. */
function severalDepths(pairs: Array<[number, number]>): boolean {
  return new Set(pairs.map(([ui]) => ui)).size >= 2;
}

/** The update with its indentation rescaled to the original's unit, or the update unchanged. */
export function rescaleIndentUnit(update: string, code: string): string {
  const u = splitLines(update);
  const o = splitLines(code);
  const uu = unit(u);
  const ou = unit(o);
  // Either way round: two spaces a level for a file of four (or of tabs), or four for a file of two.
  if (uu === 0 || ou === 0 || ou === uu || (ou % uu !== 0 && uu % ou !== 0)) return update;
  const scale = ou / uu;
  const depths = byText(o, (j) => o.indent[j]!);
  // Lines at one depth wherever the original has them (`location /api/ {` in two servers) say how
  // deep the snippet's copy belongs: one shift after rescaling and none before.
  const single = [...sharedPairs(u, depths, (ds) => ds.length === 1), ...bodyPairs(u, o, depths, byText(o, (j) => bodyDepth(o, j)))];
  const shifted = severalDepths(single) && oneShift(single, scale) && !oneShift(single, 1);
  // Where the edit moved lines into or out of a block (a body wrapped in `try {`), or a line sits at
  // several depths (`.card {` at the top and in `@media`), the file's grid of depths still tells:
  // the shared lines sit on it (depths equal modulo the file's unit) only once rescaled.
  const gridded = sharedPairs(u, depths, (ds) => ds.every((d) => (d - ds[0]!) % ou === 0));
  const onFileGrid = severalDepths(gridded) && onGrid(gridded, scale, ou) && !onGrid(gridded, 1, ou);
  // An edit that wraps or unwraps code moves some lines by whole levels: the reading that moves fewer is the snippet's.
  const fewerMoves = severalDepths(single) && levelsMoved(single, scale, ou) < levelsMoved(single, 1, ou);
  if (!shifted && !onFileGrid && !fewerMoves) return update;
  // A line off the snippet's grid, or more than one level deeper than the last line on it, is a
  // continuation aligned under something on the line above (`cc:` under `mail(`, set bd rb19; a
  // key under `{ method:`): it keeps its columns past that line, since a block opens one level in.
  let gridRow = -1;
  const depth = u.text.map((_, i) => {
    if (u.blank[i]) return 0;
    if (gridRow < 0 || (u.indent[i]! % uu === 0 && u.indent[i]! <= u.indent[gridRow]! + uu)) {
      gridRow = i;
      return Math.round((u.indent[i]! / uu) * ou);
    }
    return Math.round((u.indent[gridRow]! / uu) * ou) + u.indent[i]! - u.indent[gridRow]!;
  });
  return u.text.map((t, i) => {
    const lead = t.length - t.trimStart().length;
    return (u.blank[i] ? t : indentText(depth[i]!, o.usesTabs) + t.slice(lead)) + u.eol[i]!;
  }).join('');
}
