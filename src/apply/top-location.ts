// A comment inside the update that only says where the lines after it go — the file's top, with the
// imports (`// and at the top of the file:`, `// at the top, with the other imports:`) — is placement,
// not content: a model that wrote the body's hunk first adds the import it needs after it, behind such
// a note (k php06, p scala03). Read as content, the note and the imports were appended to the hunk
// before it, at the file's end. The lines it introduces (to the next marker or the update's end) are
// moved to the update's start, a marker on each side, and the note goes: their own anchors place them,
// or, as new imports with none, the line merge puts them after the original's imports.
import { splitLines } from './lines.js';
import { commentBody, markerLines } from './markers.js';

const IMPORTS = String.raw`(?:imports|includes|usings|use (?:statements|lines)|requires|import (?:statements|lines|block))`;
const TOP = String.raw`(?:(?:at|to|near|on|in) )?(?:the )?(?:very )?(?:top|start|beginning|head)(?: of (?:the )?(?:file|module|script|document|source))?`;
const WITH_IMPORTS = String.raw`(?:(?:with|among|next to|alongside|in|into|to) (?:the )?(?:other |existing )?${IMPORTS})`;
/** `at the top of the file`, `and at the top:`, `at the top, with the other imports`, `with the other imports:`. */
const TOP_NOTE = new RegExp(String.raw`^(?:(?:and|also|plus|then)[,]? )?(?:add )?(?:${TOP}(?:[,;]? ${WITH_IMPORTS})?|${WITH_IMPORTS})\s*[:.]?$`, 'i');

/** The update with the hunk a top-of-file note introduces moved to its start, or null when it has no such note. */
export function topLocatedUpdate(update: string, code: string): string | null {
  const u = splitLines(update);
  const o = splitLines(code);
  const originalNorms = new Set(o.norm);
  const marker = markerLines(u.text, o.text);
  for (let i = 0; i < u.text.length; i++) {
    if (u.blank[i] || marker[i] || originalNorms.has(u.norm[i]!)) continue;
    const body = commentBody(u.text[i]!);
    if (body === null || !TOP_NOTE.test(body.replace(/\s+/g, ' ').trim())) continue;
    let from = i + 1;
    while (from < u.text.length && u.blank[from]) from++;
    let to = from;
    while (to < u.text.length && !marker[to]) to++;
    if (from >= to) return null;
    // The note's own comment syntax writes the markers around the moved hunk.
    const mark = u.text[i]!.replace(body, '... existing code ...').trim();
    const line = (y: number): string => u.text[y]! + (u.eol[y] || '\n');
    const moved = [mark + '\n', ...Array.from({ length: to - from }, (_, k) => line(from + k)), mark + '\n'];
    // The lines before the note lose its blank lines; what was after the hunk (a marker, more hunks) stays.
    let before = i;
    while (before > 0 && u.blank[before - 1]) before--;
    const rest = [...Array.from({ length: before }, (_, y) => line(y)), ...Array.from({ length: u.text.length - to }, (_, k) => line(to + k))];
    // Before the note the update's last hunk ran on to its end: with no marker left after it, it still ends the file.
    return [...moved, ...rest].join('').replace(/\n$/, update.endsWith('\n') ? '\n' : '');
  }
  return null;
}
