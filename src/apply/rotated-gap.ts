// One deleted run can be read at several places when its edge repeats the lines beside it: deleting
// `@Test` / `void b() {…}` between `@Test` / `void a() {…}` and `@Test` / `void c() {…}` leaves the same
// text whether the first `@Test` kept is a's own or b's. The alignment picks one reading; the update
// may license only the other (it shows a's closer next to c's annotation). Both readings give the
// same output, so the deletion is licensed when either is.
import { solidRow, type Lines } from './lines.js';
import { ownerRow } from './line-identity.js';

/** A gap of the output: kept rows p and q around deleted non-blank rows. */
export interface GapReading {
  p: number;
  q: number;
  missing: number[];
}

/**
 * The other readings of the gap (p, q): the last m deleted rows equal, text for text, the m kept
 * non-blank rows ending at p (the deletion slides up by those rows), or the first m deleted rows
 * equal the m kept rows starting at q (it slides down). `kept` tells which original rows the output
 * keeps; a slid reading needs every row it moves over kept. Only a gap whose kept rows stand in one
 * block slides: one that runs from one function's body into the next's (the first's Allman `{`
 * slid against the second's body) is no deletion between siblings.
 */
export function rotatedReadings(orig: Lines, p: number, q: number, missing: readonly number[], kept: (j: number) => boolean): GapReading[] {
  const out: GapReading[] = [];
  const same = (a: number, b: number): boolean => orig.norm[a] === orig.norm[b];
  const N = orig.text.length;
  const owner = (j: number): number => (j < 0 || j >= N ? -1 : ownerRow(orig, j));
  if (owner(p) !== owner(q)) return out;
  const solidBetween = (a: number, b: number): number[] => {
    const rows: number[] = [];
    for (let j = a + 1; j < b; j++) if (!orig.blank[j]) rows.push(j);
    return rows;
  };
  // Slide up: kept rows r[0..m) ending at p mirror missing rows at the gap's end.
  const above: number[] = [];
  for (let j = p; j >= 0 && above.length < missing.length - 1; j = solidRow(orig, j, -1)) {
    if (!kept(j)) break;
    above.unshift(j);
    const m = above.length;
    if (!above.every((r, x) => same(r, missing[missing.length - m + x]!))) continue;
    const p2 = solidRow(orig, above[0]!, -1);
    const q2 = missing[missing.length - m]!;
    out.push({ p: p2, q: q2, missing: solidBetween(p2, q2) });
  }
  // Slide down: kept rows starting at q mirror missing rows at the gap's start.
  const below: number[] = [];
  for (let j = q; j >= 0 && j < N && below.length < missing.length - 1; j = solidRow(orig, j, 1)) {
    if (!kept(j)) break;
    below.push(j);
    const m = below.length;
    if (!below.every((r, x) => same(r, missing[x]!))) continue;
    const q2 = solidRow(orig, below[m - 1]!, 1);
    const p2 = missing[m - 1]!;
    out.push({ p: p2, q: q2 < 0 ? N : q2, missing: solidBetween(p2, q2 < 0 ? N : q2) });
  }
  return out;
}
