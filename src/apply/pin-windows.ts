// A repeated line pinned by the pins around it (rule (b) of the no-loss check, loss.ts `contextHolds`).
// In look-alike blocks (two nginx `server`s with the same `location`s) every line of a hunk may repeat
// in the original, so walking its context never reaches a line the original has once before a marker
// stops it. The hunk before the marker still names the block (the server's name): the nearest
// update lines the original has once, before and after a line in update order, bound the stretch of
// the original it can stand in. A strong line whose text that stretch holds once is pinned there.
// A pin must be corroborated: a strong neighbour in the update (blank lines skipped) equal to the
// original's neighbour of its row. A lone once-line among new lines may itself be new code that
// repeats the original (a new check copying an existing check's body, one of whose lines the original
// has once); it would pin the copied lines into the wrong block.
import type { Segment } from './merge-context.js';
import { solidRow, type Lines } from './lines.js';

/** Per segment and line: the original rows of the nearest pins before and after it (-1 / N: none). */
export interface PinWindows {
  lo: number[][];
  hi: number[][];
  /** Original rows of each line text (by key). */
  rows: Map<string, number[]>;
}

/**
 * Windows for every update line; none (every window empty) when the update's once-lines do not
 * appear in file order (hunks out of order: no stretch is bounded by its neighbours).
 */
export function pinWindows(segments: readonly Segment[], orig: Lines, key: (norm: string) => string, uniqueRow: ReadonlyMap<string, number>): PinWindows | null {
  const N = orig.text.length;
  // A once-line: a strong line the original has once (a lone `});` says little about where it stands).
  const onceRow = (seg: Segment, i: number): number | undefined => {
    const r = seg.lines.blank[i] ? undefined : uniqueRow.get(key(seg.lines.norm[i]!));
    return r === undefined || orig.weak[r] ? undefined : r;
  };
  // A pin: a once-line whose update neighbour on one side is the strong line beside its row in the original.
  const pinRow = (seg: Segment, i: number): number | undefined => {
    const r = onceRow(seg, i);
    if (r === undefined) return undefined;
    const agrees = (dir: 1 | -1): boolean => {
      const u = solidRow(seg.lines, i, dir);
      const o = solidRow(orig, r, dir);
      return u >= 0 && o >= 0 && !orig.weak[o] && key(seg.lines.norm[u]!) === key(orig.norm[o]!);
    };
    return agrees(-1) || agrees(1) ? r : undefined;
  };
  const rows = new Map<string, number[]>();
  for (let j = 0; j < N; j++) {
    if (orig.blank[j]) continue;
    const k = key(orig.norm[j]!);
    const list = rows.get(k);
    if (list) list.push(j);
    else rows.set(k, [j]);
  }
  // Hunks out of order: every once-line counts here, corroborated or not.
  const once: number[] = [];
  for (const seg of segments) for (let i = 0; i < seg.lines.norm.length; i++) {
    const r = onceRow(seg, i);
    if (r !== undefined) once.push(r);
  }
  for (let x = 1; x < once.length; x++) if (once[x]! <= once[x - 1]!) return null;
  const lo: number[][] = [];
  let last = -1;
  for (const seg of segments) {
    const l: number[] = [];
    for (let i = 0; i < seg.lines.norm.length; i++) {
      l.push(last);
      const r = pinRow(seg, i);
      if (r !== undefined) last = r;
    }
    lo.push(l);
  }
  const hi: number[][] = segments.map((seg) => new Array<number>(seg.lines.norm.length).fill(N));
  let next = N;
  for (let s = segments.length - 1; s >= 0; s--) {
    const seg = segments[s]!;
    for (let i = seg.lines.norm.length - 1; i >= 0; i--) {
      hi[s]![i] = next;
      const r = pinRow(seg, i);
      if (r !== undefined) next = r;
    }
  }
  return { lo, hi, rows };
}

/** Original row j (a strong line) is the one row of its text between the pins around update line i of segment s. */
export function pinnedInWindow(w: PinWindows | null, s: number, i: number, orig: Lines, j: number, key: (norm: string) => string): boolean {
  if (!w || orig.weak[j]) return false;
  const lo = w.lo[s]?.[i];
  const hi = w.hi[s]?.[i];
  if (lo === undefined || hi === undefined || j <= lo || j >= hi) return false;
  let n = 0;
  for (const r of w.rows.get(key(orig.norm[j]!)) ?? []) if (r > lo && r < hi && ++n > 1) return false;
  return n === 1;
}
