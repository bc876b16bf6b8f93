// Positive evidence for rule (a) "replaced" of the no-loss check (loss.ts, branch lossm): an update
// line stands for original line j only when it reads as j's edit better than as anything else.
// - `closerToKeptLine`: the update line is more like another original line the output keeps (the
//   same method in a twin class, `Get(int id)` of RotaDto for RotaDto's new `Get(int id, ct)`): it
//   is that line's edit placed at the wrong twin, and j was lost, not replaced (set k cs03).
// - `newSiblingLine`: the update line differs from j at two separate places, keeps neither j's key
//   nor its name, and j has siblings of the same form (`r.Get("/orders/{id}", s.getOrder)` →
//   `r.Get("/orders/count", s.countOrders)` among other `r.Get(…)` routes, a `<Button …>` beside
//   other buttons): a new sibling, not j rewritten (set k go02, tsx04). One that only grows j (every
//   token of j kept, in order) is j's edit.
import { common, ends } from './licence-rules.js';
import { lineIdentity, ownerRow } from './line-identity.js';
import { assignmentKey, firstToken, perText, tokens, type Lines } from './lines.js';
import { extendedInPlace } from './extended-line.js';
import { widenedCondition } from './sql-conditions.js';

/** Original rows compared per update line (a bound: the check stays linear in the file). */
const MAX_RIVALS = 400;

/** The original's solid rows by their first token, once per text. */
const byFirstToken = perText((orig: Lines) => {
  const index = new Map<string, number[]>();
  for (let y = 0; y < orig.text.length; y++) {
    if (orig.blank[y]) continue;
    const f = firstToken(orig.norm[y]!);
    const list = index.get(f);
    if (list) list.push(y);
    else index.set(f, [y]);
  }
  return index;
});

function rowsStartingWith(orig: Lines, t: string): number[] {
  return byFirstToken(orig).get(t) ?? [];
}

/**
 * Update line `r` is more like original row y than like row j, on both measures (shared ends and
 * shared tokens in order), for some y the output keeps (`kept(y)`) and the update does not show as
 * it is (`shown`): r is y's edit.
 */
export function closerToKeptLine(orig: Lines, j: number, r: string, kept: (y: number) => boolean, shown: (norm: string) => boolean): boolean {
  const tj = tokens(orig.norm[j]!);
  const tr = tokens(r);
  const ej = ends(tj, tr);
  const cj = common(tj, tr);
  if (ej >= tr.length) return false;
  const rows = rowsStartingWith(orig, firstToken(r));
  for (let x = 0; x < rows.length && x < MAX_RIVALS; x++) {
    const y = rows[x]!;
    if (y === j || orig.norm[y] === orig.norm[j] || !kept(y) || shown(orig.norm[y]!)) continue;
    // r must be y grown at one place (`Get(int id)` → `Get(int id, CancellationToken ct)`): lines of
    // like structure (`Behaviors.setup { ctx =>`) or the same statement of another function
    // (`QueryContext(ctx, listUsersSQL, limit, offset)`) say nothing about where r belongs.
    const ny = orig.norm[y]!;
    if (!extendedInPlace(ny, r)) continue;
    const ty = tokens(ny);
    if (ends(ty, tr) > ej && common(ty, tr) > cj) return true;
  }
  return false;
}

const WORD_TOKEN = /^[A-Za-z_$\d]/;

/** `b` differs from `a` at two or more separate places: what lies between the changes (a word) is shared. */
function changedAtTwoPlaces(a: string[], b: string[]): boolean {
  const n = Math.min(a.length, b.length);
  let pre = 0;
  while (pre < n && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < n - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ma = a.slice(pre, a.length - suf);
  const mb = new Set(b.slice(pre, b.length - suf));
  if (ma.length === 0 || mb.size === 0) return false;
  // The first and last changed tokens differ by construction; a word or an argument comma shared
  // inside stands between two changes (`"/orders/{id}", s.getOrder` → `"/orders/count", s.countOrders`).
  return ma.some((t, x) => x > 0 && x < ma.length - 1 && (WORD_TOKEN.test(t) || t === ',') && mb.has(t));
}

/** Lines looked at on each side of j for a sibling of the same form. */
const SIBLING_WINDOW = 30;

export function newSiblingLine(orig: Lines, j: number, r: string): boolean {
  const oj = orig.norm[j]!;
  const kj = assignmentKey(oj);
  if (kj !== null && kj === assignmentKey(r)) return false;
  // The same SQL condition widened (`AND d.kind = 'x'` → `AND d.kind IN ('x', 'y')`) keeps its column (sql-conditions.ts).
  if (widenedCondition(oj, r)) return false;
  const ij = lineIdentity(oj);
  if (ij !== null && ij === lineIdentity(r)) return false;
  const tj = tokens(oj);
  const tr = tokens(r);
  if (tj.length < 4 || !changedAtTwoPlaces(tj, tr)) return false;
  // A line that keeps every token of j in order only grew at those places (`@printf("t = %d\n",
  // s.t)` → `@printf("t = %d (%d rejected)\n", s.t, s.rejected)`, a new field used): j edited.
  if (common(tj, tr) === tj.length) return false;
  // Siblings: same indentation and owner, the same first two tokens (`r.Get`, `<Button`).
  const owner = ownerRow(orig, j);
  for (const dir of [-1, 1] as const) {
    let seen = 0;
    for (let y = j + dir; y >= 0 && y < orig.text.length && seen < SIBLING_WINDOW; y += dir) {
      if (orig.blank[y]) continue;
      seen++;
      if (orig.indent[y]! < orig.indent[j]!) break;
      if (orig.indent[y] !== orig.indent[j] || ownerRow(orig, y) !== owner || orig.norm[y] === oj) continue;
      const ty = tokens(orig.norm[y]!);
      if (ty[0] === tj[0] && ty[1] === tj[1] && ty[0] === tr[0] && ty[1] === tr[1]) return true;
    }
  }
  return false;
}

/**
 * Update line `r` reads at least as much like another original row y that the output keeps as like
 * row j (shared ends and shared tokens in order, both no fewer): where r belongs is not told by its
 * text (twin blocks: `highlight(lineNext)` for `highlight(line)` or `highlight(subLine)`).
 */
export function asCloseToKeptLine(orig: Lines, j: number, r: string, kept: (y: number) => boolean): boolean {
  const tj = tokens(orig.norm[j]!);
  const tr = tokens(r);
  const ej = ends(tj, tr);
  const cj = common(tj, tr);
  const rows = rowsStartingWith(orig, firstToken(r));
  for (let x = 0; x < rows.length && x < MAX_RIVALS; x++) {
    const y = rows[x]!;
    if (y === j || orig.norm[y] === orig.norm[j] || !kept(y)) continue;
    const ty = tokens(orig.norm[y]!);
    if (ends(ty, tr) >= ej && common(ty, tr) >= cj) return true;
  }
  return false;
}
