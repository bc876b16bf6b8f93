// "Add CountProjects after DeleteProject", "Add a publish action before destroy" ("next to search":
// after it): the update is one
// new definition and nothing else (no marker, no line of context), so the lines it shares with the
// original (`if err != nil {`, `return response()->json($post);`) are common lines of every method,
// not anchors. The instruction says where it goes: right after the named definition (past the blank
// lines that follow it) or right before it (above its doc comment and attributes), set off by one
// blank line. Only when the named definition is defined once in the original, the new one's name
// nowhere, and the new definition sits at the named one's indentation. Nothing is removed.
// The definition may come wrapped in its owner's unchanged head and closer (`impl Store {` … `}`,
// `public class InvoiceService {` over `// ... existing methods ...`), with markers only around it
// (owner-wrapper.ts); it is then written in the file's indent characters.
import { lineIdentity } from './line-identity.js';
import { indentText, splitLines, type Lines } from './lines.js';
import { ownedDefinition } from './owner-wrapper.js';
import { markerLines } from './markers.js';
import { blockEnd, definesName } from './definition-blocks.js';
import { removalTargets } from './removals.js';
import { inRanges, ownerRanges, placeOwner } from './removal-scope.js';

const PLACE = /\b(?:add|adds|insert|inserts|create|write|put|define|implement|introduce)\b[^.;\n]*?\b(after|before|below|above|between|next\s+to|beside)\s+(?:the\s+)?`?([A-Za-z_$][\w$]*)`?(?:\(\))?/i;

/** Leading lines that belong to the definition below them: comments, decorators, attributes. */
export const LEAD = /^(@|\/\/|#(?!include)|\/\*|\*|--|;|<!--|"""|'''|\/\/\/|\[[A-Z]|\[<)/;

export interface InstructedPlacement {
  content: string;
  /** Original row the definition was inserted before. */
  at: number;
}

export function placeByInstruction(code: string, update: string, instruction: string | null): InstructedPlacement | null {
  if (!instruction || removalTargets(instruction).length > 0) return null;
  const m = PLACE.exec(instruction);
  if (!m) return null;
  // "between create and delete", "next to search": right after the first.
  const side = /^(?:before|above)$/i.test(m[1]!) ? 'before' : 'after';
  const target = m[2]!;
  const o = splitLines(code);
  const whole = splitLines(update);
  const owned = ownedDefinition(whole, o);
  const u = owned?.definition ?? whole;
  if (markerLines(u.text, o.text).some(Boolean)) return null;
  const lone = loneDefinition(u);
  if (!lone) return null;
  const { first, header: h, last, name } = lone;
  // "Add X to ReviewClient, after remove()": the target counts only inside the owner named, when the file defines it.
  const owner = /\b(?:to|in|into|inside)\s+(.*)$/i.exec(instruction);
  const ownerName = owner ? placeOwner(owner[1]!) : null;
  const ranges = ownerName && ownerName !== target ? ownerRanges(o, ownerName, definesName, blockEnd) : null;
  // The new name is defined nowhere in the original; the target exactly once (in the owner).
  let at = -1;
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j]) continue;
    if (definesName(o.text[j]!, name)) return null;
    if (definesName(o.text[j]!, target) && lineIdentity(o.norm[j]!) !== null && inRanges(ranges, j)) {
      if (at >= 0) return null;
      at = j;
    }
  }
  if (at < 0) return null;
  // A wrapped definition belongs to the owner its head names: the target must stand inside it, and
  // the definition is one of the owner's levels deep, whatever unit the snippet wrote that level in.
  // A bare member pulled out to column 0 (a method written without its class) goes in at the named
  // member's depth, every line shifted by that much.
  const pulledOut = !owned && u.indent[h] === 0 && o.indent[at]! > 0;
  if (owned ? at <= owned.ownerRow || at >= blockEnd(o, owned.ownerRow) || u.indent[h]! <= owned.headIndent : o.indent[at] !== u.indent[h] && !pulledOut) return null;
  const row = side === 'after' ? afterDefinition(o, at) : beforeDefinition(o, at);
  const written = owned
    ? inFileIndent(u, o, [owned.headIndent, u.indent[h]!], [o.indent[owned.ownerRow]!, o.indent[at]!])
    : pulledOut
      ? inFileIndent(u, o, [-1, 0], [o.indent[at]! - 1, o.indent[at]!])
      : u;
  return written ? { content: insertAt(o, row, written, first, last), at: row } : null;
}

