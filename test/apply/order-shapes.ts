// Two hunks in two definitions with a note between them that says where the second one goes
// (`// ... and in parseArgs:`, `# ... then in load:`), the way a model moves on in a chat answer:
// written in reverse file order (the second hunk lies above the first) or in file order. The note
// is a marker (src/apply/moving-note.ts): it is not written into the file and the second hunk goes
// where its own lines are.
import { isMarkerLine } from '../../src/apply/markers.js';
import { pick, pinned, renderUpdate, type Lang } from './edit-gen.js';
import { editIn, ind, leaves, result, standard, type Shape, type ShapeInput } from './edit-shapes.js';

const NOTES = ['... and in NAME:', '... then in NAME:', '... also in NAME:', '... and further on, NAME:', '... and NAME itself:', '... and in NAME ...'];
/** The same notes without dots, set apart by blank lines (src/apply/moving-note.ts onwardNote). */
const DOTLESS_NOTES = ['and in NAME:', 'then in NAME:', 'also in NAME:', 'plus NAME itself:', '--- and in NAME ---', 'and further down, in NAME:'];

/** The note in the language's comment syntax, at the indentation of the hunk it announces. */
function note(lang: Lang, indent: string, name: string, r: () => number, dotless: boolean): string {
  const w = pick(r, dotless ? DOTLESS_NOTES : NOTES).replace('NAME', name);
  if (lang.line) return `${indent}${lang.line} ${w}`;
  const [o, c] = lang.block!;
  return `${indent}${o} ${w} ${c}`;
}

/** How the second hunk written is set apart: a note with dots, one without, or a blank line alone. */
type Between = 'note' | 'dotless' | 'blank';

function twoHunks(x: ShapeInput, reverse: boolean, between: Between = 'note'): ReturnType<Shape> {
  const dotless = between !== 'note';
  const ls = leaves(x);
  if (ls.length < 2 || (!x.lang.line && !x.lang.block)) return null;
  const a = ls[Math.floor(x.r() * (ls.length - 1))]!;
  const b = ls[ls.indexOf(a) + 1]!;
  const ca = editIn(x, a);
  const cb = editIn(x, b);
  if (!ca || !cb || cb.start - ca.start < 4) return null;
  const u = renderUpdate(x.lines, [ca, cb], x.lang, x.r, { ...standard, before: 1, after: 1, reverse });
  const origSet = new Set(x.lines.map((t) => t.trim()));
  const markers = u.flatMap((t, i) => (isMarkerLine(t, origSet) ? [i] : []));
  // The marker that opens the second hunk written; none when the two hunks' context met.
  const at = markers.find((i) => i > 0 && u.slice(0, i).some((t) => t.trim() !== '' && !isMarkerLine(t, origSet)));
  if (at === undefined) return null;
  // A note without dots announces the hunk after it; the update's closing marker is no such place.
  if (dotless && !u.slice(at + 1).some((t) => t.trim() !== '')) return null;
  const second = reverse ? a : b;
  const next = u.slice(at + 1).find((t) => t.trim() !== '') ?? '';
  const written = note(x.lang, ind(next), second.name, x.r, dotless);
  // A note without dots is read only where a blank line sets it apart from the hunk before it;
  // with no note at all, the blank line alone parts the hunks.
  u.splice(at, 1, ...(between === 'blank' ? [''] : dotless ? ['', written, ''] : [written]));
  // Only hunks that a line of their own pins (edit-gen.ts pinned): which of several equal spans a
  // hunk of repeated lines edits is another question than the note's.
  if (!pinned(x.lines, u.join('\n'))) return null;
  return result(x, [ca, cb], u, 'Two fixes.');
}

/** The hunk below written first, then a note and the hunk above it. */
export const hunksReversedWithNote: Shape = (x) => twoHunks(x, true);

/** The two hunks in file order, a note between them. */
export const hunksInOrderWithNote: Shape = (x) => twoHunks(x, false);

/** The hunk below written first, then a note without dots (`// and in NAME:`) and the hunk above. */
export const hunksReversedWithDotlessNote: Shape = (x) => twoHunks(x, true, 'dotless');

/**
 * The hunk below written first, then a blank line and the hunk above it, no marker between
 * (src/apply/hunk-order.ts backwardCut): the second hunk goes where its own lines are. Not gated in
 * order-generated.test.ts yet: at the pinned draw main merges 0 / 258 exactly and this branch 120,
 * with 3 lossy outputs on both (docs/apply.md, branch orderx2).
 */
export const hunksReversedWithoutMarker: Shape = (x) => twoHunks(x, true, 'blank');
