// Members of data and literals (docs/apply.md, branch inliney), over real source files:
// - `member-after-unshown-last`: a member appended to a multi-line object or array literal whose
//   last member has no trailing comma (its siblings have one); the update shows the literal's head,
//   a marker for the members, the new member and the closer. The old last member must take a comma.
// - `laid-out-one-line-list`: a one-line bracketed list of three or more plain elements that the
//   update lays out one element a row, with a marker row for the middle elements and a new element
//   last. The middle elements must stay.
import { marker, pick, type Edit } from './edit-gen.js';
import { ind, join, type ShapeInput } from './edit-shapes.js';
import { bracketLists } from '../../src/apply/inline-elements.js';

const CLOSERS: Record<string, string> = { '{': '}', '[': ']', '(': ')' };
const SUFFIXES = ['Extra', 'Next', 'Alt', 'Second'];

const unique = (x: ShapeInput, t: string): boolean => x.lines.filter((l) => l.trim() === t.trim()).length === 1;

/** A member line: no comment, brackets closed on the line. */
function plainMember(t: string): boolean {
  const s = t.trim();
  if (!s || /\/\/|\/\*|^#|^\*/.test(s)) return false;
  const lists = bracketLists(`(${s.replace(/,$/, '')})`);
  return lists !== null && lists.every((l) => l.close >= 0);
}

/**
 * The new member, in the last one's form but with a key and value of its own (a copy differing in one
 * token would read as the last member renamed): `key: v` → `retryLimitExtra: 3`, `"a"` → `"fallback-extra"`.
 */
function newMember(last: string, suffix: string): string | null {
  const keyed = /^(\s*)(["']?)[A-Za-z_$][\w$]*\2(\s*:\s*)\S/.exec(last);
  if (keyed) return `${keyed[1]}${keyed[2]}retryLimit${suffix}${keyed[2]}${keyed[3]}3`;
  const quoted = /^(\s*)(["'])[\w./@-]+\2$/.exec(last);
  return quoted ? `${quoted[1]}${quoted[2]}fallback-${suffix.toLowerCase()}${quoted[2]}` : null;
}

export function memberAfterUnshownLast(x: ShapeInput): Omit<Edit, 'shape'> | null {
  const heads: number[] = [];
  for (let h = 0; h < x.lines.length; h++) {
    const t = x.lines[h]!.trimEnd();
    const open = t[t.length - 1] ?? '';
    if (!(open in CLOSERS) || t.trim().length < 4 || !unique(x, t)) continue;
    // Rows one member each at one indentation, every one but the last with its comma, then the closer.
    const indent = ind(t);
    let k = h + 1;
    const itemIndent = ind(x.lines[k] ?? '');
    if (itemIndent.length <= indent.length) continue;
    while (k < x.lines.length && ind(x.lines[k]!) === itemIndent && x.lines[k]!.trim() && plainMember(x.lines[k]!) && x.lines[k]!.trimEnd().endsWith(',')) k++;
    const last = x.lines[k];
    const closer = x.lines[k + 1];
    if (k - h < 2 || last === undefined || closer === undefined || ind(last) !== itemIndent || last.trimEnd().endsWith(',') || !plainMember(last)) continue;
    if (ind(closer) !== indent || !closer.trim().startsWith(CLOSERS[open]!)) continue;
    heads.push(h);
  }
  const h = pick(x.r, heads);
  if (h === undefined) return null;
  let lastRow = h + 1;
  while (x.lines[lastRow]!.trimEnd().endsWith(',')) lastRow++;
  const last = x.lines[lastRow]!.trimEnd();
  const added = newMember(last, pick(x.r, SUFFIXES));
  if (!added || x.lines.some((l) => l.trimEnd() === added)) return null;
  const indent = ind(x.lines[h]!);
  const itemIndent = ind(last);
  const closerRow = lastRow + 1;
  const update = [x.lines[h]!, marker(x.lang, itemIndent, x.r), added, x.lines[closerRow]!];
  if (closerRow + 1 < x.lines.length) update.push(marker(x.lang, indent, x.r));
  if (h > 0) update.unshift(marker(x.lang, indent, x.r));
  const expected = [...x.lines.slice(0, lastRow), `${last},`, added, ...x.lines.slice(closerRow)];
  return { instruction: 'add a member', update: join(update), expected: join(expected), determined: true };
}

export function laidOutOneLineList(x: ShapeInput): Omit<Edit, 'shape'> | null {
  const rows: Array<{ j: number; open: number; close: number; items: string[] }> = [];
  for (let j = 0; j < x.lines.length; j++) {
    const t = x.lines[j]!;
    if (/\/\/|\/\*|#/.test(t) || !unique(x, t)) continue;
    const lists = bracketLists(t);
    if (!lists) continue;
    for (const l of lists) {
      if (l.close < 0 || l.elements.length < 3 || !(t[l.open]! in CLOSERS)) continue;
      const items = l.elements.map((e) => t.slice(e.start, e.end));
      // Plain elements (no inner list), a head of at least a word before the bracket, nothing but the closer's tail after it.
      if (items.some((e) => /[[({]/.test(e) || e.length < 2) || !/\w/.test(t.slice(0, l.open)) || /[[({]/.test(t.slice(l.close + 1))) continue;
      if (lists.some((o) => o !== l && o.open < l.open && o.close > l.close)) continue;
      rows.push({ j, open: l.open, close: l.close, items });
    }
  }
  const row = pick(x.r, rows);
  if (!row) return null;
  const t = x.lines[row.j]!;
  const indent = ind(t);
  const itemIndent = `${indent}${/\t/.test(indent) ? '\t' : '  '}`;
  const last = row.items[row.items.length - 1]!;
  const added = /^(["'])(.*)\1$/.test(last) ? `${last[0]}${last.slice(1, -1)}${pick(x.r, SUFFIXES).toLowerCase()}${last[0]}` : `${last}${pick(x.r, SUFFIXES)}`;
  if (row.items.includes(added)) return null;
  const head = t.slice(0, row.open + 1);
  const tail = `${indent}${t.slice(row.close)}`;
  const first = `${itemIndent}${row.items[0]},`;
  const laid = [head, first, ...row.items.slice(1).map((e) => `${itemIndent}${e},`), `${itemIndent}${added},`, tail];
  const update = [head, first, marker(x.lang, itemIndent, x.r), `${itemIndent}${last},`, `${itemIndent}${added},`, tail];
  if (row.j + 1 < x.lines.length) update.push(marker(x.lang, indent, x.r));
  if (row.j > 0) update.unshift(marker(x.lang, indent, x.r));
  const expected = [...x.lines.slice(0, row.j), ...laid, ...x.lines.slice(row.j + 1)];
  return { instruction: 'add an element', update: join(update), expected: join(expected), determined: true };
}
