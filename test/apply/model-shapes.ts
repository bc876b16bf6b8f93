// Shapes of lazy edits that independently written held-out sets (bench/apply/external-2026-11-26k, -26l)
// have and edit-shapes.ts lacked, each rendered the way those models wrote it, with the expected file
// built by construction: a twin class (the same service for another entity) edited in one copy only;
// a new sibling line or element next to look-alike siblings, shown with context on one side; the
// file's imports and one function far below shown with no marker between; existing lines wrapped in
// error handling; a signature changed with its callers; an element added to a list written one
// element per line with a marker inside the list; hunks out of order with a deletion; a whole class
// removed by instruction; a method one twin class has added to the other, shown after its quoted
// neighbour (set p ts03). Kept apart from SHAPES so the committed held-out corpus stays as built.
import { applyChanges, bodyLines, findBlocks, marker, pick, pinned, renderUpdate, editLine, strongLine, type Block, type Change, type Edit, type Lang } from './edit-gen.js';
import { declared, editIn, ind, join, leaves, removalOf, standard, topLevel, type Shape, type ShapeInput } from './edit-shapes.js';
import { CLOSER_LINE, firstToken, normalize } from '../../src/apply/lines.js';
import { escapeRe } from '../../src/apply/escape-regexp.js';

/** Edit of a file the shape built itself (`original` differs from the source). */
function built(lines: string[], changes: Change[], update: string[], instruction: string, determined: boolean): Omit<Edit, 'shape'> {
  return { instruction, update: update.join('\n'), expected: join(applyChanges(lines, changes)), determined, original: join(lines) };
}

function edited(x: ShapeInput, changes: Change[], update: string[], instruction: string): Omit<Edit, 'shape'> {
  return { instruction, update: update.join('\n'), expected: join(applyChanges(x.lines, changes)), determined: pinned(x.lines, update.join('\n')) };
}

/** The comment a model puts above a snippet to say where it goes (`// in OrderService`). */
function locationComment(lang: Lang, where: string, r: () => number): string {
  const text = r() < 0.5 ? where : `in ${where}`;
  return lang.line ? `${lang.line} ${text}` : `${lang.block![0]} ${text} ${lang.block![1]}`;
}

const NOUNS = ['nurse', 'ward', 'recipe', 'invoice', 'shipment', 'ticket', 'lesson', 'voucher', 'parcel', 'tenant'];
const KEYWORDS = /^(?:return|const|let|var|this|self|def|func|public|private|protected|static|final|void|function|async|await|true|false|null|none|nil|new|string|local|echo|then|else|elif|end|with|from|import|class|struct|await|throw|raise|yield|break|continue|typeof|instanceof|require|module|exports|undefined|console|value|length|string|number|boolean|object|error)$/i;
const cap = (s: string): string => s[0]!.toUpperCase() + s.slice(1);

/** One unit of indentation as the file writes it (inside `b`: its first body line minus its header). */
export function unitOf(lines: string[], b: Block): string {
  for (let j = b.header + 1; j < b.end; j++) {
    const d = ind(lines[j]!).length - b.indent;
    if (lines[j]!.trim() !== '' && d > 0) return ind(lines[j]!).slice(b.indent);
  }
  return '  ';
}

/**
 * A twin of `container` for another entity: the same lines with one word of `b`'s body (and its
 * capitalised form) renamed, inserted after it. Null when no word makes the copy differ from
 * everything else in the file.
 */
