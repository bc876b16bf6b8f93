// Where an instructed rename applies. "rename buf to line_buf in tail", "In resize_bilinear, rename
// dst to out": the instruction places the rename in one definition the file has, so the same name in
// that definition's siblings (their own locals) is not renamed, and an update line renaming it is no
// licence to drop a sibling's line. Without such a place (or when the place is no definition of the
// file: "everywhere", "in the docs") the rename reaches the whole file, as before.
import { KIND } from './instructed-rename.js';
import type { Lines } from './lines.js';
import { blockEnd, definesName } from './definition-blocks.js';
import { ownerRanges } from './removal-scope.js';

/** "in|inside|within [the] [kind] <name>", the name optionally quoted or backticked (built on first use: instructed-rename.ts imports this module). */
function placePattern(): RegExp {
  return new RegExp(`\\b(?:in|inside|within)\\s+(?:the\\s+)?(?:${KIND}\\s+)?[\`"']?([A-Za-z_$][\\w$]*)(?:\\(\\))?[\`"']?`, 'gi');
}

/**
 * Rows [start, end) of the definitions the instruction places its rename in (head row included: a
 * parameter is renamed there), or null when it names no definition of `o`.
 */
export function renameScope(instruction: string | null, o: Lines): Array<[number, number]> | null {
  if (!instruction) return null;
  const out: Array<[number, number]> = [];
  for (const m of instruction.matchAll(placePattern())) out.push(...(ownerRanges(o, m[1]!, definesName, blockEnd) ?? []));
  return out.length > 0 ? out : null;
}

/** Row j lies in one of the ranges (or no ranges narrow the rename). */
export function inRenameScope(ranges: Array<[number, number]> | null, j: number): boolean {
  return ranges === null || ranges.some(([a, b]) => j >= a && j < b);
}
