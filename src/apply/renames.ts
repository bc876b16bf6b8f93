// Lines the update shows renamed: the original line with one name replaced by another, where the old
// name appears nowhere in the update and the new one nowhere in the original (`function hashPwd(` →
// `function hashPassword(` with every caller shown renamed too). Such a line is its original line,
// edited: a segment with no exact anchor is placed on it. One pass over each text; original lines
// are looked up by their shape with names blanked out.
import type { MergeContext } from './merge-context.js';
import { copiedApart } from './new-name-evidence.js';

const NAME = /[A-Za-z_$][\w$]*/g;
const HOLE = '\u0001';
/** Lines a rename must be shown on (a definition and two uses) before it places anything. */
const MIN_RENAMED_LINES = 3;

function names(text: string): string[] {
  return text.match(NAME) ?? [];
}

/** Renamed update lines: segment → [segment line, original line] pairs, the rename one name to one name. */
export function renamedLines(ctx: MergeContext): Map<number, Array<[number, number]>> {
  const out = new Map<number, Array<[number, number]>>();
  const o = ctx.orig;
  const origNames = new Set<string>();
  for (const n of o.norm) for (const w of names(n)) origNames.add(w);
  const updNames = new Set<string>();
  for (const seg of ctx.segments) for (const n of seg.lines.norm) for (const w of names(n)) updNames.add(w);
  const fresh = new Set([...updNames].filter((w) => !origNames.has(w)));
  const gone = new Set([...origNames].filter((w) => !updNames.has(w)));
  if (fresh.size === 0 || gone.size === 0) return out;
  // Original lines holding a name the update dropped, by shape.
  const byShape = new Map<string, number[]>();
  o.norm.forEach((n, j) => {
    if (o.blank[j] || !names(n).some((w) => gone.has(w))) return;
    const shape = n.replace(NAME, HOLE);
    const list = byShape.get(shape);
    if (list) list.push(j);
    else byShape.set(shape, [j]);
  });
  const found: Array<[number, number, number, string, string]> = [];
  ctx.segments.forEach((seg, k) => {
    seg.lines.norm.forEach((n, i) => {
      if (seg.lines.blank[i] || seg.lines.weak[i]) return;
      const un = names(n);
      if (!un.some((w) => fresh.has(w))) return;
      const cands = byShape.get(n.replace(NAME, HOLE));
      if (!cands) return;
      const hits: Array<[number, string, string]> = [];
      for (const j of cands) {
        const on = names(o.norm[j]!);
        let from = '';
        let to = '';
        let ok = on.length === un.length;
        for (let x = 0; ok && x < on.length; x++) {
          if (on[x] === un[x]) continue;
          ok = gone.has(on[x]!) && fresh.has(un[x]!) && (from === '' || (from === on[x] && to === un[x]));
          from = on[x]!;
          to = un[x]!;
        }
        if (ok && from) hits.push([j, from, to]);
      }
      // Lines copied for the new name from places apart and written together are a new variant's, not a rename (new-name-evidence.ts).
      if (hits.length === 1 && !copiedApart(seg.lines, i, o, { from: hits[0]![1], to: hits[0]![2] })) found.push([k, i, hits[0]![0], hits[0]![1], hits[0]![2]]);
    });
  });
  // One old name goes to one new name across the update, shown at its definition and uses: a
  // single `npm run build` → `npm run lint` is a new line, not a rename.
  const target = new Map<string, string>();
  const support = new Map<string, number>();
  const clash = new Set<string>();
  for (const [, , , from, to] of found) {
    if (target.has(from) && target.get(from) !== to) clash.add(from);
    target.set(from, to);
    support.set(from, (support.get(from) ?? 0) + 1);
  }
  for (const [k, i, j, from] of found) {
    if (clash.has(from) || support.get(from)! < MIN_RENAMED_LINES) continue;
    const list = out.get(k);
    if (list) list.push([i, j]);
    else out.set(k, [[i, j]]);
  }
  return out;
}

/** The chain with the renamed pairs added where they keep it increasing on both sides (from original line lo on). */
export function withRenamed(chain: Array<[number, number]>, pairs: ReadonlyArray<[number, number]>, lo: number): Array<[number, number]> {
  let out = chain;
  for (const [i, j] of pairs) {
    if (j < lo || out.some(([a, b]) => a === i || b === j)) continue;
    const at = out.findIndex(([a]) => a > i);
    const pos = at < 0 ? out.length : at;
    const prev = out[pos - 1];
    const next = out[pos];
    if ((prev && prev[1] >= j) || (next && next[1] <= j)) continue;
    out = [...out.slice(0, pos), [i, j], ...out.slice(pos)];
  }
  return out;
}
