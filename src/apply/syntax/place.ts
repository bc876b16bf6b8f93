// The syntax pass of the merge: a definition in the update that the original also has (same kind
// group, same name, wherever the update's context says it lives) replaces the original's
// definition, markers or not. It runs before line alignment: the original with those definitions
// swapped in is what the line merge then works on, so the update's definitions are exact anchors
// there, and its other hunks (new code, edits outside definitions) are placed as before. When the
// update is nothing but such definitions (and markers), the swapped original is the result.
//
// A definition is swapped whole only when the update shows it complete: it parses cleanly, holds
// no marker, and every definition nested in the original's (methods of a class) is also in the
// update's; otherwise its nested definitions are matched one level down, inside it. A method shown
// without its class goes to the class that the update's surrounding lines (unique in the original)
// lie in, or to the one class that has a method of that name.
import { render } from '../merge-finish.js';
import { buildIndex, splitUpdate } from '../merge-context.js';
import { splitLines, type Lines } from '../lines.js';
import { kindGroup, extractDefinitions, MEMBER_WRAPPER, parsePrefix, type Definition } from './definitions.js';
import { detectLanguages } from './detect.js';
import { loadedParser, type LanguageId } from './grammars.js';
import { sqlDefinitions } from './sql.js';

export interface Swap {
  kind: string;
  name: string;
  /** Original rows [start, end] (inclusive) that were replaced. */
  start: number;
  end: number;
}

export interface SyntaxPass {
  language: LanguageId | 'sql';
  /** The original with the update's matching definitions swapped in. */
  code: string;
  swaps: Swap[];
  /** Every non-blank update line lies in a matched definition: `code` is the merge's result. */
  covers: boolean;
  /** Milliseconds spent parsing (original and update). */
  parseMs: number;
}

/**
 * Larger originals are merged on lines only: the Kotlin and Swift grammars parse superlinearly
 * (bench/apply/parse-bench.ts: 10,000 lines took 5 s and 14 s, 1,000 lines 130 ms and 280 ms);
 * YAML's definition matching is slow on large files (10,000 lines: 12 s, cause not found yet).
 */
const DEFAULT_MAX_LINES = 20_000;
const MAX_LINES: Partial<Record<LanguageId | 'sql', number>> = { kotlin: 2_000, swift: 1_000, yaml: 1_000 };

/** SVC_APPLY_SYNTAX=0 turns the syntax pass off (line alignment only): the "before" of the rates in docs/apply.md. */
const SYNTAX_ENABLED = process.env.SVC_APPLY_SYNTAX !== '0';

interface SegDefs {
  defs: Definition[];
  /** Update lines of this segment (as sent, not dedented). */
  lines: Lines;
}

/** Container kinds: definitions whose members are definitions. */
const CONTAINERS = new Set(['type', 'impl', 'module', 'at-rule', 'test', 'key']);

function parseWith(lang: LanguageId, text: string): { defs: Definition[]; hasError: boolean } | null {
  const parser = loadedParser(lang);
  if (!parser) return null;
  const prefix = parsePrefix(lang, text);
  const tree = parser.parse(prefix + text);
  if (!tree) return null;
  try {
    const shift = prefix === '' ? 0 : prefix.split('\n').length - 1;
    const defs = extractDefinitions(tree, lang, prefix + text).map((d) => ({ ...d, start: d.start - shift, end: d.end - shift }));
    return { defs, hasError: tree.rootNode.hasError };
  } finally {
    tree.delete();
  }
}

/** Common leading whitespace of the non-blank lines. */
function commonIndent(lines: string[]): string {
  let common: string | null = null;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const ws = /^[ \t]*/.exec(l)![0];
    if (common === null) common = ws;
    else {
      let k = 0;
      while (k < common.length && k < ws.length && common[k] === ws[k]) k++;
      common = common.slice(0, k);
    }
  }
  return common ?? '';
}

