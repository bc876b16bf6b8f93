// A segment that opens with closing lines after a marker: `func Mean() {`, an indented
// `// ... existing code ...`, then `}` (or `});`, `end`, `)` of an import list). The marker stands
// for the rest of the block the previous segment opened, so the segment's first line is that block's
// own closing line in the original — not the first equal `}` a new function below it brings, and not
// the end of the file when the update stops there. Found by structure: the previous segment's opener
// at the closer's indentation, its place in the original, and the first original line back at that
// opener's level after it.
import type { Lines } from './lines.js';
import type { Segment } from './merge-context.js';

/** A line that only closes blocks: brackets (with `;`/`,`), or a keyword that ends one. */
const CLOSER = /^(?:[)}\]][)}\];,]*|end\b.*|fi|done|esac|END\b.*)$/;

function firstContent(l: Lines): number {
  let f = 0;
  while (f < l.text.length && l.blank[f]) f++;
  return f;
}

/** True when every content line of the segment only closes blocks (`});`, `}`, `end`). */
export function closersOnly(seg: Segment): boolean {
  const l = seg.lines;
  let any = false;
  for (let i = 0; i < l.text.length; i++) {
    if (l.blank[i]) continue;
    if (!CLOSER.test(l.norm[i]!)) return false;
    any = true;
  }
  return any;
}

/**
 * [segment line, original line] for the segment's first line when it closes the block whose opener
 * the previous segment shows (matched at `prevPairs`) and left open across a marker indented deeper
 * than the closer; null otherwise.
 */
export function closerResume(o: Lines, prev: Segment, prevPairs: ReadonlyArray<readonly [number, number]>, seg: Segment): [number, number] | null {
  if (!seg.markerBefore || prev.markerAfterIndent === null) return null;
  const s = seg.lines;
  const f = firstContent(s);
  if (f >= s.text.length || !CLOSER.test(s.norm[f]!)) return null;
  const level = s.indent[f]!;
  if (prev.markerAfterIndent <= level) return null;
  // The previous segment's last line at or left of the closer's level is the block's opener.
  const p = prev.lines;
  let x = p.text.length - 1;
  while (x >= 0 && (p.blank[x] || p.indent[x]! > level)) x--;
  if (x < 0 || p.indent[x] !== level || CLOSER.test(p.norm[x]!)) return null;
  const pair = prevPairs.find(([i]) => i === x);
  if (!pair) return null;
  const jp = pair[1];
  for (let y = jp + 1; y < o.text.length; y++) {
    if (o.blank[y] || o.indent[y]! > o.indent[jp]!) continue;
    return o.indent[y] === o.indent[jp] && o.norm[y] === s.norm[f] ? [f, y] : null;
  }
  return null;
}
