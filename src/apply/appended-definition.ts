// The last segment after a marker, with none after it, that is one complete definition whose name
// the original does not define (`// ... existing handlers ...` then a new `func listPayments(…) {…}`):
// it is appended at the file's end. Matching its lines against the original's tail reads it as an
// edit of the last definition, whose lines it shares by shape (`if err != nil {`, `return`, `}`),
// and replaces that one (set n go90). Nothing in the update says the old definition goes. Likewise
// several such definitions in a row (two new F# tests after `// ... existing tests ...`, set bx fs20).
import { LEAD, loneDefinition } from './instructed-place.js';
import { lineIdentity } from './line-identity.js';
import type { Lines } from './lines.js';
import { blockEnd, definesName } from './definition-blocks.js';

export function newTrailingDefinition(s: Lines, o: Lines): boolean {
  const lone = loneDefinition(s);
  return lone !== null && notInOriginal(o, lone.name, s.norm[lone.header]!);
}

/** The original neither defines `name` nor holds the header line itself. */
function notInOriginal(o: Lines, name: string, header: string): boolean {
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j]) continue;
    if (definesName(o.text[j]!, name) || o.norm[j] === header) return false;
  }
  return true;
}

/**
 * The segment is two or more whole definitions in a row (each with its comments and attributes), none
 * of which the original defines: new code for the file's end, whatever lines of it copy the last one's.
 */
export function newTrailingDefinitions(s: Lines, o: Lines): boolean {
  let x = 0;
  let count = 0;
  while (x < s.text.length) {
    while (x < s.text.length && (s.blank[x] || LEAD.test(s.norm[x]!))) x++;
    if (x >= s.text.length) break;
    const id = lineIdentity(s.norm[x]!);
    if (!id?.startsWith('def ') || !notInOriginal(o, id.slice(4), s.norm[x]!)) return false;
    const end = blockEnd(s, x);
    if (end <= x) return false;
    x = end;
    count++;
  }
  return count >= 2;
}
