// The update's last hunk, after a marker and with none after it, is one whole new definition
// (`// ... existing handlers ...` then `func (s *Server) listPayments(…) {…}`, a name the original
// lacks). Its closing lines equal the file's last function's (`_ = json.NewEncoder(w).Encode(v)` /
// `}`), so the line merge read the hunk as showing the file's end and as the edit of that
// function's body, which the no-loss pass then had to put back around it (set n go90). A new
// definition replaces nothing: the rest of the update is merged on its own, and the definition goes
// after its last sibling, when that sibling ends the file (both readings agree on the place).
import { splitLines } from './lines.js';
import { markerLines } from './markers.js';
import { loneDefinition } from './instructed-place.js';
import { definesName, removalTargets } from './removals.js';

/** The update split before its trailing new definition (the marker stays with the first part), or null. */
export function splitTrailingDefinition(code: string, update: string, instruction: string | null): { rest: string; definition: string } | null {
  if (removalTargets(instruction).length > 0) return null;
  const o = splitLines(code);
  const u = splitLines(update);
  const marks = markerLines(u.text, o.text);
  let last = -1;
  for (let i = 0; i < marks.length; i++) if (marks[i]) last = i;
  if (last < 0) return null;
  // Something before the marker besides markers: the rest is a hunk of its own.
  let before = false;
  for (let i = 0; i < last; i++) if (!u.blank[i] && !marks[i]) before = true;
  if (!before) return null;
  const tail = u.text.slice(last + 1);
  const t = splitLines(tail.join('\n'));
  const lone = loneDefinition(t);
  if (!lone) return null;
  const counts = new Map<string, number>();
  for (let j = 0; j < o.text.length; j++) if (!o.blank[j]) counts.set(o.norm[j]!, (counts.get(o.norm[j]!) ?? 0) + 1);
  for (let j = 0; j < o.text.length; j++) if (!o.blank[j] && definesName(o.text[j]!, lone.name)) return null;
  // A line the original has once anchors the hunk where it is: not a definition standing alone.
  for (let i = 0; i < t.text.length; i++) if (!t.blank[i] && !t.weak[i] && counts.get(t.norm[i]!) === 1) return null;
  return { rest: u.text.slice(0, last + 1).map((l, i) => l + (u.eol[i] || '\n')).join(''), definition: tail.join('\n') };
}

/** `at` (a row of `content`) is past the content's last non-blank line. */
export function atFileEnd(content: string, at: number): boolean {
  const c = splitLines(content);
  let lastRow = c.text.length - 1;
  while (lastRow >= 0 && c.blank[lastRow]) lastRow--;
  return at > lastRow;
}

/**
 * `content` with the definition inserted at row `at` set off by as many blank lines as the file puts
 * above the definition before it (two between Python's top-level functions, one in Go).
 */
export function withSiblingSeparator(before: string, content: string, at: number): string {
  const b = splitLines(before);
  // The header of the definition that ends at `at`: the last non-blank row at the least indentation above it.
  let end = at - 1;
  while (end >= 0 && b.blank[end]) end--;
  if (end < 0) return content;
  let head = end;
  for (let j = end; j >= 0; j--) {
    if (b.blank[j]) continue;
    if (b.indent[j]! < b.indent[head]! || (b.indent[j] === b.indent[head] && (j === 0 || b.blank[j - 1]))) head = j;
    if (b.indent[j] === 0 && (j === 0 || b.blank[j - 1])) break;
  }
  let want = 0;
  for (let j = head - 1; j >= 0 && b.blank[j]; j--) want++;
  const c = splitLines(content);
  let first = at;
  while (first < c.text.length && c.blank[first]) first++;
  let have = first - at;
  if (want <= have) return content;
  const eol = c.dominantEol;
  let out = '';
  for (let j = 0; j < c.text.length; j++) {
    if (j === first) for (; have < want; have++) out += eol;
    out += c.text[j]! + c.eol[j]!;
  }
  return out;
}
