// A marker that stands for no original line: `}` / blank / `// ... existing code ...` / blank /
// `func TestFormatAmount(…)` where the original has `}`, one blank line, then that function (set h
// go04). The previous segment's trailing blank already stands for the original's blank line
// there; the blank after the marker is the same gap written twice, not a new line.
import type { Lines } from './lines.js';

/**
 * True when the segment's leading blank lines are layout to leave out: it starts at `start`, right
 * where the previous segment's span ended (`prevEnd`), the original line before `start` is blank,
 * and the previous segment ends with a blank line (which stood for it).
 */
export function blanksAfterEmptyMarker(prev: Lines | null, o: Lines, start: number, prevEnd: number): boolean {
  if (!prev || start !== prevEnd || start === 0 || !o.blank[start - 1]) return false;
  const last = prev.text.length - 1;
  return last >= 0 && prev.blank[last]!;
}
