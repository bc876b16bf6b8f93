// The last segment after a marker, with none after it, that is one complete definition whose name
// the original does not define (`// ... existing handlers ...` then a new `func listPayments(…) {…}`):
// it is appended at the file's end. Matching its lines against the original's tail reads it as an
// edit of the last definition, whose lines it shares by shape (`if err != nil {`, `return`, `}`),
// and replaces that one (set n go90). Nothing in the update says the old definition goes.
import { loneDefinition } from './instructed-place.js';
import type { Lines } from './lines.js';
import { definesName } from './removals.js';

export function newTrailingDefinition(s: Lines, o: Lines): boolean {
  const lone = loneDefinition(s);
  if (!lone) return false;
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j]) continue;
    if (definesName(o.text[j]!, lone.name) || o.norm[j] === s.norm[lone.header]) return false;
  }
  return true;
}
