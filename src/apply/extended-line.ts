// An edit that only grows or shrinks a line at one place: `getQty() {` → `getQuantity() {`,
// `minimum` → `minimumNext`, `case 'max':` → `case 'max (v2)':`, `f(a)` → `f(a, b)`. Everything the
// line had is still there, in order, around one inserted run (or the reverse). A new sibling line
// written beside an original one (`"/faq", view_func=faq` next to `"/about", view_func=about`, a new
// key `insights_enabled = true` next to `deletion_protection = true`) replaces text instead: the
// no-loss check (loss.ts) takes only the grown or shrunk line as the original line's edit without
// both its neighbours shown.

/** Characters of a name or a number. */
const WORD = /[\w$]/;

/**
 * `b` is `a` with one run of text inserted (or removed) and nothing else changed, the run holding a
 * name or a value, and the shorter line more than a lone word or closer (a word of 3+ characters
 * and something else).
 */
export function extendedInPlace(a: string, b: string): boolean {
  if (a === b) return false;
  const short = a.length < b.length ? a : b;
  const long = a.length < b.length ? b : a;
  if (!/[A-Za-z_$][\w$]{2,}/.test(short) || !/\S\s*\S/.test(short)) return false;
  let pre = 0;
  while (pre < short.length && short[pre] === long[pre]) pre++;
  let suf = 0;
  while (suf < short.length - pre && short[short.length - 1 - suf] === long[long.length - 1 - suf]) suf++;
  if (pre + suf !== short.length) return false;
  // The run carries a name or a value, not punctuation alone (`;` appended is another rule's edit).
  return WORD.test(long.slice(pre, long.length - suf));
}
