// An edit of the part a line shares with its siblings: `FROM node:18-alpine AS build` →
// `FROM node:20-alpine AS build` beside `FROM node:18-alpine AS deps`, `write.csv(by_dept, …,
// row.names = FALSE)` → `write_csv(by_dept, …)` beside `write.csv(by_tenure, …)`. Such a line is no
// more like its original than the siblings are like it, so the sibling test (licence-rules.ts
// distinctEdit) cannot tell it apart; but it keeps every token that sets its original apart from
// each close sibling and changes only tokens that sibling has too. A new sibling does the reverse:
// it keeps the shared shape and replaces what set the original apart (its name, its key).

/** Tokens of `a` left after taking out those of `b`, counted with repeats. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const t of b) left.set(t, (left.get(t) ?? 0) + 1);
  const out: string[] = [];
  for (const t of a) {
    const n = left.get(t) ?? 0;
    if (n > 0) left.set(t, n - 1);
    else out.push(t);
  }
  return out;
}

/** Tokens a line needs for its parts to say anything (`end)` → `end` has no shared part to speak of). */
const MIN_TOKENS = 4;

/**
 * Update tokens `tr` edit original tokens `tj` in the part they share with each sibling of
 * `rivals` (the siblings as close to j as r is): r keeps all that j has and the sibling lacks,
 * and what r dropped from j the sibling has too. At least one rival, each differing from j; r
 * keeps at least half of j.
 */
export function editsSharedPart(tj: readonly string[], tr: readonly string[], rivals: ReadonlyArray<readonly string[]>): boolean {
  const dropped = minus(tj, tr);
  if (rivals.length === 0 || tj.length < MIN_TOKENS || dropped.length === 0 || dropped.length * 2 > tj.length) return false;
  for (const ty of rivals) {
    const own = minus(tj, ty);
    if (own.length === 0 || minus(own, tr).length > 0 || minus(dropped, ty).length > 0) return false;
  }
  return true;
}
