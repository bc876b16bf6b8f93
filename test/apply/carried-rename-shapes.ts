// A definition renamed with its uses across the file, the way a model writes it without an
// instruction (docs/apply.md, branch fieldsy): one small hunk per line that names it, one line of
// context on each side, markers between. Where two uses sit close together, a hunk's context lines
// are themselves renamed lines (`reload()` right above `fun reload() {`), so nothing in the hunk is an
// original line as the original has it: the merge must read each renamed line as its original line's
// edit, and the old name must not stay beside the new one.
import { escapeRe } from '../../src/apply/escape-regexp.js';
import { pick, pinned, renderUpdate, type Change } from './edit-gen.js';
import { declared, result, type Shape } from './edit-shapes.js';

const SUFFIXES = ['Now', 'Checked', 'Safe', 'Async', 'Next'];

/** Lines that name the definition renamed, at most this many (a rename shown at every use). */
const MAX_USES = 6;

export const renameCarriedAcrossHunks: Shape = (x) => {
  const named = x.blocks.filter((b) => declared(x, b) && b.name.length >= 3);
  const b = pick(x.r, named);
  if (!b) return null;
  const word = new RegExp(`(?<![\\w$])${escapeRe(b.name)}(?![\\w$])`, 'g');
  const rows = x.lines.flatMap((t, j) => (t.search(word) >= 0 ? [j] : []));
  // The definition's own name only: a member of another object (`this._ws.send` beside a class's
  // `send`) or a word in a comment is another thing a rename leaves alone.
  const member = new RegExp(`(?<!\\b(?:this|self))\\.\\s*${escapeRe(b.name)}(?![\\w$])`);
  if (rows.some((j) => member.test(x.lines[j]!) || /^\s*(?:\/\/|\/?\*|#)/.test(x.lines[j]!))) return null;
  // The head and at least one use elsewhere; the name defined once (no overloads).
  if (rows.length < 2 || rows.length > MAX_USES || !rows.includes(b.header)) return null;
  if (x.blocks.filter((c) => c.name === b.name).length !== 1) return null;
  const to = `${b.name}${pick(x.r, SUFFIXES)}`;
  if (x.lines.some((t) => t.includes(to))) return null;
  const changes: Change[] = rows.map((j) => ({ start: j, end: j + 1, lines: [x.lines[j]!.replace(word, to)] }));
  const update = renderUpdate(x.lines, changes, x.lang, x.r, { before: 1, after: 1, leadingMarker: true, trailingMarker: true });
  return result(x, changes, update, '', pinned(x.lines, update.join('\n')));
};
