// A new sibling read as the edit of the line it copies (rule (a) of the no-loss check). An output
// line k paired with original line j drops a name X of j and brings a name Y the original never has
// (`counter DB_QUERIES,` → `histogram HTTP_LATENCY,`, `var isPresentingNewTask` → `var
// isConfirmingClearDone`). A rename carries Y to X's uses in place of X. When the output instead holds
// another line using Y *and* that same line with X put back (`Lazy::force(&HTTP_LATENCY);` beside the
// kept `Lazy::force(&DB_QUERIES);`), the two names live side by side: k is new code beside j, and j
// was left out, not rewritten.
import { escapeRe } from './escape-regexp.js';
import { tokens, type Lines } from './lines.js';

/** A word token long enough to be a name (not `x`, `if`, `id`). */
const NAME = /^[A-Za-z_$][\w$]{2,}$/;

/** A line's names. */
function lineNames(norm: string): string[] {
  return tokens(norm).filter((t) => NAME.test(t));
}

/** Every name token of a text, built once per text. */
const namesOf = new WeakMap<Lines, Set<string>>();

function names(l: Lines): Set<string> {
  let s = namesOf.get(l);
  if (!s) {
    s = new Set();
    for (const norm of l.norm) for (const t of lineNames(norm)) s.add(t);
    namesOf.set(l, s);
  }
  return s;
}

/** The output's lines as a set, built once per text. */
const rowsOf = new WeakMap<Lines, Set<string>>();

function rowSet(l: Lines): Set<string> {
  let s = rowsOf.get(l);
  if (!s) rowsOf.set(l, (s = new Set(l.norm)));
  return s;
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
  const rows = rowSet(out);
  for (const y of news) {
    const use = new RegExp(`(?<![\\w$])${escapeRe(y)}(?![\\w$])`, 'g');
    for (let r = 0; r < out.norm.length; r++) {
      const norm = out.norm[r]!;
      if (r === k || out.blank[r] || !norm.includes(y)) continue;
      use.lastIndex = 0;
      if (!use.test(norm)) continue;
      if (olds.some((x) => rows.has(norm.replace(use, x)))) return true;
    }
  }
  return false;
}
