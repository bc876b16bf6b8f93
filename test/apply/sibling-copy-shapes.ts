// A new definition copied from an existing one (its name changed and one body line), inserted after
// it, and called beside the original's call elsewhere in the file: the copy-paste sibling that held-out
// sets wrote as a handler appended after a marker and registered (C#), a new `case` for a new action
// constant (JS), a route handler like its neighbour (docs/apply.md, branch lossv). The update shows
// each change with one or two lines of context above and none or one below, markers between: the copy
// reads line by line as the original renamed in place, and only the new name's use tells them apart.
import { bodyLines, editLine, pick, pinned, renderUpdate, strongLine, type Change } from './edit-gen.js';
import { declared, ind, leaves, result, type ShapeInput } from './edit-shapes.js';
import { escapeRe } from '../../src/apply/escape-regexp.js';

const SUFFIXES = ['Batch', 'Async', 'Safe', 'Cached', 'Twice'];

/** A plain statement line (no block opened, continued or closed on it). */
function plainStatement(t: string): boolean {
  return strongLine(t) && !/[{([:,\\]\s*$|=>\s*$/.test(t.trim()) && !/^[})\]]/.test(t.trim()) && !/^(?:else|elif|catch|except|finally|case|default|return)\b/.test(t.trim());
}

export function newSiblingCalled(x: ShapeInput): ReturnType<typeof result> | null {
  const callOf = (name: string) => new RegExp(`\\b${escapeRe(name)}\\s*\\(`);
  // A whole call statement (a call whose arguments go on below, or a definition, is not one to copy).
  const callLine = (t: string, name: string) => plainStatement(t) && callOf(name).test(t) && !/^\s*(?:def|function|func|fn|fun|sub)\b/.test(t);
  const cands = leaves(x).filter((b) => declared(x, b) && b.name.length >= 3 && b.end - b.header <= 30 &&
    x.lines.some((t, j) => (j < b.header || j >= b.end) && callLine(t, b.name)));
  const b = pick(x.r, cands);
  if (!b) return null;
  const name = `${b.name}${pick(x.r, SUFFIXES)}`;
  if (x.lines.some((t) => t.includes(name))) return null;
  const calls = x.lines.map((t, j) => j).filter((j) => (j < b.header || j >= b.end) && callLine(x.lines[j]!, b.name));
  const c = pick(x.r, calls)!;
  const copy = x.lines.slice(b.header, b.end);
  copy[0] = copy[0]!.replace(new RegExp(`\\b${escapeRe(b.name)}\\b`), name);
  if (copy[0] === x.lines[b.header]) return null;
  // One body statement changed (what makes the copy do something else).
  const body = copy.map((t, k) => k).filter((k) => k > 0 && k < copy.length - 1 && plainStatement(copy[k]!));
  const k = pick(x.r, body);
  if (k !== undefined) copy[k] = x.lang.statement(ind(copy[k]!), `${name} step`);
  const use = x.lines[c]!.replace(new RegExp(`\\b${escapeRe(b.name)}(\\s*\\()`, 'g'), `${name}$1`);
  const blankAfter = b.end < x.lines.length && x.lines[b.end]!.trim() === '';
  const changes: Change[] = [
    { start: c + 1, end: c + 1, lines: [use] },
    { start: b.end, end: b.end, lines: blankAfter ? ['', ...copy] : copy },
  ];
  const update = renderUpdate(x.lines, changes, x.lang, x.r, { before: 1 + Math.floor(x.r() * 2), after: Math.floor(x.r() * 2), leadingMarker: true, trailingMarker: true });
  const e = result(x, changes, update, x.r() < 0.5 ? '' : `Add ${name}, like ${b.name}, and call it where ${b.name} is called.`);
  return { ...e, determined: pinned(x.lines, e.update) };
}

/**
 * A definition or entry copied from the one before it, with every body statement changed and its
 * name (if it has one) changed to one nothing else uses: no second use tells the copy from an edit
 * of a sibling, so only "the update shows it beside the old one" does (docs/apply.md, branch
 * lossw). Inserted right after the original; the update shows one or two lines above it and the
 * marker right after it (the copy before the next sibling's place), or the copy and the next lines
 * after a marker. With `anchorEdited`, the update shows the original from its first line with its
 * first body statement edited too (the anchor itself changed, set x dart01).
 */
