// A new definition shown inside its owner: the owner's head as the file has it (`impl Store {`,
// `public class InvoiceService {`), markers standing for the owner's other members, the definition,
// more markers, and the owner's closer. The head and closer are context, not edits, so the update
// says no more than the definition alone would; instructed placement (instructed-place.ts) reads it
// as that definition. A head the update changed (`implements Auditable` added) is no original line,
// so such an update is read by the line merge as before. Markers above the head (`// ... imports ...`)
// keep what they stand for as the definition alone would.
import { CLOSER_LINE, splitLines, type Lines } from './lines.js';
import { markerLines } from './markers.js';

export interface OwnedDefinition {
  /** The update's rows between the owner's head and closer, markers and blank rows at both ends left out. */
  definition: Lines;
  /** The original row of the owner's head (the only original line with that text). */
  ownerRow: number;
  /** The head's indentation in the update, in columns. */
  headIndent: number;
}

export function ownedDefinition(u: Lines, o: Lines): OwnedDefinition | null {
  const markers = markerLines(u.text, o.text);
  const solid: number[] = [];
  for (let i = 0; i < u.text.length; i++) if (!u.blank[i] && !markers[i]) solid.push(i);
  if (solid.length < 3) return null;
  const head = solid[0]!;
  const last = solid[solid.length - 1]!;
  // A block head and its own closer at its depth; an indentation block (`class Cart:`) has none.
  // An Allman head has its `{` on the next row.
  const closed = CLOSER_LINE.test(u.norm[last]!) && u.indent[last] === u.indent[head];
  const allman = closed && u.norm[solid[1]!] === '{' && u.indent[solid[1]!] === u.indent[head];
  if (!(closed ? allman || /[{:]$/.test(u.norm[head]!) : /:$/.test(u.norm[head]!))) return null;
  const closer = closed ? last : u.text.length;
  const rows = o.norm.flatMap((n, j) => (n === u.norm[head] ? [j] : []));
  if (rows.length !== 1) return null;
  let a = allman ? solid[1]! + 1 : head + 1;
  let b = closer - 1;
  while (a <= b && (u.blank[a] || markers[a])) a++;
  while (b >= a && (u.blank[b] || markers[b])) b--;
  if (a > b) return null;
  // The inner rows keep their columns; the definition must sit deeper than the head.
  for (let i = a; i <= b; i++) if (!u.blank[i] && u.indent[i]! <= u.indent[head]!) return null;
  const eol = u.dominantEol;
  return { definition: splitLines(u.text.slice(a, b + 1).map((t) => t + eol).join('')), ownerRow: rows[0]!, headIndent: u.indent[head]! };
}
