// Lazy edits written the way a model writes them, over real source files: the file's definitions
// (functions, methods, classes, rules, tables, jobs) found by their block structure, an edit made to
// them, and the update rendered as a model renders it — only the hunks, `... existing code ...`
// markers in the language's comment syntax and wording, context dropped, hunks out of order, a
// method without its class, a re-indented snippet, a missing closing brace. Each edit carries the
// file the edit means (`expected`). Used by the held-out corpus builder and the generated-edit test.
import { isWeak, normalize } from '../../src/apply/lines.js';
import { INLINE_MARKER } from '../../src/apply/loss.js';
import { isMarkerLine } from '../../src/apply/markers.js';

export interface Lang {
  name: string;
  /** Line-comment opener, or null when only block comments exist (CSS). */
  line: string | null;
  /** Block comment [open, close], or null. */
  block: [string, string] | null;
  /** A new statement at the given indentation, `tag` making it unique. */
  statement(indent: string, tag: string): string;
  /** How blocks end: braces, indentation (Python, YAML), `end` (Ruby), `;` (SQL). */
  style: 'brace' | 'indent' | 'end' | 'sql';
}

const q = (s: string): string => JSON.stringify(s);

export const LANGS: Record<string, Lang> = {
  ts: { name: 'typescript', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}logger.debug(${q(t)});`, style: 'brace' },
  tsx: { name: 'tsx', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}console.debug(${q(t)});`, style: 'brace' },
  js: { name: 'javascript', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}console.log(${q(t)});`, style: 'brace' },
  mjs: { name: 'javascript', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}console.log(${q(t)});`, style: 'brace' },
  cjs: { name: 'javascript', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}console.log(${q(t)});`, style: 'brace' },
  py: { name: 'python', line: '#', block: null, statement: (i, t) => `${i}log.debug(${q(t)})`, style: 'indent' },
  go: { name: 'go', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}log.Printf(${q(t)})`, style: 'brace' },
  rs: { name: 'rust', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}log::debug!(${q(t)});`, style: 'brace' },
  java: { name: 'java', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}LOG.fine(${q(t)});`, style: 'brace' },
  c: { name: 'c', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}fprintf(stderr, "${t}\\n");`, style: 'brace' },
  cs: { name: 'csharp', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}Console.WriteLine(${q(t)});`, style: 'brace' },
  rb: { name: 'ruby', line: '#', block: null, statement: (i, t) => `${i}logger.debug(${q(t)})`, style: 'end' },
  php: { name: 'php', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}error_log(${q(t)});`, style: 'brace' },
  kt: { name: 'kotlin', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}logger.debug(${q(t)})`, style: 'brace' },
  swift: { name: 'swift', line: '//', block: ['/*', '*/'], statement: (i, t) => `${i}print(${q(t)})`, style: 'brace' },
  css: { name: 'css', line: null, block: ['/*', '*/'], statement: (i, t) => `${i}--${t.replace(/\W/g, '-')}: 1;`, style: 'brace' },
  sql: { name: 'sql', line: '--', block: ['/*', '*/'], statement: (i, t) => `${i}${t.replace(/\W/g, '_')} TEXT,`, style: 'sql' },
  sh: { name: 'shell', line: '#', block: null, statement: (i, t) => `${i}log ${q(t)}`, style: 'brace' },
  yaml: { name: 'yaml', line: '#', block: null, statement: (i, t) => `${i}- run: echo ${t.replace(/\W/g, '-')}`, style: 'indent' },
};

/** The language of a file by its extension (`.txt` after it, as the samples are stored, is skipped). */
export function langOf(file: string): Lang | null {
  const ext = /\.([a-z]+)$/.exec(file.replace(/\.txt$/, ''))?.[1] ?? '';
  return LANGS[ext === 'yml' ? 'yaml' : ext] ?? null;
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)]!;
}

const WORDINGS = ['... existing code ...', '... rest of the file ...', '… unchanged …', '...', '... existing code ...', '... rest of code unchanged ...', '... other methods ...'];

/** A marker line as a model writes it in this language. */
export function marker(lang: Lang, indent: string, r: () => number): string {
  const w = pick(r, WORDINGS);
  if (lang.line && (!lang.block || r() < 0.75)) return `${indent}${lang.line} ${w}`;
  const [o, c] = lang.block!;
  return `${indent}${o} ${w} ${c}`;
}

export interface Block {
  header: number;
  /** Exclusive. */
  end: number;
  name: string;
  indent: number;
  /** Index of the innermost block containing this one, or -1. */
  parent: number;
}

const CONTROL = /^(?:\}\s*)?(?:if|else|for|while|switch|try|catch|finally|do|match|loop|guard|when|foreach|unless|case|with|elif|except|return|defer|select|BEGIN)\b/;

function indentOf(s: string): number {
  return s.length - s.trimStart().length;
}

function braceDelta(s: string): number {
  let d = 0;
  let quote = '';
  for (let k = 0; k < s.length; k++) {
    const c = s[k]!;
    if (quote) {
      if (c === '\\') k++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '/' && s[k + 1] === '/') break;
    else if (c === '{') d++;
    else if (c === '}') d--;
  }
  return d;
}

