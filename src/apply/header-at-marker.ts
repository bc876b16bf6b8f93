// A renamed block header the update shows last before a marker (`def add_member(…) do` →
// `def add_membership(…) do`, then `# ... existing code ...`): the marker stands for the body, and a
// new definition cannot have an "existing" body, so the header is the original's, renamed in place.
// The merge's edge growth otherwise refuses a definition under another name unless the update goes
// on past it as the original does (`CREATE INDEX orders_status_idx` written beside `orders_user_idx`).
import { extendedInPlace } from './extended-line.js';
import { renamedInPlace, type Lines } from './lines.js';

/**
 * Segment line i, the segment's last non-blank line (growing forward), is original line j renamed in
 * place: j heads an indented block, i keeps j's text grown or shrunk at one place or with one token
 * changed, both at the same depth relative to the anchors (checked by the caller).
 */
export function renamedHeaderBeforeMarker(s: Lines, i: number, o: Lines, j: number, dir: 1 | -1): boolean {
  if (dir < 0) return false;
  for (let x = i + 1; x < s.text.length; x++) if (!s.blank[x]) return false;
  let y = j + 1;
  while (y < o.text.length && o.blank[y]) y++;
  if (y >= o.text.length || o.indent[y]! <= o.indent[j]!) return false;
  return extendedInPlace(o.norm[j]!, s.norm[i]!) || renamedInPlace(o.norm[j]!, s.norm[i]!);
}