/** A segment's definitions: parsed as is (dedented), or inside a class shell when its members need one. */
function segmentDefinitions(lang: LanguageId | 'sql', lines: Lines): Definition[] {
  if (lang === 'sql') return sqlDefinitions(lines.text.join('\n'));
  const base = commonIndent(lines.text);
  const dedented = lines.text.map((l) => (l.startsWith(base) ? l.slice(base.length) : l.trimStart())).join('\n');
  const plain = parseWith(lang, dedented);
  if (!plain) return [];
  let best = plain.defs;
  const wrap = MEMBER_WRAPPER[lang];
  if (wrap && (plain.hasError || coveredRows(plain.defs) === 0)) {
    const wrapped = parseWith(lang, `${wrap[0]}\n${dedented}\n${wrap[1]}`);
    if (wrapped) {
      // Drop the shell: its members become top level, rows shift back by its opening line.
      const shell = wrapped.defs.findIndex((d) => d.name === '__Apply__');
      const defs = wrapped.defs
        .filter((_, k) => k !== shell)
        .map((d) => ({ ...d, start: d.start - 1, end: d.end - 1, parent: d.parent === shell ? -1 : d.parent > shell ? d.parent - 1 : d.parent }));
      if (coveredRows(defs) > coveredRows(best) || (plain.hasError && !wrapped.hasError && coveredRows(defs) === coveredRows(best))) best = defs;
    }
  }
  return best;
}

function coveredRows(defs: Definition[]): number {
  let n = 0;
  for (const d of defs) if (d.parent === -1 && d.clean && d.wholeLines) n += d.end - d.start + 1;
  return n;
}

/** Recent originals' definitions: the same file is often edited again (and `auto` may merge twice). */
const ORIGINAL_CACHE_SIZE = 8;
const originalCache = new Map<string, Definition[] | null>();

function originalDefinitions(lang: LanguageId | 'sql', code: string): Definition[] | null {
  if (lang === 'sql') return sqlDefinitions(code);
  const key = `${lang}\0${code}`;
  const hit = originalCache.get(key);
  if (hit !== undefined) {
    originalCache.delete(key);
    originalCache.set(key, hit);
    return hit;
  }
  const parsed = parseWith(lang, code);
  const defs = !parsed || parsed.hasError ? null : parsed.defs;
  originalCache.set(key, defs);
  if (originalCache.size > ORIGINAL_CACHE_SIZE) originalCache.delete(originalCache.keys().next().value!);
  return defs;
}

function childrenOf(defs: Definition[], k: number): number[] {
  const out: number[] = [];
  for (let c = k + 1; c < defs.length; c++) if (defs[c]!.parent === k) out.push(c);
  return out;
}

/** Innermost container definition holding row `r`; -1 for top level. */
function containerAt(defs: Definition[], r: number): number {
  let best = -1;
  for (let k = 0; k < defs.length; k++) {
    const d = defs[k]!;
    if (d.start < r && r <= d.end && CONTAINERS.has(kindGroup(d.kind))) best = k;
  }
  return best;
}

/** Unique, non-weak original rows for the update lines near a definition (outside it): where the update says it lives. */
function contextRows(
  segs: SegDefs[], k: number, def: Definition, index: Map<string, number[]>,
): number[] {
  const rows: number[] = [];
  const look = (s: number, i: number): void => {
    const L = segs[s]!.lines;
    if (L.weak[i]) return;
    const pos = index.get(L.norm[i]!);
    if (pos && pos.length === 1) rows.push(pos[0]!);
  };
  const seg = segs[k]!;
  let taken = 0;
  for (let i = def.start - 1; i >= 0 && taken < 3; i--) if (!seg.lines.blank[i]) { look(k, i); taken++; }
  for (let s = k - 1; s >= 0 && taken < 3; s--) for (let i = segs[s]!.lines.text.length - 1; i >= 0 && taken < 3; i--) if (!segs[s]!.lines.blank[i]) { look(s, i); taken++; }
  taken = 0;
  for (let i = def.end + 1; i < seg.lines.text.length && taken < 3; i++) if (!seg.lines.blank[i]) { look(k, i); taken++; }
  for (let s = k + 1; s < segs.length && taken < 3; s++) for (let i = 0; i < segs[s]!.lines.text.length && taken < 3; i++) if (!segs[s]!.lines.blank[i]) { look(s, i); taken++; }
  return rows;
}