export function withTwin(x: ShapeInput, container: Block, b: Block): { lines: string[]; offset: number; noun: string } | null {
  const words = new Set<string>();
  for (let j = b.header; j < b.end; j++) for (const m of x.lines[j]!.matchAll(/\b([a-z][a-z]{3,})\b/g)) if (!KEYWORDS.test(m[1]!)) words.add(m[1]!);
  const text = x.lines.join('\n').toLowerCase();
  const noun = pick(x.r, NOUNS.filter((n) => !text.includes(n)));
  const w = pick(x.r, [...words].filter((v) => bodyHas(x, b, v)));
  if (!noun || !w) return null;
  const re = new RegExp(`\\b${escapeRe(w)}\\b`, 'g');
  const reCap = new RegExp(`\\b${escapeRe(cap(w))}\\b`, 'g');
  const copy = x.lines.slice(container.header, container.end).map((t) => t.replace(re, noun).replace(reCap, cap(noun)));
  // A top-level function copied keeps no duplicate name: the entity goes into its name too.
  if (copy[0] === x.lines[container.header]) copy[0] = copy[0]!.replace(new RegExp(`\\b${escapeRe(container.name)}\\b`), `${container.name}${cap(noun)}`);
  if (copy[0] === x.lines[container.header]) return null;
  const lines = [...x.lines.slice(0, container.end), '', ...copy, ...x.lines.slice(container.end)];
  return { lines, offset: container.end + 1 - container.header, noun };
}

function bodyHas(x: ShapeInput, b: Block, w: string): boolean {
  const re = new RegExp(`\\b${escapeRe(w)}\\b`);
  for (let j = b.header + 1; j < b.end - 1; j++) if (strongLine(x.lines[j]!) && re.test(x.lines[j]!)) return true;
  return false;
}

/** A line that opens or closes a block, or continues one (not a statement of its own). */
function structural(t: string): boolean {
  const s = t.trim();
  return /[{([:,\\]\s*$|^[})\]]|=>\s*$/.test(s) || CLOSER_LINE.test(s) || /^(?:if|for|while|else|elif|do|case|when|try|catch|except|finally|switch|return|begin|rescue|guard|defer)\b/.test(s);
}

/** Runs of 1..3 consecutive statements at one indentation inside `b`. */
function statementRun(x: ShapeInput, b: Block): [number, number] | null {
  const starts: number[] = [];
  for (let j = b.header + 1; j < b.end - 1; j++) if (strongLine(x.lines[j]!) && !structural(x.lines[j]!)) starts.push(j);
  if (starts.length === 0) return null;
  const s = pick(x.r, starts);
  let e = s + 1;
  const want = 1 + Math.floor(x.r() * 3);
  while (e - s < want && e < b.end - 1 && strongLine(x.lines[e]!) && !structural(x.lines[e]!) && ind(x.lines[e]!) === ind(x.lines[s]!)) e++;
  return [s, e];
}

/** The wrapper a language writes around lines that may fail: [open], [handler...], [close]. */
export function errorWrapper(lang: Lang, i: string, u: string): { open: string[]; handler: string[]; close: string[] } | null {
  const log = lang.statement(i + u, 'operation failed');
  switch (lang.name) {
    case 'typescript': case 'tsx': case 'javascript':
      return { open: [`${i}try {`], handler: [`${i}} catch (err) {`, log, `${i}${u}throw err;`], close: [`${i}}`] };
    case 'java': return { open: [`${i}try {`], handler: [`${i}} catch (RuntimeException e) {`, log, `${i}${u}throw e;`], close: [`${i}}`] };
    case 'csharp': return { open: [`${i}try`, `${i}{`], handler: [`${i}}`, `${i}catch (Exception ex)`, `${i}{`, log, `${i}${u}throw;`], close: [`${i}}`] };
    case 'kotlin': return { open: [`${i}try {`], handler: [`${i}} catch (e: Exception) {`, log, `${i}${u}throw e`], close: [`${i}}`] };
    case 'php': return { open: [`${i}try {`], handler: [`${i}} catch (\\Throwable $e) {`, log, `${i}${u}throw $e;`], close: [`${i}}`] };
    case 'swift': return { open: [`${i}do {`], handler: [`${i}} catch {`, log, `${i}${u}throw error`], close: [`${i}}`] };
    case 'python': return { open: [`${i}try:`], handler: [`${i}except Exception:`, log, `${i}${u}raise`], close: [] };
    case 'ruby': return { open: [`${i}begin`], handler: [`${i}rescue StandardError => e`, log, `${i}${u}raise`], close: [`${i}end`] };
    default: return null;
  }
}

