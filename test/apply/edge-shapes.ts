// Edits at the file's two ends, as held-out sets wrote them in Python, TypeScript, C and Dockerfile
// (docs/apply.md, branch shapew): the first lines edited (or a line added above the first one) and
// the last line edited or wrapped whole in a call (`main()` → `exit(main())`), the last hunk ending
// the update with no marker after it, the file with or without a final newline and a byte-order mark.
import { editLine, marker, strongLine, type Change } from './edit-gen.js';
import { ind, newLine, type ShapeInput } from './edit-shapes.js';
import { applyChanges, type Edit } from './edit-gen.js';

const BOM = '\uFEFF';

export interface EdgeOptions {
  /** The file starts with a byte-order mark. */
  bom: boolean;
  /** The file ends without a final newline. */
  noFinalNewline: boolean;
}

/** A statement that ends its line (no block opened or closed on it), fit to be wrapped whole in a call. */
function wrappable(t: string): boolean {
  const s = t.trim();
  return strongLine(t) && /^[A-Za-z_$][\w$.]*\(.*\)\s*;?$/.test(s) && !/[{[(]\s*$/.test(s);
}

/** The last content line edited in place or wrapped whole in a call. */
function lastLineEdit(x: ShapeInput, l: number): string | null {
  const t = x.lines[l]!;
  if (wrappable(t) && x.r() < 0.5) {
    const semi = t.trimEnd().endsWith(';') ? ';' : '';
    return `${ind(t)}process_exit(${t.trim().replace(/;$/, '')})${semi}`;
  }
  const e = editLine(t, x.r);
  return e && e !== t ? e : null;
}

/**
 * First hunk: the file's first lines with its first strong line edited, or a new line above the
 * first line; a marker; last hunk: two or three lines of context and the last content line edited,
 * nothing after it.
 */
export function editBothEnds(x: ShapeInput, o: EdgeOptions): Omit<Edit, 'shape'> | null {
  const lines = x.lines;
  let last = lines.length - 1;
  while (last > 0 && lines[last]!.trim() === '') last--;
  if (last < 16 || last !== lines.length - 1 || !strongLine(lines[last]!)) return null;
  const tail = lastLineEdit(x, last);
  if (tail === null) return null;
  const changes: Change[] = [];
  let headEnd: number;
  if (x.r() < 0.4) {
    // A new first line, then the first two lines as they were.
    changes.push({ start: 0, end: 0, lines: [newLine(x, 0, 'edge-first-line')] });
    headEnd = 2;
  } else {
    let f = 0;
    while (f < 3 && !strongLine(lines[f]!)) f++;
    const e = strongLine(lines[f]!) ? editLine(lines[f]!, x.r) : null;
    if (e === null || e === lines[f]) return null;
    changes.push({ start: f, end: f + 1, lines: [e] });
    headEnd = f + 2;
  }
  changes.push({ start: last, end: last + 1, lines: [tail] });
  let from = last - 2;
  while (from > headEnd + 2 && !lines.slice(from, last).some(strongLine)) from--;
  while (from < last && lines[from]!.trim() === '') from++;
  if (from <= headEnd + 2) return null;
  const edited = applyChanges(lines, changes);
  const shift = changes[0]!.lines.length - (changes[0]!.end - changes[0]!.start);
  const update = [
    ...edited.slice(0, headEnd + shift),
    marker(x.lang, '', x.r),
    ...edited.slice(from + shift),
  ];
  const file = (ls: string[]): string => (o.bom ? BOM : '') + ls.join('\n') + (o.noFinalNewline ? '' : '\n');
  return { instruction: 'Update the header and the last line.', update: update.join('\n') + (o.noFinalNewline ? '' : '\n'), expected: file(edited), determined: true, original: file(lines) };
}