/** Re-indents the update's lines of a definition to the original definition's indentation (and tabs). */
function reindent(lines: string[], origHeader: string, origTabs: boolean): string[] {
  const want = /^[ \t]*/.exec(origHeader)![0];
  const have = /^[ \t]*/.exec(lines[0] ?? '')![0];
  let unit = 0;
  if (origTabs && !have.includes('\t')) {
    for (const l of lines) {
      if (l.trim() === '' || !l.startsWith(have)) continue;
      const extra = /^ */.exec(l.slice(have.length))![0].length;
      if (extra > 0 && (unit === 0 || extra < unit)) unit = extra;
    }
  }
  return lines.map((l) => {
    if (l.trim() === '') return '';
    let rest = l.startsWith(have) ? l.slice(have.length) : l.trimStart();
    if (unit > 0) {
      const sp = /^ */.exec(rest)![0].length;
      rest = '\t'.repeat(Math.floor(sp / unit)) + ' '.repeat(sp % unit) + rest.slice(sp);
    }
    return want + rest;
  });
}

function sameText(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.trim() !== b[i]!.trim()) return false;
  return true;
}

/**
 * Runs the syntax pass when a grammar for the code is loaded and the original parses without
 * error; null otherwise (the merge then aligns lines only) or when no definition matched.
 */
export function syntaxPass(code: string, update: string): SyntaxPass | null {
  if (!SYNTAX_ENABLED) return null;
  const t0 = performance.now();
  const source = code.startsWith('\uFEFF') ? code.slice(1) : code;
  const orig = splitLines(code);
  const split = splitUpdate(update, orig, code);
  if (split.segments.length === 0) return null;
  for (const lang of detectLanguages(source)) {
    if (lang !== 'sql' && !loadedParser(lang)) continue;
    if (orig.text.length > (MAX_LINES[lang] ?? DEFAULT_MAX_LINES)) continue;
    const segs: SegDefs[] = split.segments.map((s) => ({ lines: s.lines, defs: segmentDefinitions(lang, s.lines) }));
    // Nothing in the update reads as a definition: no need to parse the original.
    // Only definitions whose name the original mentions can match one there.
    if (!segs.some((s) => s.defs.some((d) => d.clean && d.wholeLines && source.includes(d.name.slice(d.name.lastIndexOf(' ') + 1).replace(/^[\w$]*\./, ''))))) continue;
    const odefs = originalDefinitions(lang, source);
    if (!odefs) continue;
    const result = swapDefinitions(lang, orig, odefs, segs);
    if (!result) return null;
    return { ...result, language: lang, parseMs: performance.now() - t0 };
  }
  return null;
}