function siblingCopy(x: ShapeInput, anchorEdited: boolean): ReturnType<typeof result> | null {
  // Code blocks, not an example inside a doc comment (`* for (…) {`).
  const cands = leaves(x).filter((b) => b.end - b.header >= 3 && b.end - b.header <= 20 && !/^\s*(?:\*|\/\/|\/\*|#)/.test(x.lines[b.header]!) &&
    x.blocks.some((c) => c !== b && c.parent === b.parent && c.header >= b.end && c.header <= b.end + 2));
  const b = pick(x.r, cands);
  if (!b) return null;
  const copy = x.lines.slice(b.header, b.end);
  // A named block gets a name nothing else uses (a key written twice is no edit anyone makes); an
  // anonymous one (`{`, `Widget(`) keeps its head.
  const named = b.name.replace(/:$/, '');
  // Named: a declaration (`function f`, `fn f`) or a key (`reporter: {`); not a keyword or a call read as a name.
  if (named && !declared(x, b) && !new RegExp(`^\\s*["']?${escapeRe(named)}["']?\\s*[:=]`).test(x.lines[b.header]!)) return null;
  if (named) {
    const name = `${named}${pick(x.r, SUFFIXES)}`;
    if (!/^[A-Za-z_]\w*$/.test(named) || x.lines.some((t) => t.includes(name))) return null;
    copy[0] = copy[0]!.replace(new RegExp(`\\b${escapeRe(named)}\\b`), name);
    if (copy[0] === x.lines[b.header]) return null;
  }
  let changed = 0;
  for (let k = 1; k < copy.length - 1; k++) {
    if (!strongLine(copy[k]!)) continue;
    const e = editLine(copy[k]!, x.r);
    if (e && e !== copy[k]) {
      copy[k] = e;
      changed++;
    }
  }
  if (changed === 0) return null;
  const blankAfter = b.end < x.lines.length && x.lines[b.end]!.trim() === '';
  const changes: Change[] = [{ start: b.end, end: b.end, lines: blankAfter ? ['', ...copy] : copy }];
  let before = 1 + Math.floor(x.r() * 2);
  let after = 0;
  if (anchorEdited) {
    const first = bodyLines(x.lines, b)[0];
    const e = first === undefined ? null : editLine(x.lines[first]!, x.r);
    if (first === undefined || !e || e === x.lines[first]) return null;
    changes.push({ start: first, end: first + 1, lines: [e] });
    before = first - b.header + 1;
  } else if (x.r() < 0.5) {
    before = 0;
    after = 1 + Math.floor(x.r() * 2);
  }
  const update = renderUpdate(x.lines, changes, x.lang, x.r, { before, after, leadingMarker: true, trailingMarker: true });
  const e = result(x, changes, update, '');
  return { ...e, determined: pinned(x.lines, e.update) };
}

export const siblingCopyUnnamed = (x: ShapeInput): ReturnType<typeof result> | null => siblingCopy(x, false);
export const siblingCopyAnchorEdited = (x: ShapeInput): ReturnType<typeof result> | null => siblingCopy(x, true);

/**
 * A declared definition copied from the sibling right after it, under a new name and with one body
 * statement changed, inserted before that sibling; the update shows one or two lines above the copy
 * (the end of the definition before it) and the marker right after it. The copy then reads line by
 * line as the next sibling with its name and one line edited, and only its new name says it is new
 * (held-out ai c02, a sysfs attribute copied before the next one; docs/apply.md, branch siby).
 */
export function siblingCopyBeforeNext(x: ShapeInput): ReturnType<typeof result> | null {
  const cands = leaves(x).filter((c) => declared(x, c) && c.end - c.header >= 3 && c.end - c.header <= 25 &&
    x.blocks.some((b) => b !== c && b.parent === c.parent && b.end <= c.header && b.end >= c.header - 2));
  const c = pick(x.r, cands);
  if (!c) return null;
  const name = `${c.name}${pick(x.r, SUFFIXES)}`;
  if (x.lines.some((t) => t.includes(name))) return null;
  const copy = x.lines.slice(c.header, c.end);
  copy[0] = copy[0]!.replace(new RegExp(`\\b${escapeRe(c.name)}\\b`), name);
  if (copy[0] === x.lines[c.header]) return null;
  const body = copy.map((t, k) => k).filter((k) => k > 0 && k < copy.length - 1 && plainStatement(copy[k]!));
  const k = pick(x.r, body);
  if (k === undefined) return null;
  copy[k] = x.lang.statement(ind(copy[k]!), `${name} step`);
  const blankBefore = c.header > 0 && x.lines[c.header - 1]!.trim() === '';
  const changes: Change[] = [{ start: c.header, end: c.header, lines: blankBefore ? [...copy, ''] : copy }];
  const update = renderUpdate(x.lines, changes, x.lang, x.r, { before: 1 + Math.floor(x.r() * 2), after: 0, leadingMarker: true, trailingMarker: true });
  const e = result(x, changes, update, '');
  return { ...e, determined: pinned(x.lines, e.update) };
}
