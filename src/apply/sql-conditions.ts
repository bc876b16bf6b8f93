// A SQL condition widened in place: `WHERE o.status = 'paid'` rewritten `WHERE o.status IN ('paid',
// 'shipped')`. assignmentKey (lines.ts) reads `WHERE o.status` as a key and the `IN` line has none, so
// the similarity tests take the two for lines of different keys and the old condition for a line the
// update never replaced (kept beside the new one, or refused as lost). The same clause keyword on the
// same column, the old value one of the new list's, is that one condition rewritten.

/** `WHERE col = value`: keyword, column, value, end (`;` or nothing). */
const EQUALS = /^(WHERE|AND|OR|ON|HAVING|WHEN)\s+([\w$.]+)\s*=\s*('[^']*'|[\w$.]+)\s*(;?)$/i;
/** `WHERE col IN (v1, v2, …)`: keyword, column, the list, end. */
const IN_LIST = /^(WHERE|AND|OR|ON|HAVING|WHEN)\s+([\w$.]+)\s+IN\s*\(([^()]*)\)\s*(;?)$/i;

/** `b` is condition `a` widened (`col = v` → `col IN (…, v, …)`) or `a` is `b` narrowed. */
export function widenedCondition(a: string, b: string): boolean {
  return widens(a, b) || widens(b, a);
}

function widens(eq: string, list: string): boolean {
  const e = EQUALS.exec(eq);
  const l = e ? IN_LIST.exec(list) : null;
  if (!e || !l) return false;
  if (e[1]!.toUpperCase() !== l[1]!.toUpperCase() || e[2] !== l[2] || e[4] !== l[4]) return false;
  return l[3]!.split(',').some((v) => v.trim() === e[3]);
}