function blockName(t: string): string {
  const kw = /\b(?:function|def|fn|func|class|struct|enum|interface|trait|impl|module|object|namespace|TABLE|VIEW|FUNCTION|TRIGGER|INDEX)\s+(?:\([^)]*\)\s*)?([A-Za-z_][\w.]*)/.exec(t);
  if (kw) return kw[1]!;
  const call = /([A-Za-z_]\w*)\s*\(/.exec(t);
  if (call && !CONTROL.test(call[1]!)) return call[1]!;
  const key = /^([\w.#:@ >-]+?)\s*(?:\{|:)\s*$/.exec(t.trim());
  return key ? key[1]!.trim() : '';
}

/** Definitions of a file, by its block structure. */
export function findBlocks(lines: string[], lang: Lang): Block[] {
  const out: Block[] = [];
  const N = lines.length;
  for (let h = 0; h < N; h++) {
    const t = lines[h]!.trim();
    if (t === '' || CONTROL.test(t)) continue;
    let end = -1;
    if (lang.style === 'sql') {
      if (!/^CREATE\b/i.test(t)) continue;
      let dollar = 0;
      for (let j = h; j < N; j++) {
        dollar += (lines[j]!.match(/\$\$/g) ?? []).length;
        if (dollar % 2 === 0 && /;\s*$/.test(lines[j]!)) {
          end = j + 1;
          break;
        }
      }
    } else if (lang.style === 'indent' || (lang.style === 'end' && /^(?:def|class|module)\b/.test(t))) {
      if (lang.style === 'indent' && !/:\s*$/.test(t)) continue;
      if (lang.name === 'python' && !/^(?:def|class|async def)\b/.test(t) && !/^@/.test(t)) continue;
      const ind = indentOf(lines[h]!);
      let last = h;
      for (let j = h + 1; j < N; j++) {
        if (lines[j]!.trim() === '') continue;
        if (indentOf(lines[j]!) <= ind) {
          if (lang.style === 'end' && lines[j]!.trim() === 'end' && indentOf(lines[j]!) === ind) last = j;
          break;
        }
        last = j;
      }
      if (last === h) continue;
      end = last + 1;
    } else {
      const opens = /\{\s*$/.test(t) && braceDelta(t) > 0;
      const allman = !opens && h + 1 < N && lines[h + 1]!.trim() === '{' && !/[;,]$/.test(t);
      if (!opens && !allman) continue;
      let depth = 0;
      for (let j = h; j < N; j++) {
        depth += braceDelta(lines[j]!);
        if (j > h && depth <= 0) {
          end = j + 1;
          break;
        }
        if (j === h && allman) continue;
      }
    }
    if (end < 0 || end - h < 3) continue;
    const name = blockName(t);
    if (!name) continue;
    out.push({ header: h, end, name, indent: indentOf(lines[h]!), parent: -1 });
  }
  for (let b = 0; b < out.length; b++) {
    for (let p = b - 1; p >= 0; p--) {
      if (out[p]!.header < out[b]!.header && out[p]!.end >= out[b]!.end) {
        out[b]!.parent = p;
        break;
      }
    }
  }
  return out;
}

/** A replacement of original lines [start, end) by `lines`. */
export interface Change {
  start: number;
  end: number;
  lines: string[];
}

export interface Edit {
  shape: string;
  instruction: string;
  update: string;
  expected: string;
  /** False when the update allows more than one reading (the oracle still applies). */
  determined: boolean;
  /** The file the edit is made to, when the shape built one from the source (twins); else the source. */
  original?: string;
}

export function applyChanges(lines: string[], changes: Change[]): string[] {
  const sorted = [...changes].sort((a, b) => a.start - b.start);
  const out: string[] = [];
  let at = 0;
  for (const c of sorted) {
    out.push(...lines.slice(at, c.start), ...c.lines);
    at = c.end;
  }
  out.push(...lines.slice(at));
  return out;
}

/** Lines a hunk shows: original [from, to) with the changes inside it applied. */
function hunkText(lines: string[], from: number, to: number, changes: Change[]): string[] {
  const inside = changes.filter((c) => c.start >= from && c.end <= to);
  return applyChanges(lines.slice(from, to), inside.map((c) => ({ start: c.start - from, end: c.end - from, lines: c.lines })));
}

const WEAKISH = /^[\s{}()[\];,]*$|^(?:end|return|return;|break;|else|fi|done|\)|\}\);?)$/;

export function strongLine(s: string): boolean {
  const t = s.trim();
  return t.length > 3 && !WEAKISH.test(t) && !isWeak(normalize(t));
}

