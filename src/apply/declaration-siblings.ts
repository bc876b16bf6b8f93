// A new declaration with no anchor, shown between two markers (`// ... existing fields ...`,
// `private int maxRetries = 3;`, `// ... existing builder methods ...`), goes after the last
// declaration of its kind in the block where the window between its anchored neighbours starts
// (the Builder's other fields), not just before the next anchored segment: the marker after it
// stands for original code between it and that segment.
import { firstToken, type Lines } from './lines.js';
import type { Segment } from './merge-context.js';
import type { Span } from './merge-finish.js';
import { trailingBlankRows } from './end-blanks.js';

/** A line that opens a block, a list or a body (`def f() =`), or starts with no word, declares nothing here. */
const OPENS = /[{[(:=]$/;

/** The kind of a one-line declaration: its first word, its terminator, whether it assigns. */
function declarationKind(norm: string): string | null {
  if (OPENS.test(norm) || !/^[A-Za-z_$@]/.test(norm)) return null;
  const end = /[;,]$/.exec(norm)?.[0] ?? '';
  return `${firstToken(norm)}|${end}|${/\s=\s/.test(norm) ? '=' : ''}`;
}

/**
 * The original row after which segment row `i` goes: past the last row of its kind, at its depth, in
 * [lo, hi) before the window leaves the block it starts in (and past that row's continuation lines);
 * -1 when the window holds none.
 */
export function afterLastSibling(s: Lines, i: number, o: Lines, lo: number, hi: number): number {
  const kind = declarationKind(s.norm[i]!);
  if (kind === null) return -1;
  const depth = s.indent[i]!;
  let last = -1;
  for (let j = lo; j < hi; j++) {
    if (o.blank[j]) continue;
    if (o.indent[j]! < depth) break;
    if (o.indent[j] === depth && declarationKind(o.norm[j]!) === kind) last = j;
  }
  if (last < 0) return -1;
  let end = last + 1;
  while (end < hi && !o.blank[end] && o.indent[end]! > depth) end++;
  return end;
}

/**
 * Where a segment with no anchor, shown between markers and opening with a declaration, goes: after
 * the last declaration of its kind in [lo, hi); its trailing blank lines are layout before the marker
 * where the original goes on with one. null when it is no such segment or the window has no sibling.
 */
export function siblingDeclarationSpan(seg: Segment, o: Lines, lo: number, hi: number): Span | null {
  if (!seg.markerBefore || !seg.markerAfter) return null;
  const s = seg.lines;
  let first = 0;
  while (first < s.text.length && s.blank[first]) first++;
  if (first >= s.text.length) return null;
  // One line: a head with a body under it is a definition, placed by its anchors or neighbours.
  let next = first + 1;
  while (next < s.text.length && s.blank[next]) next++;
  if (next < s.text.length && s.indent[next]! > s.indent[first]!) return null;
  const at = afterLastSibling(s, first, o, lo, hi);
  if (at < 0) return null;
  return { start: at, end: at, pairs: [], delta: 0, ...(o.blank[at] ? { drop: trailingBlankRows(s) } : {}) };
}
