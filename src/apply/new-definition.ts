// A snippet that is one new definition and nothing else (no marker, no line of context, no
// instruction saying where): `update(Todo todo)` written out whole for a class that has `create` and
// `delete`. Its lines share the shape of its siblings' (`final res = await _client.post(` / `put(`),
// so a line alignment reads it as the edit of the most alike sibling and replaces that one (held-out
// set i dart02). A definition whose name the original lacks replaces nothing: it goes after the
// last definition at its indentation, inside the one block that holds such definitions (the end
// of the class it belongs to, or of the file's top-level definitions), set off by a blank line.
import { lineIdentity, ownerRow } from './line-identity.js';
import { splitLines } from './lines.js';
import { markerLines } from './markers.js';
import { insertAt, loneDefinition, type InstructedPlacement } from './instructed-place.js';
import { blockEnd, definesName } from './definition-blocks.js';
import { removalTargets } from './removals.js';
import { inRanges, ownerRanges } from './removal-scope.js';

/** The type an instruction adds to: "… to LoanService", "… in `OrderRepo`". */
const OWNER = /\b(?:to|in|into|inside|within)\s+(?:the\s+)?`?([A-Z][\w$]*[a-z][\w$]*)`?/;

export function placeNewDefinition(code: string, update: string, instruction: string | null): InstructedPlacement | null {
  if (removalTargets(instruction).length > 0) return null;
  const o = splitLines(code);
  const u = splitLines(update);
  if (o.text.length === 0 || markerLines(u.text, o.text).some(Boolean)) return null;
  const lone = loneDefinition(u);
  if (!lone) return null;
  const { first, header: h, last, name } = lone;
  // "Add CountOverdueAsync to LoanService": the owner the instruction names holds it.
  const ownerName = instruction ? OWNER.exec(instruction)?.[1] : undefined;
  const ranges = ownerName ? ownerRanges(o, ownerName, definesName, blockEnd) : null;
  if (ownerName && !ranges) return null;
  let lastSibling = -1;
  let owner: number | undefined;
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j]) continue;
    // New: no line of the original defines the name, nor holds the snippet's header.
    if (definesName(o.text[j]!, name) || o.norm[j] === u.norm[h]) return null;
    if (o.indent[j] !== u.indent[h] || !lineIdentity(o.norm[j]!)?.startsWith('def ') || blockEnd(o, j) <= j + 1 || !inRanges(ranges, j)) continue;
    // Siblings in more than one block (two classes with methods at this depth): no one place.
    const own = ownerRow(o, j);
    if (owner !== undefined && own !== owner) return null;
    owner = own;
    lastSibling = j;
  }
  if (lastSibling < 0) return null;
  // Right after the last sibling's block: the blank lines or the closer that followed it follow the new one.
  const row = blockEnd(o, lastSibling);
  return { content: insertAt(o, row, u, first, last, false), at: row };
}