function swapDefinitions(lang: LanguageId | 'sql', orig: Lines, odefs: Definition[], segs: SegDefs[]): Omit<SyntaxPass, 'language' | 'parseMs'> | null {
  const index = buildIndex(orig);
  const used = new Uint8Array(orig.text.length);
  const swaps: Array<Swap & { lines: string[] }> = [];
  let coveredAll = true;
  const overloads = lang === 'java' || lang === 'csharp' || lang === 'kotlin' || lang === 'swift' || lang === 'cpp' || lang === 'typescript' || lang === 'tsx';

  /** Matches update definition `u` (segment `k`) inside original container `within` (undefined: anywhere). Returns true when its lines are accounted for. */
  const place = (k: number, u: number, within: number | undefined): boolean => {
    const sd = segs[k]!.defs;
    const ud = sd[u]!;
    if (!ud.clean || !ud.wholeLines) return false;
    const group = kindGroup(ud.kind);
    let cands: number[] = [];
    for (let o = 0; o < odefs.length; o++) {
      const od = odefs[o]!;
      if (od.name !== ud.name || kindGroup(od.kind) !== group || !od.wholeLines) continue;
      if (within !== undefined && od.parent !== within) continue;
      cands.push(o);
    }
    if (cands.length === 0) return false;
    if (within === undefined && cands.length > 0) {
      const rows = contextRows(segs, k, ud, index);
      if (rows.length > 0) {
        // The class whose members surround the definition in the update.
        const holders = rows.map((r) => containerAt(odefs, r));
        const score = (o: number): number => rows.filter((r, x) => holders[x] === odefs[o]!.parent || (odefs[o]!.start <= r && r <= odefs[o]!.end)).length;
        const best = Math.max(...cands.map(score));
        if (best === 0) return false;
        cands = cands.filter((o) => score(o) === best);
      } else if (cands.length > 1) {
        // No context: a definition at the update's top level means the original's top-level one.
        const top = cands.filter((o) => odefs[o]!.parent === -1);
        if (top.length === 1) cands = top;
      }
    }
    if (cands.length > 1 && overloads) {
      const same = cands.filter((o) => odefs[o]!.header === ud.header);
      if (same.length >= 1) cands = same.slice(0, 1);
    }
    if (cands.length !== 1) return false;
    const o = cands[0]!;
    const od = odefs[o]!;
    const uLines = segs[k]!.lines.text.slice(ud.start, ud.end + 1);
    const oLines = orig.text.slice(od.start, od.end + 1);
    // The whole definition is shown only when every member the original has is shown too.
    const oKids = childrenOf(odefs, o);
    const uKids = childrenOf(sd, u);
    const complete = oKids.every((c) => uKids.some((x) => sd[x]!.name === odefs[c]!.name && kindGroup(sd[x]!.kind) === kindGroup(odefs[c]!.kind)));
    if (!complete) {
      // Swap the members it shows, inside this definition; its own head and tail stay for the line merge.
      for (const x of uKids) place(k, x, o);
      return false;
    }
    if (sameText(uLines, oLines)) return true;
    for (let r = od.start; r <= od.end; r++) if (used[r]) return false;
    for (let r = od.start; r <= od.end; r++) used[r] = 1;
    swaps.push({ kind: od.kind, name: od.name, start: od.start, end: od.end, lines: reindent(uLines, orig.text[od.start]!, orig.usesTabs) });
    return true;
  };

  for (let k = 0; k < segs.length; k++) {
    const { defs, lines } = segs[k]!;
    const covered = new Uint8Array(lines.text.length);
    for (let u = 0; u < defs.length; u++) {
      if (defs[u]!.parent !== -1) continue;
      if (place(k, u, undefined)) for (let r = defs[u]!.start; r <= defs[u]!.end; r++) covered[r] = 1;
    }
    for (let i = 0; i < lines.text.length; i++) if (!lines.blank[i] && !covered[i]) coveredAll = false;
  }
  if (swaps.length === 0) return null;
  swaps.sort((a, b) => a.start - b.start);
  const out: Array<{ text: string; eol: string | null }> = [];
  let r = 0;
  for (const s of swaps) {
    for (; r < s.start; r++) out.push({ text: orig.text[r]!, eol: orig.eol[r] || null });
    for (const t of s.lines) out.push({ text: t, eol: null });
    r = s.end + 1;
  }
  for (; r < orig.text.length; r++) out.push({ text: orig.text[r]!, eol: orig.eol[r] || null });
  return {
    code: render(out, orig.dominantEol, orig.finalNewline),
    swaps: swaps.map(({ lines: _l, ...s }) => s),
    covers: coveredAll,
  };
}
