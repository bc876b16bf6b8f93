// Markers inside lines, expanded from the original before the merge and read the same way by the
// no-loss check: a marker after an opening bracket as a line comment (trailing-marker.ts), a marker
// between the first and last of a run of original lines (spanned-markers.ts), then markers among
// the elements of one line (inline-markers.ts); a one-line list the update reflows over rows next to
// a marker gets the original lines that place it (reflowed-lists.ts).
import { expandCollapsedBlocks } from './collapsed-blocks.js';
import { expandInlineMarkers } from './inline-markers.js';
import { expandShownHeadBodies } from './shown-head-body.js';
import { placeReflowedLists } from './reflowed-lists.js';
import { expandSpannedMarkers } from './spanned-markers.js';
import { expandTrailingMarkers } from './trailing-marker.js';
import { closeUnclosedMiddles } from './unclosed-middle.js';
import { closeUnclosedTail } from './unclosed-tail.js';
import { showHeadPath } from './open-heads.js';
import { withoutExtraClosers } from './extra-closers.js';

export function expandMarkersInLines(update: string, code: string): string {
  return placeReflowedLists(expandInlineMarkers(expandSpannedMarkers(expandTrailingMarkers(update, code), code), code), code);
}

/** The update as placement and the no-loss check (loss.ts) both read it: markers inside lines
 *  expanded, blocks collapsed onto one line expanded (collapsed-blocks.ts) or shown as a head over a
 *  marker that is their whole body (shown-head-body.ts), a closing line written once too often
 *  dropped (extra-closers.ts), and the closing lines a
 *  snippet that stops inside its blocks implies written out (unclosed-tail.ts), and those a snippet
 *  leaves out before a dedent in its middle (unclosed-middle.ts); the original lines between the heads
 *  a snippet opens with and leaves open are kept (open-heads.ts). */
export function expandUpdate(update: string, code: string): string {
  return showHeadPath(closeUnclosedTail(closeUnclosedMiddles(expandShownHeadBodies(expandCollapsedBlocks(withoutExtraClosers(expandMarkersInLines(update, code), code), code), code), code), code), code);
}