/** An edited version of a line, as a model edits: a number, a string, or a name changed. */
export function editLine(s: string, r: () => number): string | null {
  const ind = s.slice(0, indentOf(s));
  const t = s.trim();
  if (/\d/.test(t) && r() < 0.5) return ind + t.replace(/\d+/, (d) => String(Number(d) * 2 + 7));
  const str = /(["'])([^"'\\]{1,40})\1/.exec(t);
  if (str && r() < 0.7) return ind + t.replace(str[0], `${str[1]}${str[2]} (v2)${str[1]}`);
  const ids = [...t.matchAll(/\b([a-z][a-zA-Z0-9]{2,})\b/g)].map((m) => m[1]!).filter((w) => !/^(return|const|let|var|this|self|def|func|public|private|static|final|void|function|async|await|true|false|null|new|int|string|local|echo|end|let|val|fun)$/.test(w));
  if (ids.length > 0) {
    const w = pick(r, ids);
    return ind + t.replace(new RegExp(`\\b${w}\\b`), `${w}Next`);
  }
  return null;
}

export interface RenderOptions {
  /** Context lines before / after each change. */
  before: number;
  after: number;
  leadingMarker: boolean;
  trailingMarker: boolean;
  reverse?: boolean;
}

/**
 * The update for a set of changes: one hunk per change (context around it merged when close), a
 * marker line between hunks and at the edges the file continues past, indented like its neighbour.
 */
export function renderUpdate(lines: string[], changes: Change[], lang: Lang, r: () => number, o: RenderOptions): string[] {
  const sorted = [...changes].sort((a, b) => a.start - b.start);
  const hunks: Array<[number, number]> = [];
  for (const c of sorted) {
    let from = Math.max(0, c.start - o.before);
    let to = Math.min(lines.length, c.end + o.after);
    // Models show at least one meaningful line of context on each side, not a lone `}`.
    const strongIn = (a: number, b: number): boolean => lines.slice(a, b).some(strongLine);
    for (let k = 0; k < 4 && from > 0 && o.before > 0 && !strongIn(from, c.start); k++) from--;
    for (let k = 0; k < 4 && to < lines.length && o.after > 0 && !strongIn(c.end, to); k++) to++;
    // Context never starts or ends on a blank line: models trim it.
    while (from < c.start && lines[from]!.trim() === '') from++;
    while (to > c.end && lines[to - 1]!.trim() === '') to--;
    const last = hunks[hunks.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else hunks.push([from, to]);
  }
  const order = o.reverse ? [...hunks].reverse() : hunks;
  const out: string[] = [];
  order.forEach(([from, to], h) => {
    const text = hunkText(lines, from, to, sorted);
    const firstInd = (text.find((t) => t.trim() !== '') ?? '').match(/^\s*/)![0];
    if ((h === 0 && o.leadingMarker && from > 0) || h > 0 || o.reverse) out.push(marker(lang, firstInd, r));
    out.push(...text);
  });
  const lastTo = order[order.length - 1]![1];
  if (o.trailingMarker && (lastTo < lines.length || o.reverse)) {
    const lastInd = ([...out].reverse().find((t) => t.trim() !== '') ?? '').match(/^\s*/)![0];
    out.push(marker(lang, lastInd, r));
  }
  return out;
}

/** Body lines of a block a change may touch: strong, strictly inside. */
export function bodyLines(lines: string[], b: Block): number[] {
  const out: number[] = [];
  for (let j = b.header + 1; j < b.end - 1; j++) if (strongLine(lines[j]!)) out.push(j);
  return out;
}

/**
 * Every hunk of the update says where it goes: one of its lines is unique in the original, or two
 * of its consecutive lines are consecutive in the original exactly once. A hunk made only of
 * repeated context (`{` then a line that two methods start with) has no single right answer.
 */
export function pinned(lines: string[], update: string): boolean {
  const norm = (t: string): string => t.trim().replace(/\s+/g, ' ');
  const orig = lines.map(norm);
  const count = new Map<string, number>();
  for (const l of orig) count.set(l, (count.get(l) ?? 0) + 1);
  const pairs = new Map<string, number>();
  const nb = orig.filter((l) => l !== '');
  for (let k = 0; k + 1 < nb.length; k++) pairs.set(`${nb[k]}\n${nb[k + 1]}`, (pairs.get(`${nb[k]}\n${nb[k + 1]}`) ?? 0) + 1);
  const origSet = new Set(orig);
  const hunks: string[][] = [[]];
  for (const l of update.split('\n')) {
    if (isMarkerLine(l, origSet)) hunks.push([]);
    else if (norm(l) !== '') hunks[hunks.length - 1]!.push(norm(l));
  }
  if (hunks.length === 1) return true; // no marker: a whole definition or file, judged by structure
  return hunks.filter((h) => h.length > 0).every((h) => {
    if (h.some((l) => count.get(l) === 1)) return true;
    // An inline marker's line: the original line it extends is the one starting with its head.
    for (const l of h) {
      const m = INLINE_MARKER.exec(l);
      if (m && m.index >= 3 && orig.filter((o) => o.startsWith(l.slice(0, m.index).trim())).length === 1) return true;
    }
    for (let k = 0; k + 1 < h.length; k++) if (pairs.get(`${h[k]}\n${h[k + 1]}`) === 1) return true;
    return false;
  });
}
