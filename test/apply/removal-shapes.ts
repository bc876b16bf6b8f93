// A definition deleted by adjacency among its siblings (docs/apply.md, branch removy): the update
// shows the sibling before it by its head, a marker for its body, its last lines (none to two) and
// its closer, then the sibling after it by its head, a marker and its closer. The deleted definition ends with
// the same closer as the one before it, so only the shown head says which closer the segment starts
// with: the first one after that head, not the nearest one above the next sibling.
import { applyChanges, marker, type Change, type Edit } from './edit-gen.js';
import { declared, ind, join, removalOf, type ShapeInput } from './edit-shapes.js';
import type { Block } from './edit-gen.js';
import { CLOSER_LINE } from '../../src/apply/lines.js';

/** The definition's closer row (its last non-blank row), when that row only closes. */
function closerRow(x: ShapeInput, b: Block): number {
  let j = b.end - 1;
  while (j > b.header && x.lines[j]!.trim() === '') j--;
  return j > b.header && CLOSER_LINE.test(x.lines[j]!.trim()) && ind(x.lines[j]!).length === b.indent ? j : -1;
}

const once = (x: ShapeInput, j: number): boolean => x.lines.filter((l) => l.trim() === x.lines[j]!.trim()).length === 1;

export function deleteAfterShownTail(x: ShapeInput): Omit<Edit, 'shape'> | null {
  if (x.lang.style === 'indent' || x.lang.style === 'sql') return null;
  // Three declared siblings in a row (same parent, only blank lines between), each ending in the same closer.
  const triples: Array<[Block, Block, Block]> = [];
  const sibs = x.blocks.filter((b) => declared(x, b) && b.end - b.header >= 3);
  for (let k = 0; k + 2 < sibs.length; k++) {
    const [a, b, c] = [sibs[k]!, sibs[k + 1]!, sibs[k + 2]!];
    if (a.parent !== b.parent || b.parent !== c.parent || a.indent !== b.indent || b.indent !== c.indent) continue;
    if (!x.lines.slice(a.end, b.header).every((l) => l.trim() === '') || !x.lines.slice(b.end, c.header).every((l) => l.trim() === '')) continue;
    const [ca, cb, cc] = [closerRow(x, a), closerRow(x, b), closerRow(x, c)];
    if (ca < 0 || cb < 0 || cc < 0 || x.lines[ca]!.trim() !== x.lines[cb]!.trim()) continue;
    // Nothing above b's head that removalOf would take from a (a comment run belongs to b).
    if (a.end !== ca + 1 || !once(x, a.header) || !once(x, c.header)) continue;
    triples.push([a, b, c]);
  }
  if (triples.length === 0) return null;
  const [a, b, c] = triples[Math.floor(x.r() * triples.length)]!;
  const ca = closerRow(x, a);
  const body = ind(x.lines[ca]!) + '  ';
  // The last lines of a's body (none to two), every one deeper than its closer.
  const want = Math.floor(x.r() * 3);
  const tail: string[] = [];
  for (let j = ca - 1; j > a.header + 1 && tail.length < want; j--) {
    if (x.lines[j]!.trim() === '') break;
    if (ind(x.lines[j]!).length <= a.indent) return null;
    tail.unshift(x.lines[j]!);
  }
  const del: Change = removalOf(x, b);
  if (del.start <= ca) return null;
  const update = [
    marker(x.lang, ind(x.lines[a.header]!), x.r),
    x.lines[a.header]!,
    marker(x.lang, body, x.r),
    ...tail,
    x.lines[ca]!,
    // The separator the file has after a's closer (blank lines or none) stays there.
    ...x.lines.slice(ca + 1, b.header).filter((l) => l.trim() === ''),
    x.lines[c.header]!,
    marker(x.lang, body, x.r),
    x.lines[closerRow(x, c)]!,
    marker(x.lang, ind(x.lines[a.header]!), x.r),
  ];
  return { instruction: '', update: update.join('\n'), expected: join(applyChanges(x.lines, [del])), determined: true };
}

/**
 * A definition deleted between two siblings that a marker-less update shows (branch removz): the
 * sibling before it whole, from its head to its last line, the file's separator, then the head of
 * the sibling after it and none to two of its next lines. No marker anywhere: the update is a piece
 * of the file whose adjacency says the middle sibling goes.
 */
export function deleteBetweenShownSiblings(x: ShapeInput): Omit<Edit, 'shape'> | null {
  if (x.lang.style === 'sql') return null;
  const sibs = x.blocks.filter((b) => declared(x, b) && b.end - b.header >= 3);
  const triples: Array<[Block, Block, Block]> = [];
  for (let k = 0; k + 2 < sibs.length; k++) {
    const [a, b, c] = [sibs[k]!, sibs[k + 1]!, sibs[k + 2]!];
    if (a.parent !== b.parent || b.parent !== c.parent || a.indent !== b.indent || b.indent !== c.indent) continue;
    if (!x.lines.slice(a.end, b.header).every((l) => l.trim() === '') || !x.lines.slice(b.end, c.header).every((l) => l.trim() === '')) continue;
    if (!once(x, a.header) || !once(x, c.header) || c.end - c.header < 3) continue;
    triples.push([a, b, c]);
  }
  if (triples.length === 0) return null;
  const [a, b, c] = triples[Math.floor(x.r() * triples.length)]!;
  const del: Change = removalOf(x, b);
  if (del.start < a.end) return null;
  const next = Math.floor(x.r() * 3);
  const update = [...x.lines.slice(a.header, a.end), ...x.lines.slice(a.end, b.header), ...x.lines.slice(c.header, c.header + 1 + next)];
  return { instruction: '', update: update.join('\n'), expected: join(applyChanges(x.lines, [del])), determined: true };
}

/**
 * Lines deleted right after a closer the file has once (branch removz): the update shows, after a
 * marker, that closer as its top line and next the lines that followed the deleted ones, then a
 * marker. The closer is pinned by itself; the statements between it and the shown lines go.
 */
export function deleteBelowUniqueCloser(x: ShapeInput): Omit<Edit, 'shape'> | null {
  const L = x.lines;
  const cands: Array<[number, number]> = [];
  for (let c = 1; c + 4 < L.length; c++) {
    const t = L[c]!.trim();
    if (!CLOSER_LINE.test(t) || !once(x, c)) continue;
    // One to three one-line statements at the closer's indentation (none opens or closes a block),
    // then two shown lines, the first once in the file.
    const statement = (y: number): boolean => L[y]!.trim() !== '' && ind(L[y]!).length === ind(L[c]!).length && !/[{([,:\\]\s*$/.test(L[y]!) && !CLOSER_LINE.test(L[y]!.trim());
    let k = 0;
    while (k < 3 && c + 1 + k < L.length && statement(c + 1 + k)) k++;
    const after = c + 1 + k;
    if (k === 0 || after + 1 >= L.length || L[after]!.trim() === '' || L[after + 1]!.trim() === '' || !once(x, after)) continue;
    cands.push([c, k]);
  }
  if (cands.length === 0) return null;
  const [c, k] = cands[Math.floor(x.r() * cands.length)]!;
  const update = [marker(x.lang, ind(L[c]!), x.r), L[c]!, L[c + 1 + k]!, L[c + 2 + k]!, marker(x.lang, ind(L[c]!), x.r)];
  return { instruction: '', update: update.join('\n'), expected: join(applyChanges(L, [{ start: c + 1, end: c + 1 + k, lines: [] }])), determined: true };
}
