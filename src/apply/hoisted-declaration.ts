// A declaration split from its value so the name outlives a new block: `var id = await f();` becomes
// `string id;` / `let id;`, then `try {` and `id = await f();` inside it. The assignment left inside
// the new block is the original declaration's edit, one level deeper and among new lines; the merge's
// edge growth and the no-loss pass's edit test both look for an edit at the same depth, next to
// the lines around it, and find neither.
import { escapeRe } from './escape-regexp.js';
import type { Lines } from './lines.js';

const ASSIGNMENT = /^([A-Za-z_$][\w$]*)\s*(?::=|=)\s*(\S.*)$/;
const DECLARED = /^(?:[A-Za-z_$][\w$<>[\],?]*\s+){1,3}([A-Za-z_$][\w$]*)\s*(?::=|=)\s*(\S.*)$/;

/**
 * The name when `assigned` is `declared` with its declaring words dropped (`var x = v` → `x = v`,
 * `final int x = v;` → `x = v;`, `x := v` → `x = v`): the same name and the same value; else null.
 */
export function hoistedAssignment(declared: string, assigned: string): string | null {
  const a = ASSIGNMENT.exec(assigned);
  if (!a || /^(?:==|=>)/.test(assigned.slice(a[1]!.length).trim())) return null;
  const d = DECLARED.exec(declared) ?? (/^[A-Za-z_$][\w$]*\s*:=/.test(declared) ? ASSIGNMENT.exec(declared) : null);
  return d && d[1] === a[1] && d[2] === a[2] ? a[1]! : null;
}

/** A line in l[lo, hi) that declares `name` without a value (`let x;`, `string x;`, `var x T`). */
export function declaresBare(l: Lines, lo: number, hi: number, name: string): boolean {
  const n = escapeRe(name);
  const bare = new RegExp(`^(?:[A-Za-z_$][\\w$<>[\\],?]*\\s+){1,3}${n}(?:\\s*:\\s*[^=]+)?\\s*;?$|^(?:var|let)\\s+${n}\\b[^=]*$`);
  for (let x = Math.max(0, lo); x < hi; x++) if (!l.blank[x] && bare.test(l.norm[x]!)) return true;
  return false;
}

/**
 * After a marker, the segment's new lines before its first paired line (i, j): the original line
 * above j (blanks aside, not above lo) is replaced when one of those new lines is its hoisted
 * assignment and a line above that one declares the name. Returns that pair, or null.
 */
export function hoistedHeadPair(s: Lines, o: Lines, i: number, j: number, lo: number): [number, number] | null {
  let y = j - 1;
  while (y >= lo && o.blank[y]) y--;
  if (y < lo || y < 0) return null;
  for (let x = i - 1; x > 0; x--) {
    if (s.blank[x]) continue;
    const name = hoistedAssignment(o.norm[y]!, s.norm[x]!);
    if (name !== null) return declaresBare(s, 0, x, name) ? [x, y] : null;
  }
  return null;
}