/** The file's head: its first lines up to the first blank line (imports, `package`, `use`). */
function headEnd(x: ShapeInput): number {
  const firstDef = x.blocks.length > 0 ? Math.min(...x.blocks.map((b) => b.header)) : x.lines.length;
  for (let j = 2; j < Math.min(40, firstDef); j++) if (x.lines[j]!.trim() === '') return j;
  return -1;
}

/** A new line in the head: one of its import-like lines for another name, after it. */
function headInsert(x: ShapeInput, end: number): Change | null {
  const cands = [];
  for (let j = 0; j < end; j++) if (strongLine(x.lines[j]!) && /^\s*(?:import|from|use|using|require|#include|const \w+ = require|package|"|library|open)\b|^\s*"/.test(x.lines[j]!)) cands.push(j);
  const j = pick(x.r, cands);
  if (j === undefined) return null;
  const e = editLine(x.lines[j]!, x.r);
  if (!e || x.lines.some((t) => t.trim() === e.trim())) return null;
  return { start: j + 1, end: j + 1, lines: [e] };
}

/** Kind word for a definition that holds others, from its header (`class`, `struct`, `module`). */
export function containerKind(header: string): string | null {
  return /\b(class|struct|interface|enum|module|impl|object|trait|namespace|record)\b/.exec(header)?.[1] ?? null;
}

export const MODEL_SHAPES: Record<string, Shape> = {
  /**
   * Two copies of a class (or function) for two entities; one copy's method is edited. The update
   * shows that method with the line naming its entity, markers around (k sw01, cs03), or re-indented
   * to column 0 under a location comment (k ts08), or whole with no markers.
   */
  'twin-entity-edit': (x) => {
    const b = pick(x.r, leaves(x).filter((bb) => bb.end - bb.header <= 40));
    if (!b) return null;
    const container = b.parent >= 0 ? x.blocks[b.parent]! : b;
    if (container.end - container.header > 120 || !declared(x, b) || !(container === b || containerKind(x.lines[container.header]!))) return null;
    // Multi-line strings (template literals, heredocs, docstrings) are no place for a statement.
    if (x.lines.slice(container.header, container.end).some((l) => (l.match(/`/g) ?? []).length % 2 === 1 || /<<[-~]?['"]?[A-Z]|"{3}|'{3}/.test(l))) return null;
    const t = withTwin(x, container, b);
    if (!t) return null;
    const second = x.r() < 0.6;
    const at = second ? t.offset : 0;
    const y: ShapeInput = { lines: t.lines, lang: x.lang, blocks: findBlocks(t.lines, x.lang), r: x.r };
    const tb = y.blocks.find((bb) => bb.header === b.header + at && bb.end === b.end + at);
    if (!tb) return null;
    const op = x.r();
    let c: Change | null;
    if (op < 0.5) c = editIn(y, tb);
    else {
      const run = statementRun(y, tb);
      c = run ? { start: run[1], end: run[1], lines: [y.lang.statement(ind(y.lines[run[0]]!), `${t.noun} checked`)] } : null;
    }
    if (!c) return null;
    const body = applyChanges(y.lines.slice(tb.header, tb.end), [{ ...c, start: c.start - tb.header, end: c.end - tb.header }]);
    const where = container === b ? tb.name : (second ? y.lines[container.header + t.offset]! : y.lines[container.header]!).trim().replace(/\s*[{:(].*$/, '');
    const form = x.r();
    let u: string[];
    if (form < 0.4 || b === container) u = [marker(y.lang, ind(body[0]!), y.r), ...body, marker(y.lang, ind(body[0]!), y.r)];
    else if (form < 0.75) u = [locationComment(y.lang, where.split(/\s+/).pop()!, y.r), ...body.map((l) => (l.trim() === '' ? '' : l.slice(Math.min(tb.indent, ind(l).length))))];
    else u = body;
    // Determined when the snippet shows a strong line only this twin has (the renamed word or the original one).
    const once = new Map<string, number>();
    for (const l of y.lines) once.set(l.trim(), (once.get(l.trim()) ?? 0) + 1);
    const determined = body.some((l) => strongLine(l) && once.get(l.trim()) === 1);
    return built(y.lines, [c], u, `Update ${tb.name} in ${where.split(/\s+/).pop()}.`, determined);
  },
  /**
   * A new line next to look-alike siblings (a route, a field, an import, a list entry), shown with
   * context on one side only and a marker on the other (k go02), or a multi-line element next to its
   * twin elements (k tsx04).
   */
  'sibling-insert': (x) => {
    const groups: Array<[number, number]> = [];
    for (let j = 1; j + 1 < x.lines.length; j++) {
      const a = x.lines[j]!;
      const b = x.lines[j + 1]!;
      if (strongLine(a) && strongLine(b) && ind(a) === ind(b) && !/[{([:]\s*$/.test(a) && !CLOSER_LINE.test(b.trim()) && firstToken(normalize(a)) === firstToken(normalize(b))) groups.push([j, 1]);
    }
    // Multi-line elements: k lines starting like the next k lines (`<Button …>` / text / `</Button>`).
    for (let j = 1; j < x.lines.length; j++) {
      for (const k of [2, 3, 4]) {
        if (j + 2 * k > x.lines.length) continue;
        const same = Array.from({ length: k }, (_, d) => d).every((d) => x.lines[j + d]!.trim() !== '' && ind(x.lines[j + d]!) === ind(x.lines[j + k + d]!) && firstToken(normalize(x.lines[j + d]!)) === firstToken(normalize(x.lines[j + k + d]!)));
        if (same && strongLine(x.lines[j]!) && ind(x.lines[j + 1]!).length > ind(x.lines[j]!).length && ind(x.lines[j + k - 1]!) === ind(x.lines[j]!)) groups.push([j, k]);
      }
    }
    const g = pick(x.r, groups);
    if (!g) return null;
    const [j, k] = g;
    // The new element copies the one after it with a changed value, as a model writes a new route.
    const model = x.lines.slice(j + k, j + 2 * k);
    const e = editLine(model[0]!, x.r);
    if (!e || x.lines.some((t) => t.trim() === e.trim())) return null;
    const add: Change = { start: j + k, end: j + k, lines: [e, ...model.slice(1)] };
    const i = ind(x.lines[j]!);
    const form = x.r();
    let u: string[];
    if (form < 0.4) u = [marker(x.lang, i, x.r), ...add.lines, ...x.lines.slice(j + k, j + 2 * k), marker(x.lang, i, x.r)];
    else if (form < 0.8) u = [marker(x.lang, i, x.r), ...x.lines.slice(j, j + k), ...add.lines, marker(x.lang, i, x.r)];
    else u = renderUpdate(x.lines, [add], x.lang, x.r, { ...standard, before: 1, after: 1 });
    const e1 = edited(x, [add], u, 'Add one more like the others.');
    // With context on one side only, the new line also reads as the edit of the sibling the marker
    // hides (the random line edits leave that reading open too): only the two-sided form is determined.
    return form < 0.8 ? { ...e1, determined: false } : e1;
  },
  /** The file's imports with one added, then one function far below, edited: no marker anywhere (k go10). */
  'head-and-function-no-markers': (x) => {
    const h = headEnd(x);
    if (h < 0) return null;
    const b = pick(x.r, topLevel(x).filter((bb) => x.blocks.some((o) => o.header > h && o.end <= bb.header)));
    if (!b) return null;
    const hc = headInsert(x, h);
    const c = editIn(x, b);
    if (!hc || !c) return null;
    const u = [...applyChanges(x.lines.slice(0, h), [hc]), '', ...applyChanges(x.lines.slice(b.header, b.end), [{ ...c, start: c.start - b.header, end: c.end - b.header }])];
    return { instruction: `Use the new import in ${b.name}.`, update: u.join('\n'), expected: join(applyChanges(x.lines, [hc, c])), determined: true };
  },
  /** A new definition like its neighbour, shown alone with no markers; the instruction says after which one. */
  'new-sibling-definition': (x) => {
    if (x.lang.style === 'sql' || x.lang.name === 'css' || x.lang.name === 'yaml') return null;
    // Functions and methods named by their head (`def f(`, `func (s *S) f(`, `Buffer *f(`), not calls or keys.
    const head = (bb: Block): boolean => new RegExp(`(?:\\b(?:function|def|fn|func|fun|sub)\\s+|[\\w>\\])*&]\\s+\\*?)${escapeRe(bb.name)}\\s*[(<]`).test(x.lines[bb.header]!) && !KEYWORDS.test(bb.name);
    const b = pick(x.r, leaves(x).filter((bb) => declared(x, bb) && head(bb) && bb.end - bb.header <= 30));
    if (!b) return null;
    const name = `${b.name}${pick(x.r, ['Batch', 'Async', 'Safe', 'Cached'])}`;
    if (x.lines.some((t) => t.includes(name))) return null;
    const copy = x.lines.slice(b.header, b.end);
    copy[0] = copy[0]!.replace(new RegExp(`\\b${escapeRe(b.name)}\\b`), name);
    const body = bodyLines(x.lines, b).map((j) => j - b.header);
    const k = pick(x.r, body);
    if (k !== undefined) copy.splice(k + 1, 0, x.lang.statement(ind(copy[k]!), `${name} called`));
    const blankAfter = b.end < x.lines.length && x.lines[b.end]!.trim() === '';
    // Separated from its neighbour as the file separates them: by a blank line where one follows b.
    const add: Change = { start: b.end, end: b.end, lines: blankAfter ? ['', ...copy] : copy };
    const u = b.indent > 0 && x.r() < 0.5 ? copy.map((l) => (l.trim() === '' ? '' : l.slice(Math.min(b.indent, ind(l).length)))) : copy;
    return { ...edited(x, [add], u, `Add ${name} right after ${b.name}.`), determined: true };
  },
  /** Existing statements wrapped in try/catch (the old lines re-indented inside), context around. */
  'error-wrapper': (x) => {
    const b = pick(x.r, leaves(x));
    if (!b) return null;
    const run = statementRun(x, b);
    if (!run) return null;
    const i = ind(x.lines[run[0]]!);
    const u = unitOf(x.lines, b);
    const w = errorWrapper(x.lang, i, u);
    if (!w) return null;
    const c: Change = { start: run[0], end: run[1], lines: [...w.open, ...x.lines.slice(run[0], run[1]).map((l) => u + l), ...w.handler, ...w.close] };
    return edited(x, [c], renderUpdate(x.lines, [c], x.lang, x.r, { ...standard, before: 1 + Math.floor(x.r() * 2), after: 1 + Math.floor(x.r() * 2) }), `Handle errors in ${b.name}.`);
  },
  /** A parameter added to a definition and to its calls elsewhere; sometimes an import too, hunks out of order (k cs03). */
  'signature-and-callers': (x) => {
    const cands = leaves(x).filter((b) => /^[A-Za-z_]\w*$/.test(b.name) && new RegExp(`\\b${b.name}\\s*\\(`).test(x.lines[b.header]!));
    const b = pick(x.r, cands.filter((bb) => x.lines.some((t, j) => (j < bb.header || j >= bb.end) && new RegExp(`\\b${bb.name}\\(([^()]*)\\)`).test(t))));
    if (!b) return null;
    const head = x.lines[b.header]!.replace(new RegExp(`(\\b${b.name}\\s*\\()([^()]*)\\)`), (_m, o: string, a: string) => `${o}${a.trim() === '' ? 'verbose' : `${a}, verbose`})`);
    if (head === x.lines[b.header]) return null;
    const changes: Change[] = [{ start: b.header, end: b.header + 1, lines: [head] }];
    const call = new RegExp(`(\\b${b.name}\\()([^()]*)\\)`);
    x.lines.forEach((t, j) => {
      if ((j < b.header || j >= b.end) && call.test(t) && changes.every((c) => Math.abs(c.start - j) > 2)) {
        changes.push({ start: j, end: j + 1, lines: [t.replace(call, (_m, o: string, a: string) => `${o}${a.trim() === '' ? 'true' : `${a}, true`})`)] });
      }
    });
    const h = headEnd(x);
    const hc = h > 0 && x.r() < 0.4 ? headInsert(x, h) : null;
    if (hc && changes.every((c) => c.start > h + 2)) changes.push(hc);
    return edited(x, changes, renderUpdate(x.lines, changes, x.lang, x.r, { ...standard, before: 1, after: 1 + Math.floor(x.r() * 2), reverse: x.r() < 0.35 }), `Add a verbose flag to ${b.name} and pass it from its callers.`);
  },
  /** An element added to a list written one element per line (imports, arguments), a marker inside the list. */
  'list-marker-inside': (x) => {
    const cands: Array<[number, number]> = [];
    for (let o = 0; o < x.lines.length; o++) {
      if (!/[[({]\s*$/.test(x.lines[o]!)) continue;
      let e = o + 1;
      while (e < x.lines.length && /,\s*$/.test(x.lines[e]!) && ind(x.lines[e]!).length > ind(x.lines[o]!).length && !/[[({]\s*$/.test(x.lines[e]!)) e++;
      if (e - o - 1 >= 3 && e < x.lines.length && /^\s*[)\]}]/.test(x.lines[e]!) && ind(x.lines[e]!) === ind(x.lines[o]!)) cands.push([o, e]);
    }
    const c0 = pick(x.r, cands);
    if (!c0 || !x.lang.line && !x.lang.block) return null;
    const [o, e] = c0;
    const ei = ind(x.lines[o + 1]!);
    const item = editLine(x.lines[e - 1]!, x.r);
    if (!item || x.lines.some((t) => t.trim() === item.trim())) return null;
    const form = x.r();
    const outer = (inner: string[]): string[] => [...(o > 0 ? [marker(x.lang, ind(x.lines[o]!), x.r)] : []), x.lines[o]!, ...inner, x.lines[e]!, ...(e + 1 < x.lines.length ? [marker(x.lang, ind(x.lines[o]!), x.r)] : [])];
    if (form < 0.4) {
      // In the middle, both neighbours shown, markers for the rest of the list on both sides.
      const k = o + 1 + Math.floor(x.r() * (e - o - 2));
      const add: Change = { start: k + 1, end: k + 1, lines: [item] };
      const inner = [...(k > o + 1 ? [marker(x.lang, ei, x.r)] : []), x.lines[k]!, item, x.lines[k + 1]!, ...(k + 2 < e ? [marker(x.lang, ei, x.r)] : [])];
      return edited(x, [add], outer(inner), 'Add one more entry.');
    }
    const atEnd = form < 0.75;
    const add: Change = atEnd ? { start: e, end: e, lines: [item] } : { start: o + 1, end: o + 1, lines: [item] };
    // Next to the element the marker hides, the new one also reads as that element's edit.
    return { ...edited(x, [add], outer(atEnd ? [marker(x.lang, ei, x.r), item] : [item, marker(x.lang, ei, x.r)]), 'Add one more entry.'), determined: false };
  },
  /** Two hunks written in reverse file order, one of them deleting a statement (the neighbours shown touching). */
  'out-of-order-with-deletion': (x) => {
    const ls = leaves(x);
    if (ls.length < 2) return null;
    const a = ls[Math.floor(x.r() * (ls.length - 1))]!;
    const b = ls[ls.indexOf(a) + 1]!;
    const [del, ed] = x.r() < 0.5 ? [a, b] : [b, a];
    const run = statementRun(x, del);
    const c = editIn(x, ed);
    if (!run || !c || run[0] === del.header + 1) return null;
    const d: Change = { start: run[0], end: run[0] + 1, lines: [] };
    if (Math.abs(d.start - c.start) < 5) return null;
    return edited(x, [c, d], renderUpdate(x.lines, [c, d], x.lang, x.r, { ...standard, before: 1 + Math.floor(x.r() * 2), after: 1 + Math.floor(x.r() * 2), reverse: true }), `Drop the extra call in ${del.name} and fix ${ed.name}.`);
  },
  /** A whole class (struct, module) removed by instruction; its neighbours shown touching. */
  'instructed-class-removal': (x) => {
    const holders = x.blocks.filter((b, k) => x.blocks.some((c) => c.parent === k) && containerKind(x.lines[b.header]!) && b.header > 1 && b.end < x.lines.length - 1 && /^[A-Za-z_]\w*$/.test(b.name));
    const b = pick(x.r, holders.filter((h) => x.blocks.filter((o) => o.name === h.name).length === 1));
    if (!b) return null;
    const c = removalOf(x, b);
    const kind = containerKind(x.lines[b.header]!)!;
    const say = pick(x.r, [`Remove the \`${b.name}\` ${kind}.`, `Delete the ${b.name} ${kind} entirely.`, `Drop ${kind} ${b.name}; nothing uses it.`]);
    return edited(x, [c], renderUpdate(x.lines, [c], x.lang, x.r, { ...standard, before: 2, after: 2 }), say);
  },
  /**
   * Two copies of a class for two entities; one copy lacks a method the other has, and the update
   * adds it there: the method before it quoted unchanged, then the new one, with no class around them
   * (markers on both sides or none). The other copy's method of that name must stay (set p ts03).
   */
  'twin-member-added': (x) => {
    const holders = x.blocks.filter((c) => containerKind(x.lines[c.header]!) && c.end - c.header <= 120);
    const container = pick(x.r, holders);
    if (!container) return null;
    const k = x.blocks.indexOf(container);
    const kids = x.blocks.filter((b) => b.parent === k && declared(x, b));
    // A method with a declared sibling right above it, nothing but blank lines between them.
    const pairs: Array<[Block, Block]> = [];
    for (let a = 0; a + 1 < kids.length; a++) {
      const [p, m] = [kids[a]!, kids[a + 1]!];
      if (p.name !== m.name && x.lines.slice(p.end, m.header).every((l) => l.trim() === '')) pairs.push([p, m]);
    }
    const pair = pick(x.r, pairs);
    if (!pair) return null;
    const [p, m] = pair;
    const t = withTwin(x, container, p);
    if (!t) return null;
    // The copy that gets the method back: the first (the source's own) or the second.
    const at = x.r() < 0.5 ? 0 : t.offset;
    const lines = [...t.lines.slice(0, p.end + at), ...t.lines.slice(m.end + at)];
    const add: Change = { start: p.end + at, end: p.end + at, lines: t.lines.slice(p.end + at, m.end + at) };
    const shown = t.lines.slice(p.header + at, m.end + at);
    const u = x.r() < 0.5 ? shown : [marker(x.lang, ind(shown[0]!), x.r), ...shown, marker(x.lang, ind(shown[0]!), x.r)];
    // Determined when the quoted method has a strong line only this copy has.
    const once = new Map<string, number>();
    for (const l of lines) once.set(l.trim(), (once.get(l.trim()) ?? 0) + 1);
    const determined = t.lines.slice(p.header + at, p.end + at).some((l) => strongLine(l) && once.get(l.trim()) === 1);
    const head = at === 0 ? x.lines[container.header]! : t.lines[container.header + t.offset]!;
    const owner = new RegExp(`\\b${containerKind(head)}\\s+([\\w$]+)`).exec(head)?.[1] ?? 'it';
    return built(lines, [add], u, `Give ${owner} a \`${m.name}\` method like the other copy has.`, determined);
  },
};

/** The shapes above, in a fixed order (the generated test draws from them by index). */
export const MODEL_SHAPE_NAMES = Object.keys(MODEL_SHAPES);
