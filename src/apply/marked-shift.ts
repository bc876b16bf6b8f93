// A marker inside lines the update re-indents (a JSX section wrapped in `{isAdmin && (`, a loop body
// wrapped in `try:`): `{/* ... billing and audit links unchanged ... */}` stands for original lines
// that sit inside the new block too. The segments around the marker show their original lines moved
// by one shift; the marker itself stands at the kept lines' depth moved by that shift. The kept lines
// then move with them, or the new block's closer would sit left of its own body.
//
// Only where all three agree: the last paired line before the marker and the first paired line after
// it (non-blank) are written at the same shift, not 0, and the marker is as far right of the kept
// lines' shallowest line as that shift says. A marker at the kept lines' own depth keeps them as
// they are (a block moved out, a dedent shown only around the marker, stays uncertain: kept whole).
import type { Segment } from './merge-context.js';
import { indentText, type Lines } from './lines.js';

/** The segment's lines and where they landed: [segment line, original line] pairs and the segment-wide shift. */
export interface PlacedSegment {
  readonly seg: Segment;
  readonly pairs: ReadonlyArray<readonly [number, number]>;
  readonly delta: number;
}

/** Output columns minus original columns of the paired non-blank line nearest the marker (last before it: dir -1). */
function pairShift(o: Lines, p: PlacedSegment, dir: 1 | -1): number | null {
  const s = p.seg.lines;
  const pairs = dir < 0 ? [...p.pairs].reverse() : p.pairs;
  for (const [i, j] of pairs) {
    if (s.blank[i] || o.blank[j]) continue;
    return s.indent[i]! + p.delta - o.indent[j]!;
  }
  return null;
}

/**
 * The shift (columns, 0 for none) at which the original lines [a, b) a marker between `before` and
 * `after` stands for are written: the shift of the lines around the marker, when they and the marker agree.
 */
export function markedShift(o: Lines, before: PlacedSegment, after: PlacedSegment, a: number, b: number): number {
  const marker = before.seg.markerAfterIndent;
  if (!before.seg.markerAfter || marker === null) return 0;
  let shallowest = Infinity;
  for (let j = a; j < b; j++) if (!o.blank[j]) shallowest = Math.min(shallowest, o.indent[j]!);
  if (shallowest === Infinity) return 0;
  const d = pairShift(o, before, -1);
  if (d === null || d === 0 || pairShift(o, after, 1) !== d) return 0;
  if (marker + before.delta !== shallowest + d || shallowest + d < 0) return 0;
  return d;
}

/** Original row j's text moved right by `shift` columns (left when negative), in the file's indentation style. */
export function shiftedText(o: Lines, j: number, shift: number): string {
  const t = o.text[j]!;
  if (shift === 0 || o.blank[j]) return t;
  return indentText(o.indent[j]! + shift, o.usesTabs) + t.trimStart();
}
