// The shapes of lazy edits that broke merges in practice (issue 28), each built from a source file:
// it picks a definition, makes the edit, and renders the update the way a model writes that shape.
// Returns null when the file has nothing the shape needs.
import {
  bodyLines, editLine, findBlocks, marker, pick, renderUpdate, strongLine,
  type Block, type Change, type Edit, type Lang,
} from './edit-gen.js';
import { applyChanges } from './edit-gen.js';
import { definesName } from '../../src/apply/definition-blocks.js';

export interface ShapeInput {
  lines: string[];
  lang: Lang;
  blocks: Block[];
  r: () => number;
}

export type Shape = (x: ShapeInput) => Omit<Edit, 'shape'> | null;

export function ind(s: string): string {
  return s.match(/^\s*/)![0];
}

export function join(lines: string[]): string {
  return lines.join('\n') + '\n';
}

/** Leaf definitions (no definition inside) with at least one strong body line. */
export function leaves(x: ShapeInput): Block[] {
  return x.blocks.filter((b, k) => !x.blocks.some((c) => c.parent === k) && bodyLines(x.lines, b).length > 0);
}

export function methods(x: ShapeInput): Block[] {
  return leaves(x).filter((b) => b.parent >= 0 && b.indent > 0);
}

export function topLevel(x: ShapeInput): Block[] {
  return leaves(x).filter((b) => b.parent < 0);
}

/** An edited body line of block b (changes one line in place). */
export function editIn(x: ShapeInput, b: Block): Change | null {
  const body = bodyLines(x.lines, b);
  for (let tries = 0; tries < 6; tries++) {
    const j = pick(x.r, body);
    const e = editLine(x.lines[j]!, x.r);
    if (e && e !== x.lines[j]) return { start: j, end: j + 1, lines: [e] };
  }
  return null;
}

export function newLine(x: ShapeInput, at: number, tag: string): string {
  const lang = x.lang;
  const ref = x.lines[at]!;
  if (lang.name === 'yaml' && !ref.trim().startsWith('- ')) return `${ind(ref)}${tag.replace(/\W/g, '_')}: true`;
  return lang.statement(ind(ref), tag);
}

/** Removing definition b whole: its decorators and doc comments too, and one of the blank lines
 *  that then meet. */
