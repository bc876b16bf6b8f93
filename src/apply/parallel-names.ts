// A new sibling read as the edit of the line it copies (rule (a) of the no-loss check). An output
// line k paired with original line j drops a name X of j and brings a name Y the original never has
// (`counter DB_QUERIES,` → `histogram HTTP_LATENCY,`, `var isPresentingNewTask` → `var
// isConfirmingClearDone`). A rename carries Y to X's uses in place of X. When the output instead holds
// another line using Y *and* that same line with X put back (`Lazy::force(&HTTP_LATENCY);` beside the
// kept `Lazy::force(&DB_QUERIES);`), and every original copy of that old-name line is still there,
// the two names live side by side: k is new code beside j, and j was left out, not rewritten. (A
// rename confined to one function rewrites one of two `x := f(old)` copies: one copy is gone.)
import { escapeRe } from './escape-regexp.js';
import { lineCounts, perText, solidRow, strongRow, tokens, type Lines } from './lines.js';

/** A word token long enough to be a name (not `x`, `if`, `id`). */
const NAME = /^[A-Za-z_$][\w$]{2,}$/;

/** A line's names. */
function lineNames(norm: string): string[] {
  return tokens(norm).filter((t) => NAME.test(t));
}

/** Every name token of a text, built once per text. */
const names = perText((l) => {
  const s = new Set<string>();
  for (const norm of l.norm) for (const t of lineNames(norm)) s.add(t);
  return s;
});

/** How many lines of a text read so, built once per text. */
const rowCounts = perText((l) => lineCounts(l));

/** Every original line reading `norm` is still in the output: the line using the new name rewrote none of them. */
function allKept(orig: Lines, out: Lines, norm: string): boolean {
  const n = rowCounts(out).get(norm) ?? 0;
  return n > 0 && n >= (rowCounts(orig).get(norm) ?? 0);
}

/** Output row k, paired with original row j, brings a name used in parallel with one j loses: k is a new sibling, not j's edit. */
export function siblingBesideOld(orig: Lines, j: number, out: Lines, k: number): boolean {
  const tj = lineNames(orig.norm[j]!);
  const tk = lineNames(out.norm[k]!);
  const olds = tj.filter((t) => !tk.includes(t));
  if (olds.length === 0) return false;
  const known = names(orig);
  const news = tk.filter((t) => !known.has(t));
  if (news.length === 0) return false;
  for (const y of news) {
    const use = new RegExp(`(?<![\\w$])${escapeRe(y)}(?![\\w$])`, 'g');
    for (let r = 0; r < out.norm.length; r++) {
      const norm = out.norm[r]!;
      if (r === k || out.blank[r] || !norm.includes(y)) continue;
      use.lastIndex = 0;
      if (!use.test(norm)) continue;
      if (olds.some((x) => allKept(orig, out, norm.replace(use, x)))) return true;
    }
  }
  return false;
}

/**
 * The update shows k right beside j's neighbour in the original, a line the original has once, with
 * only the weak lines (`{`, `/**`) the original has between them and no marker: k stands in j's
 * place, j's edit there (rule (a)), though the old name lives on in parallel lines (a field added
 * beside the one a call switched from; a method's first statement edited under its head and `{`).
 */
export function shownInPlace(orig: Lines, j: number, kNorm: string, once: (row: number) => boolean, shownAt: (norm: string) => Array<[Lines, number]>): boolean {
  for (const dir of [-1, 1] as const) {
    const n = strongRow(orig, j, dir);
    if (n < 0 || !once(n)) continue;
    const back = dir === -1 ? 1 : -1;
    const between: string[] = [];
    for (let y = n + back; y !== j; y += back) if (!orig.blank[y]) between.push(orig.norm[y]!);
    for (const [lines, i] of shownAt(orig.norm[n]!)) if (showsRun(lines, i, back, [...between, kNorm])) return true;
  }
  return false;
}

/** From row x, in direction dir and past blank lines only, the update's lines read `run`. */
function showsRun(lines: Lines, x: number, dir: 1 | -1, run: string[]): boolean {
  let y = x;
  for (const t of run) {
    y = solidRow(lines, y, dir);
    if (y < 0 || lines.norm[y] !== t) return false;
  }
  return true;
}