/**
 * An update that is one definition and nothing else: leading comments/attributes (from row
 * `first`), its header, its block, to row `last` (blank rows around it aside); null otherwise.
 */
export function loneDefinition(u: Lines): { first: number; header: number; last: number; name: string } | null {
  let first = 0;
  while (first < u.text.length && u.blank[first]) first++;
  let header = first;
  while (header < u.text.length && (u.blank[header] || LEAD.test(u.norm[header]!))) header++;
  if (header >= u.text.length) return null;
  const id = lineIdentity(u.norm[header]!);
  if (!id || !id.startsWith('def ')) return null;
  let last = u.text.length - 1;
  while (last >= 0 && u.blank[last]) last--;
  if (blockEnd(u, header) !== last + 1) return null;
  return { first, header, last, name: id.slice(4) };
}

/**
 * The snippet's lines moved from its owner's depths to the file's: columns [owner head, definition]
 * in the snippet map onto the same two in the file, deeper lines by the same scale, written in the
 * file's indent characters (tabs for a tab-indented file); null when a line lands between columns.
 */
function inFileIndent(u: Lines, o: Lines, [uBase, uDef]: [number, number], [oBase, oDef]: [number, number]): Lines | null {
  if (oDef <= oBase) return null;
  const scale = (oDef - oBase) / (uDef - uBase);
  const text: string[] = [];
  for (let i = 0; i < u.text.length; i++) {
    const cols = oBase + (u.indent[i]! - uBase) * scale;
    if (!u.blank[i] && !Number.isInteger(cols)) return null;
    text.push(u.blank[i] ? u.text[i]! : indentText(cols, o.usesTabs) + u.text[i]!.trimStart());
  }
  return { ...u, text };
}

/** The first non-blank row after the definition headed by h (or the file's end). */
function afterDefinition(o: Lines, h: number): number {
  let j = blockEnd(o, h);
  while (j < o.text.length && o.blank[j]) j++;
  return j;
}

/** The definition's first row: its header, or the comments and attributes right above it. */
export function beforeDefinition(o: Lines, h: number): number {
  let j = h;
  // ` * text` lines of a block comment sit one column right of the header.
  while (j > 0 && !o.blank[j - 1] && o.indent[j - 1]! - o.indent[h]! >= 0 && o.indent[j - 1]! - o.indent[h]! <= 1 && LEAD.test(o.norm[j - 1]!)) j--;
  return j;
}

/** The original with update rows [a, b] inserted before row `row`, a blank line between them and the code on each side. */
export function insertAt(o: Lines, row: number, u: Lines, a: number, b: number, blankAfter = true): string {
  const eol = o.dominantEol;
  const out: string[] = [];
  for (let j = 0; j < row; j++) out.push(o.text[j]! + (o.eol[j] || eol));
  // A blank line above it too, unless it opens a block (the first member of a class).
  if (row > 0 && !o.blank[row - 1] && !/[{([:]$/.test(o.norm[row - 1]!)) out.push(eol);
  for (let i = a; i <= b; i++) out.push(u.text[i]! + eol);
  // None before the closer of the block it ends (the last member of a class).
  if (row < o.text.length && blankAfter && !/^(?:[)\]}]|end\b)/.test(o.norm[row]!)) out.push(eol);
  for (let j = row; j < o.text.length; j++) out.push(o.text[j]! + o.eol[j]!);
  let text = out.join('');
  if (row >= o.text.length && !o.finalNewline) text = text.slice(0, -eol.length);
  return text;
}