export function removalOf(x: ShapeInput, b: Block): Change {
  let start = b.header;
  while (start > 0 && /^\s*(?:@|\/\/\/?|#\[|\/\*\*|\*)/.test(x.lines[start - 1]!)) start--;
  let end = b.end;
  if (start > 0 && x.lines[start - 1]!.trim() === '' && end < x.lines.length && x.lines[end]!.trim() === '') end++;
  return { start, end, lines: [] };
}

export function result(x: ShapeInput, changes: Change[], update: string[], instruction: string, determined = true): Omit<Edit, 'shape'> {
  return { instruction, update: update.join('\n'), expected: join(applyChanges(x.lines, changes)), determined };
}

/** A definition named by a declaration (`function f`, `def f`, `f() {`), not a call such as `router.get(`. */
export function declared(x: ShapeInput, b: Block): boolean {
  return /^[A-Za-z_]\w*$/.test(b.name) && !/^\s*[\w$]+\.[\w$]+\(/.test(x.lines[b.header]!) && definesName(x.lines[b.header]!, b.name);
}

/** What a person calls the definition: function, method, rule, view, section. */
export function kindOf(x: ShapeInput, b: Block): string {
  if (x.lang.name === 'css') return 'rule';
  if (x.lang.name === 'yaml') return 'section';
  if (x.lang.name === 'sql') return (/CREATE\s+(?:OR\s+REPLACE\s+)?(\w+)/i.exec(x.lines[b.header]!)?.[1] ?? 'statement').toLowerCase();
  return b.parent >= 0 ? 'method' : 'function';
}

export const standard = { before: 2, after: 2, leadingMarker: true, trailingMarker: true };

export const SHAPES: Record<string, Shape> = {
  /** Anchor line, new code, marker: the update shows where, then what, then "the rest". */
  'anchor-new-marker': (x) => {
    const b = pick(x.r, leaves(x).length ? leaves(x) : x.blocks);
    if (!b) return null;
    const body = bodyLines(x.lines, b);
    if (body.length === 0) return null;
    const j = pick(x.r, body);
    const add: Change = { start: j + 1, end: j + 1, lines: [newLine(x, j, 'anchor-new')] };
    const u = [marker(x.lang, ind(x.lines[j]!), x.r), ...x.lines.slice(Math.max(b.header, j - 1), j + 1), ...add.lines, marker(x.lang, ind(x.lines[j]!), x.r)];
    return result(x, [add], u, 'Add a debug log line.');
  },
  /** A line edited inside a function, two lines of context each side. */
  'edit-in-function': (x) => {
    const b = pick(x.r, leaves(x));
    if (!b) return null;
    const c = editIn(x, b);
    if (!c) return null;
    return result(x, [c], renderUpdate(x.lines, [c], x.lang, x.r, standard), 'Update the value.');
  },
  /** A method of a class shown whole, with one line changed, without its class and without markers. */
  'method-without-class': (x) => {
    const b = pick(x.r, methods(x));
    if (!b) return null;
    const c = editIn(x, b);
    if (!c) return null;
    const u = applyChanges(x.lines.slice(b.header, b.end), [{ ...c, start: c.start - b.header, end: c.end - b.header }]);
    return result(x, [c], u, `Update the ${b.name} method.`);
  },
  /** The same method re-indented to column 0 (a model quoting it out of its class), markers around. */
  'reindented-method': (x) => {
    const b = pick(x.r, methods(x));
    if (!b) return null;
    const c = editIn(x, b);
    if (!c) return null;
    const body = applyChanges(x.lines.slice(b.header, b.end), [{ ...c, start: c.start - b.header, end: c.end - b.header }]);
    const u = [marker(x.lang, '', x.r), ...body.map((t) => (t.trim() === '' ? '' : t.slice(Math.min(b.indent, ind(t).length)))), marker(x.lang, '', x.r)];
    return result(x, [c], u, `Change ${b.name}.`);
  },
  /** New code before a line that occurs many times (`}`, `return err`, `return null;`), one strong line above. */
  'repeated-anchor': (x) => {
    const counts = new Map<string, number>();
    for (const t of x.lines) counts.set(t.trim(), (counts.get(t.trim()) ?? 0) + 1);
    const cands: number[] = [];
    for (let j = 1; j < x.lines.length; j++) {
      const t = x.lines[j]!.trim();
      if (t !== '' && (counts.get(t) ?? 0) >= 3 && strongLine(x.lines[j - 1]!) && (counts.get(x.lines[j - 1]!.trim()) ?? 0) === 1) cands.push(j);
    }
    if (cands.length === 0) return null;
    const j = pick(x.r, cands);
    const add: Change = { start: j, end: j, lines: [newLine(x, j - 1, 'before-repeated')] };
    const u = [marker(x.lang, ind(x.lines[j - 1]!), x.r), x.lines[j - 1]!, ...add.lines, x.lines[j]!, marker(x.lang, ind(x.lines[j]!), x.r)];
    return result(x, [add], u, 'Log before it returns.');
  },
  /** Two near-identical functions; the later one is edited on a line both share, header shown. */
  'near-identical': (x) => {
    const ls = leaves(x);
    const pairs: Array<[Block, number]> = [];
    for (const b of ls) {
      for (const a of ls) {
        if (a.header >= b.header) continue;
        for (const j of bodyLines(x.lines, b)) {
          if (bodyLines(x.lines, a).some((i) => x.lines[i]!.trim() === x.lines[j]!.trim())) pairs.push([b, j]);
        }
      }
    }
    if (pairs.length === 0) return null;
    const [b, j] = pick(x.r, pairs);
    const e = editLine(x.lines[j]!, x.r);
    if (!e) return null;
    const c: Change = { start: j, end: j + 1, lines: [e] };
    const u = [marker(x.lang, ind(x.lines[b.header]!), x.r), ...applyChanges(x.lines.slice(b.header, b.end), [{ ...c, start: j - b.header, end: j + 1 - b.header }]), marker(x.lang, ind(x.lines[b.header]!), x.r)];
    return result(x, [c], u, `Change ${b.name} only.`);
  },
  /** Every copy of a repeated block edited, hunks in file order. */
  'repeated-blocks': (x) => {
    const ls = leaves(x);
    const shared = new Map<string, number[]>();
    for (const b of ls) for (const j of bodyLines(x.lines, b)) shared.set(x.lines[j]!.trim(), [...(shared.get(x.lines[j]!.trim()) ?? []), j]);
    const reps = [...shared.values()].filter((v) => v.length >= 2);
    if (reps.length === 0) return null;
    const js = pick(x.r, reps).slice(0, 3);
    const e = editLine(x.lines[js[0]!]!, x.r);
    if (!e) return null;
    const changes = js.map((j) => ({ start: j, end: j + 1, lines: [ind(x.lines[j]!) + e.trim()] }));
    const u = renderUpdate(x.lines, changes, x.lang, x.r, { ...standard, before: 3, after: 1 });
    return result(x, changes, u, 'Apply the same change everywhere.');
  },
  /** The anchor itself edited: the header gains a parameter / changes, a body line added. */
  'anchor-edited': (x) => {
    const b = pick(x.r, leaves(x).filter((bb) => /\(.*\)/.test(x.lines[bb.header]!)));
    if (!b) return null;
    const h = x.lines[b.header]!;
    const nh = h.replace(/\(([^()]*)\)/, (_m, a: string) => (a.trim() === '' ? '(verbose)' : `(${a}, verbose)`));
    const body = bodyLines(x.lines, b);
    const j = body[0]!;
    const changes: Change[] = [{ start: b.header, end: b.header + 1, lines: [nh] }, { start: j + 1, end: j + 1, lines: [newLine(x, j, 'verbose')] }];
    return result(x, changes, renderUpdate(x.lines, changes, x.lang, x.r, { ...standard, before: 1, after: 1 }), `Add a verbose flag to ${b.name}.`);
  },
  /** A snippet that stops before its block's closing lines (the model forgot the `}`), marker after. */
  'missing-closing': (x) => {
    const b = pick(x.r, leaves(x).filter((bb) => x.lang.style === 'brace' && /^[\s})\];]*$/.test(x.lines[bb.end - 1]!)));
    if (!b) return null;
    const c = editIn(x, b);
    if (!c) return null;
    const u = [marker(x.lang, ind(x.lines[b.header]!), x.r), ...applyChanges(x.lines.slice(b.header, b.end - 1), [{ ...c, start: c.start - b.header, end: c.end - b.header }]), marker(x.lang, ind(x.lines[b.header]!), x.r)];
    return result(x, [c], u, `Fix ${b.name}.`);
  },
  /** Two hunks in two definitions, written in reverse file order. */
  'hunks-out-of-order': (x) => {
    const ls = leaves(x);
    if (ls.length < 2) return null;
    const a = ls[Math.floor(x.r() * (ls.length - 1))]!;
    const b = ls[ls.indexOf(a) + 1]!;
    const ca = editIn(x, a);
    const cb = editIn(x, b);
    if (!ca || !cb || cb.start - ca.start < 4) return null;
    return result(x, [ca, cb], renderUpdate(x.lines, [ca, cb], x.lang, x.r, { ...standard, before: 1, after: 1, reverse: true }), 'Two fixes.');
  },
  /** A line of an array / argument / object literal extended with an inline marker for the old items. */
  'inline-marker': (x) => {
    if (!x.lang.block || x.lang.name === 'css' || x.lang.name === 'sql') return null;
    const cands: number[] = [];
    x.lines.forEach((t, j) => {
      if (/[[{(]\s*(?:"[^"]*"|'[^']*'|\d+)(?:\s*,\s*(?:"[^"]*"|'[^']*'|\d+))+\s*[\]})]/.test(t)) cands.push(j);
    });
    if (cands.length === 0) return null;
    const j = pick(x.r, cands);
    const t = x.lines[j]!;
    const m = /([[{(])(\s*)((?:"[^"]*"|'[^']*'|\d+)(?:\s*,\s*(?:"[^"]*"|'[^']*'|\d+))+)(\s*)([\]})])/.exec(t)!;
    const first = /^(?:"[^"]*"|'[^']*'|\d+)/.exec(m[3]!)![0];
    const item = /^\d/.test(first) ? '999' : `${first[0]}extra${first[0]}`;
    const [o, c] = x.lang.block;
    const updated = t.replace(m[0], `${m[1]}${m[2]}${o} ... ${c}, ${item}${m[4]}${m[5]}`);
    const expected = t.replace(m[0], `${m[1]}${m[2]}${m[3]}, ${item}${m[4]}${m[5]}`);
    const change: Change = { start: j, end: j + 1, lines: [expected] };
    const u = [marker(x.lang, '', x.r), updated, marker(x.lang, '', x.r)];
    if (j === 0) u.shift();
    return result(x, [change], u, 'Add one more entry to the list.');
  },
  /** A declaration renamed in place, its neighbours shown as context. */
  'rename-in-place': (x) => {
    const cands: number[] = [];
    for (let j = 1; j + 1 < x.lines.length; j++) {
      if (strongLine(x.lines[j]!) && strongLine(x.lines[j - 1]!) && /\b[a-z][a-zA-Z]{2,}\b/.test(x.lines[j]!)) cands.push(j);
    }
    if (cands.length === 0) return null;
    const j = pick(x.r, cands);
    const w = pick(x.r, [...x.lines[j]!.matchAll(/\b([a-z][a-zA-Z]{3,})\b/g)].map((m) => m[1]!));
    if (!w) return null;
    const renamed = x.lines[j]!.replace(new RegExp(`\\b${w}\\b`), `${w}Renamed`);
    const c: Change = { start: j, end: j + 1, lines: [renamed] };
    return result(x, [c], renderUpdate(x.lines, [c], x.lang, x.r, { ...standard, before: 1, after: 1 }), `Rename ${w}.`);
  },
  /** The instruction names a definition to remove; the update shows its neighbours touching. */
  'instructed-removal': (x) => {
    const names = new Map<string, number>();
    for (const b of x.blocks) names.set(b.name, (names.get(b.name) ?? 0) + 1);
    const ls = leaves(x).filter((b) => declared(x, b) && names.get(b.name) === 1 && b.header > 1 && b.end < x.lines.length - 1);
    const b = pick(x.r, ls);
    if (!b) return null;
    const c = removalOf(x, b);
    const u = renderUpdate(x.lines, [c], x.lang, x.r, { ...standard, before: 2, after: 2 });
    return result(x, [c], u, `Remove the \`${b.name}\` ${kindOf(x, b)}.`);
  },
  /** The instruction names a removal while the update shows a different edit only. */
  'instructed-removal-elsewhere': (x) => {
    const names = new Map<string, number>();
    for (const b of x.blocks) names.set(b.name, (names.get(b.name) ?? 0) + 1);
    const ls = leaves(x).filter((b) => declared(x, b) && names.get(b.name) === 1 && b.header > 1);
    if (ls.length < 2) return null;
    // An unused definition: its name appears nowhere outside it.
    const unused = ls.filter((b) => !x.lines.some((t, j) => (j < b.header || j >= b.end) && new RegExp(`\\b${b.name}\\b`).test(t)));
    const gone = pick(x.r, unused);
    if (!gone) return null;
    const other = pick(x.r, ls.filter((b) => b !== gone && (b.end < gone.header - 2 || b.header > gone.end + 2)));
    if (!other) return null;
    const c = editIn(x, other);
    if (!c) return null;
    let start = gone.header;
    while (start > 0 && /^\s*(?:@|\/\/\/?|#\[|\/\*\*|\*)/.test(x.lines[start - 1]!)) start--;
    let end = gone.end;
    if (start > 0 && x.lines[start - 1]!.trim() === '' && end < x.lines.length && x.lines[end]!.trim() === '') end++;
    else if (end >= x.lines.length) while (start > 0 && x.lines[start - 1]!.trim() === '') start--;
    const removal: Change = { start, end, lines: [] };
    const u = renderUpdate(x.lines, [c], x.lang, x.r, standard);
    return result(x, [c, removal], u, `Remove the unused \`${gone.name}\` ${kindOf(x, gone)} and update ${other.name}.`);
  },
  /** One complete top-level function with a change, no markers: it replaces that function only. */
  'whole-function-no-markers': (x) => {
    const ts = topLevel(x);
    const b = pick(x.r, ts);
    if (!b || x.blocks.length < 2) return null;
    const c = editIn(x, b);
    if (!c) return null;
    return result(x, [c], applyChanges(x.lines.slice(b.header, b.end), [{ ...c, start: c.start - b.header, end: c.end - b.header }]), `Update ${b.name}.`);
  },
  /** A hunk with a leading marker but none after it, though the file goes on (the model stopped early). */
  'no-trailing-marker': (x) => {
    const b = pick(x.r, leaves(x).filter((bb) => bb.end < x.lines.length - 3));
    if (!b) return null;
    const c = editIn(x, b);
    if (!c) return null;
    const u = [marker(x.lang, ind(x.lines[b.header]!), x.r), ...applyChanges(x.lines.slice(b.header, b.end), [{ ...c, start: c.start - b.header, end: c.end - b.header }])];
    return result(x, [c], u, `Change ${b.name}.`);
  },
  /** A body line deleted; the lines on both sides shown touching. */
  'delete-line': (x) => {
    const b = pick(x.r, leaves(x).filter((bb) => bodyLines(x.lines, bb).length >= 3));
    if (!b) return null;
    // A statement: not a line that opens or closes a block (deleting an `if` header is no edit a model makes).
    const body = bodyLines(x.lines, b).filter((j) => !/[{(:\[]\s*$|^\s*[})\]]/.test(x.lines[j]!) && x.lines[j + 1]?.trim() !== '{' && !/^(?:if|for|while|else|do|case|when)\b/.test(x.lines[j]!.trim()));
    if (body.length < 2) return null;
    const j = body[1 + Math.floor(x.r() * (body.length - 2))]!;
    const c: Change = { start: j, end: j + 1, lines: [] };
    return result(x, [c], renderUpdate(x.lines, [c], x.lang, x.r, standard), 'Drop that line.');
  },
  /** Three edits in file order with one line of context. */
  'multi-hunk': (x) => {
    const ls = leaves(x);
    if (ls.length < 3) return null;
    const cs: Change[] = [];
    for (const b of [ls[0]!, ls[Math.floor(ls.length / 2)]!, ls[ls.length - 1]!]) {
      const c = editIn(x, b);
      if (c && cs.every((d) => Math.abs(d.start - c.start) > 3)) cs.push(c);
    }
    if (cs.length < 2) return null;
    return result(x, cs, renderUpdate(x.lines, cs, x.lang, x.r, { ...standard, before: 1, after: 1 }), 'Several fixes.');
  },
};

export function shapeEdit(shape: string, lines: string[], lang: Lang, seed: () => number, shapes: Record<string, Shape> = SHAPES): Edit | null {
  const blocks = findBlocks(lines, lang);
  const e = shapes[shape]!({ lines, lang, blocks, r: seed });
  return e ? { shape, ...e } : null;
}
