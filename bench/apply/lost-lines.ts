// The benchmarks' "lossy": an original line (trimmed) that the expected file keeps occurs fewer
// times in the output. Shared by the external held-out bench and the generated-edit test.

function counts(text: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of text.split(/\r?\n/)) {
    const t = l.trim();
    if (t) m.set(t, (m.get(t) ?? 0) + 1);
  }
  return m;
}

/** Original lines the expected file keeps but the output has fewer of. */
export function lostLines(original: string, expected: string, output: string): string[] {
  const want = counts(expected), got = counts(output), lost: string[] = [];
  for (const [line, n] of counts(original)) if (Math.min(n, want.get(line) ?? 0) > (got.get(line) ?? 0)) lost.push(line);
  return lost;
}
