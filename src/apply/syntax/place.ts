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
import { buildIndex, splitUpdate, type Segment } from '../merge-context.js';
import { indentColumns, normalize, renderLines, similarLines, splitLines, type Lines } from '../lines.js';
import { kindGroup, extractDefinitions, MEMBER_WRAPPER, parsePrefix, type Definition } from './definitions.js';
import { detectLanguages } from './detect.js';
import { loadedParser, type LanguageId } from './grammars.js';
import { sqlDefinitions } from './sql.js';
import { swapStart } from './kept-decorators.js';
import { SIBLING_TWIN_SHARE, strictBest, twinByContent, twinScores } from './twin-content.js';
import { showsHeadAcross, underOtherHeadAcross } from '../foreign-head.js';
import { ownerRow } from '../line-identity.js';
import { withoutByteOrderMark } from '../byte-order-mark.js';

export interface Swap {
  kind: string;
  name: string;
  /** Original rows [start, end] (inclusive) that were replaced; end = start - 1 for a new definition inserted before row `start`. */
  start: number;
  end: number;
  /** A new definition (no original of that name) placed next to a swapped or unchanged neighbour. */
  inserted?: boolean;
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
 * (re-measured: Kotlin 5,000 / 10,000 lines took 6.8x / 21x the time of 2,000 lines in this grammar,
 * Swift 2,000 / 5,000 lines 2.6x / 12x that of 1,000, on a loaded machine). YAML's old 1,000-line
 * limit came from two CSS evidence regexes in detect.ts that were quadratic on YAML; fixed there.
 */
const DEFAULT_MAX_LINES = 20_000;
const MAX_LINES: Partial<Record<LanguageId | 'sql', number>> = { kotlin: 2_000, swift: 1_000 };
/** The most lines of a file the syntax-aware parts of the merge parse in this grammar. */
export const syntaxLineLimit = (lang: LanguageId | 'sql'): number => MAX_LINES[lang] ?? DEFAULT_MAX_LINES;

/** SVC_APPLY_SYNTAX=0 turns the syntax pass off (line alignment only): the "before" of the rates in docs/apply.md. */
const SYNTAX_ENABLED = process.env.SVC_APPLY_SYNTAX !== '0';

interface SegDefs {
  defs: Definition[];
  /** Update lines of this segment (as sent, not dedented). */
  lines: Lines;
  /** A marker follows the segment. */
  markerAfter: boolean;
  /**
   * The update has no marker at all: a snippet whose end does not say where the definition ends
   * (a head and the first body lines of a function, shown to fix its signature), so `cutShort`
   * applies as before a marker.
   */
  markerless?: boolean;
}

/** Update lines between `a` and `b` (exclusive) that are neither blank nor in the original: new text that may travel with a new definition. */
function onlyNewBetween(lines: Lines, a: number, b: number, index: Map<string, number[]>): boolean {
  for (let i = a; i < b; i++) if (!lines.blank[i] && index.has(lines.norm[i]!)) return false;
  return true;
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
function commonIndent(lines: readonly string[]): string {
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

/**
 * A segment's definitions: parsed as is (dedented), or inside a class shell when its members need
 * one. A definition cut off by the marker that ends the segment is not complete, although it may
 * parse: one that the shell's closing brace closed, or one that runs to the segment's end with the
 * marker indented deeper than its header (a Python body that goes on past the marker).
 */
function segmentDefinitions(lang: LanguageId | 'sql', seg: Segment): Definition[] {
  const defs = parsedDefinitions(lang, seg.lines);
  const lines = seg.lines;
  let last = lines.text.length - 1;
  while (last >= 0 && lines.blank[last]) last--;
  return defs.map((d) => {
    const atEnd = d.end >= last && seg.markerAfter;
    const cut = d.end >= lines.text.length ||
      (atEnd && seg.markerAfterIndent !== null && seg.markerAfterIndent > indentColumns(lines.text[d.start]!)) ||
      // Its last line opens a block the marker stands for (`def f(x):` with the body left out), or
      // one the update stops in (`sample:` ending a snippet with no marker): no body is shown.
      (d.end >= last && OPENS_BLOCK.test(lines.text[d.end]!));
    return cut ? { ...d, clean: false } : d;
  });
}

const OPENS_BLOCK = /(?:[:{([=]|=>|\bdo(?:\s*\|[^|]*\|)?|\bthen|\bbegin)\s*$/;

function parsedDefinitions(lang: LanguageId | 'sql', lines: Lines): Definition[] {
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
      // Error recovery can fold the shell's opening line into a member (a snippet that opens with
      // `} else {` parsed as a function named `else` from the shell's first line): no reading.
      // A member that runs into the shell's closing line is an unclosed one (segmentDefinitions cuts it).
      const inside = defs.every((d) => d.start >= 0);
      if (inside && (coveredRows(defs) > coveredRows(best) || (plain.hasError && !wrapped.hasError && coveredRows(defs) === coveredRows(best)))) best = defs;
    }
  }
  return best;
}

function coveredRows(defs: Definition[]): number {
  let n = 0;
  for (const d of defs) if (d.parent === -1 && d.clean && d.wholeLines) n += d.end - d.start + 1;
  return n;
}

/**
 * A definition the segment ends with, before a marker, whose last line is a line from inside the
 * original's (not its last), or an edit of one: the update most likely shows its start and leaves
 * the rest to the marker (a Python body cut at `return 0` with `# ...` at column 0), whatever the
 * parse says.
 * Closing lines (`}`, `end`) say nothing: most blocks end that way.
 */
function cutShort(seg: SegDefs, ud: Definition, od: Definition, o: Lines): boolean {
  const L = seg.lines;
  let last = L.text.length - 1;
  while (last >= 0 && L.blank[last]) last--;
  if (!(seg.markerAfter || seg.markerless) || ud.end < last) return false;
  const tail = L.text[ud.end]!.trim();
  if (CLOSING.test(tail)) return false;
  let oLast = od.end;
  while (oLast > od.start && o.blank[oLast]) oLast--;
  const norm = normalize(tail);
  if (o.norm[oLast] === norm || similarLines(o.norm[oLast]!, norm)) return false;
  // The same line, or an edit of it (`return 0` → `return None`).
  for (let r = od.start + 1; r < oLast; r++) if (!o.blank[r] && (o.norm[r] === norm || similarLines(o.norm[r]!, norm))) return true;
  return false;
}

/**
 * The segment goes on, right after the update's definition, with a line from inside the original's
 * (not its last): the update's definition ended early (an edit that closed an expression) and the
 * original's body continues below it.
 */
function goesOn(seg: SegDefs, ud: Definition, od: Definition, o: Lines): boolean {
  const L = seg.lines;
  let i = ud.end + 1;
  while (i < L.text.length && L.blank[i]) i++;
  if (i >= L.text.length || L.weak[i]) return false;
  let oLast = od.end;
  while (oLast > od.start && o.blank[oLast]) oLast--;
  for (let r = od.start + 1; r < oLast; r++) if (o.norm[r] === L.norm[i]) return true;
  return false;
}

const CLOSING = /^(?:[)}\];,\s]*|end\b.*|fi|esac|done|END;?)$/;

/** Recent originals' definitions: the same file is often edited again (and `auto` may merge twice). */
const ORIGINAL_CACHE_SIZE = 8;
const originalCache = new Map<string, Definition[] | null>();

/** The grammar reads the original (BOM taken off) with no error node: the same parse, cached, as the pass's. */
export function readsCleanly(lang: LanguageId, source: string): boolean {
  return originalDefinitions(lang, source) !== null;
}

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

/**
 * Unique, non-weak original rows for the update lines around a definition (outside it): where the
 * update says it lives. `near` lines are in its own segment (nothing left out between them and the
 * definition, so they share its container); lines beyond a marker only say what comes before
 * (`before`) or after (`after`) it.
 */
function contextRows(
  segs: SegDefs[], k: number, def: Definition, index: Map<string, number[]>,
): { near: number[]; before: number[]; after: number[]; opens: Set<number> } {
  const near: number[] = [], before: number[] = [], after: number[] = [];
  /** Near rows shown above the definition and less indented: a container's head it sits in. */
  const opens = new Set<number>();
  const look = (s: number, i: number, into: number[]): void => {
    const L = segs[s]!.lines;
    if (L.weak[i]) return;
    const pos = index.get(L.norm[i]!);
    if (pos && pos.length === 1) into.push(pos[0]!);
  };
  const seg = segs[k]!;
  const col = seg.lines.indent[def.start]!;
  let taken = 0;
  for (let i = def.start - 1; i >= 0 && taken < 3; i--) if (!seg.lines.blank[i]) {
    const n = near.length;
    look(k, i, near);
    if (near.length > n && seg.lines.indent[i]! < col) opens.add(near[near.length - 1]!);
    taken++;
  }
  for (let s = k - 1; s >= 0 && taken < 3; s--) for (let i = segs[s]!.lines.text.length - 1; i >= 0 && taken < 3; i--) if (!segs[s]!.lines.blank[i]) { look(s, i, before); taken++; }
  taken = 0;
  for (let i = def.end + 1; i < seg.lines.text.length && taken < 3; i++) if (!seg.lines.blank[i]) { look(k, i, near); taken++; }
  for (let s = k + 1; s < segs.length && taken < 3; s++) for (let i = 0; i < segs[s]!.lines.text.length && taken < 3; i++) if (!segs[s]!.lines.blank[i]) { look(s, i, after); taken++; }
  return { near, before, after, opens };
}

/**
 * The update shows `ud` under a head the original does not have (its owner row in the segment,
 * line-identity.ts, is new text: a new list item, class or block): it belongs to that new block, and
 * a same-named original elsewhere is not the one it edits (a new CI step's `run:` is not the
 * previous step's `run:`).
 */
function underNewHead(seg: SegDefs, ud: Definition, index: Map<string, number[]>): boolean {
  const head = ownerRow(seg.lines, ud.start);
  return head >= 0 && !index.has(seg.lines.norm[head]!);
}

const leading = (line: string): string => /^[ \t]*/.exec(line)![0];

/**
 * A swapped-in definition's lines that equal a replaced original line but for the trailing spaces
 * the snippet dropped (editors and models strip them) take the original's bytes: the update shows
 * those lines unchanged. Matched in order, each original line once.
 */
function keptTrailingSpace(orig: Lines, start: number, end: number, lines: string[]): string[] {
  let from = start;
  return lines.map((t) => {
    if (t.trim() === '' || /[ \t]$/.test(t)) return t;
    for (let r = from; r <= end; r++) {
      const o = orig.text[r]!;
      if (o.length > t.length && o.trimEnd() === t) {
        from = r + 1;
        return o;
      }
    }
    return t;
  });
}

/** Re-indents update lines from the update header's indentation to the original header's (and tabs). */
function reindent(lines: string[], updateHeader: string, origHeader: string, origTabs: boolean): string[] {
  const want = leading(origHeader);
  const have = leading(updateHeader);
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
export function syntaxPass(code: string, update: string, scope: ReadonlySet<string> = new Set()): SyntaxPass | null {
  if (!SYNTAX_ENABLED) return null;
  const t0 = performance.now();
  const { source, orig, languages } = originalView(code);
  const split = splitUpdate(update, orig, code);
  if (split.segments.length === 0) return null;
  for (const lang of languages) {
    if (lang !== 'sql' && !loadedParser(lang)) continue;
    if (orig.text.length > syntaxLineLimit(lang)) continue;
    const segs: SegDefs[] = split.segments.map((s) => ({ lines: s.lines, markerAfter: s.markerAfter, markerless: !split.hasMarkers, defs: segmentDefinitions(lang, s) }));
    // Nothing in the update reads as a definition whose name the original mentions: no need to
    // parse the original. Another candidate grammar is tried only when this one cannot read the
    // original (known from an earlier request); parsing the update in each one cost most of the pass.
    if (!segs.some((s) => s.defs.some((d) => d.clean && d.wholeLines && source.includes(d.name.slice(d.name.lastIndexOf(' ') + 1).replace(/^[\w$]*\./, ''))))) {
      if (originalCache.get(`${lang}\0${source}`) === null) continue;
      return null;
    }
    const odefs = originalDefinitions(lang, source);
    if (!odefs) continue;
    const result = swapDefinitions(lang, orig, odefs, segs, scope, split.segments);
    if (!result) return null;
    return { ...result, language: lang, parseMs: performance.now() - t0 };
  }
  return null;
}

/** What the pass needs of the original, for the last one seen (a file is often merged several times in a row). */
let lastOriginal: { code: string; source: string; orig: Lines; languages: Array<LanguageId | 'sql'> } | null = null;

export function originalView(code: string): NonNullable<typeof lastOriginal> {
  if (lastOriginal?.code === code) return lastOriginal;
  const source = withoutByteOrderMark(code);
  const orig = splitLines(code);
  lastOriginal = { code, source, orig, languages: detectLanguages(source) };
  return lastOriginal;
}

/**
 * The segment is the update's last (no marker after it) and its last line is the original's last
 * line (a twin class's method at the file's end, set j ts03).
 */
function endsFile(seg: SegDefs, orig: Lines): boolean {
  if (seg.markerAfter || seg.markerless) return false;
  const s = seg.lines;
  let a = s.text.length - 1;
  while (a >= 0 && s.blank[a]) a--;
  let b = orig.text.length - 1;
  while (b >= 0 && orig.blank[b]) b--;
  return a >= 0 && b >= 0 && s.norm[a] === orig.norm[b];
}

/** Definition o sits inside a definition whose name the instruction mentions (instruction-scope.ts). */
function withinNamed(odefs: Definition[], o: number, scope: ReadonlySet<string>): boolean {
  for (let p = odefs[o]!.parent; p >= 0; p = odefs[p]!.parent) if (scope.has(odefs[p]!.name)) return true;
  return false;
}

function swapDefinitions(lang: LanguageId | 'sql', orig: Lines, odefs: Definition[], segs: SegDefs[], scope: ReadonlySet<string>, segments: readonly Segment[]): Omit<SyntaxPass, 'language' | 'parseMs'> | null {
  const index = buildIndex(orig);
  const used = new Uint8Array(orig.text.length);
  const swaps: Array<Swap & { lines: string[] }> = [];
  let coveredAll = true;
  const overloads = lang === 'java' || lang === 'csharp' || lang === 'kotlin' || lang === 'swift' || lang === 'cpp' || lang === 'typescript' || lang === 'tsx';

  /** Original definitions of the same name and kind group as `ud` (children of `within` when given). */
  const sameNamed = (ud: Definition, within: number | undefined): number[] => {
    const group = kindGroup(ud.kind);
    const out: number[] = [];
    for (let o = 0; o < odefs.length; o++) {
      const od = odefs[o]!;
      if (od.name !== ud.name || kindGroup(od.kind) !== group || !od.wholeLines) continue;
      if (within !== undefined && od.parent !== within) continue;
      out.push(o);
    }
    return out;
  };
  /**
   * The update shows more definitions of `ud`'s name than the original has anywhere (`originals`), so one of
   * them is new, and another of them leaves its body to a marker (set az java01: `create(…, currency)`
   * with `// ... existing code ...`, then a new `create(…)` delegating to it, which has the old
   * overload's exact head). A body left to "existing code" is an original's, so the complete one may
   * well be the new overload: the name, and even the parameter list, cannot say which, and a swap here
   * would drop the original body the marker keeps. Left to the line merge, which aligns the bodies.
   */
  const addsOverloadBesidePartial = (ud: Definition, originals: number): boolean => {
    const group = kindGroup(ud.kind);
    const shown = segs.flatMap((s) => s.defs.filter((d) => d.name === ud.name && kindGroup(d.kind) === group));
    return shown.length > originals && shown.some((d) => d !== ud && !d.clean);
  };
  /** Original definition o lies after the lines the update shows before `ud`'s hunk and before those shown after it. */
  const inShownOrder = (k: number, ud: Definition, o: number): boolean => {
    const { before, after } = contextRows(segs, k, ud, index);
    return odefs[o]!.start > Math.max(-1, ...before) && odefs[o]!.end < Math.min(orig.text.length, ...after);
  };
  /**
   * The candidate inside the block of the line the segment before `ud`'s ends on, when that line is
   * one the original has once and it, the marker after it and `ud`'s head share one depth (`timeout-
   * minutes: 25`, `# ... services/env unchanged ...`, `steps:`): the marker stands for that line's
   * next siblings, so the head is that block's, not a twin's in a look-alike block further down (one
   * of six CI jobs with one setup preamble). Only while that twin holds nearly as many of the shown
   * lines as any other (SIBLING_TWIN_SHARE; `scores`: twinScores of `cands`); -1 otherwise.
   */
  const besideLastShown = (k: number, ud: Definition, cands: number[], scores: readonly number[]): number => {
    const prev = segs[k - 1];
    if (!prev?.markerAfter || segments[k - 1]?.markerAfterIndent == null) return -1;
    const p = prev.lines;
    let x = p.text.length - 1;
    while (x >= 0 && p.blank[x]) x--;
    const col = indentColumns(segs[k]!.lines.text[ud.start]!);
    if (x < 0 || indentColumns(p.text[x]!) !== col || segments[k - 1]!.markerAfterIndent !== col) return -1;
    // The block is told by the nearest line above at that depth the original has once, or else by
    // the block's own head (`api:` over a service's `env_file: .env` that every service sets).
    let holder = -1;
    for (let y = x; y >= 0 && holder < 0; y--) {
      if (p.blank[y] || indentColumns(p.text[y]!) > col) continue;
      const pos = index.get(p.norm[y]!);
      const once = pos !== undefined && pos.length === 1;
      if (indentColumns(p.text[y]!) < col) {
        if (!once) return -1;
        holder = odefs.findIndex((d) => d.start === pos[0]! && CONTAINERS.has(kindGroup(d.kind)));
        if (holder < 0) return -1;
      } else if (once) holder = containerAt(odefs, pos[0]!);
    }
    const inside = cands.filter((o) => odefs[o]!.parent === holder);
    if (holder < 0 || inside.length !== 1) return -1;
    return scores[cands.indexOf(inside[0]!)]! >= SIBLING_TWIN_SHARE * Math.max(...scores) ? inside[0]! : -1;
  };
  const free = (o: number): boolean => !used[odefs[o]!.start];
  const claim = (o: number): void => { for (let r = odefs[o]!.start; r <= odefs[o]!.end; r++) used[r] = 1; };

  /**
   * Matches update definition `u` (segment `k`) inside original container `within` (undefined:
   * anywhere) and swaps it in when complete. Returns the original definition it stands for, or -1
   * when its lines are not accounted for.
   */
  const place = (k: number, u: number, within: number | undefined, beside?: number): number => {
    const sd = segs[k]!.defs;
    const ud = sd[u]!;
    if (!ud.clean || !ud.wholeLines) return -1;
    if (within === undefined && underNewHead(segs[k]!, ud, index)) return -1;
    // An original definition already matched by another update definition is not a candidate.
    if (addsOverloadBesidePartial(ud, sameNamed(ud, undefined).length)) return -1;
    let cands = sameNamed(ud, within).filter(free);
    if (cands.length === 0) return -1;
    if (beside !== undefined) {
      // Shown right after a member the pass placed in class `beside`: it is that class's, or new there
      // (set p ts03: a method copied from a twin class, which the class before it lacks).
      cands = cands.filter((o) => odefs[o]!.parent === beside);
      if (cands.length === 0) return -1;
    }
    // Shown under a head the original has (across markers indented deeper than it: shown-heads.ts),
    // it is that head's child: same-named originals under other heads are not it, and when one is
    // left the update has said which it is (its other context lines may be copies or new text).
    const headed = cands.filter((o) => !underOtherHeadAcross(orig, index, segments, k, ud.start, odefs[o]!.start));
    if (headed.length === 0) return -1;
    const byHead = headed.length === 1 && showsHeadAcross(orig, index, segments, k, ud.start);
    cands = headed;
    // A definition quoted unchanged is the original of that text, whatever the lines around it name
    // (set p ts03: UserCache's `set`, shown above a method that only its twin TeamCache has).
    const quoted = cands.filter((o) => sameText(segs[k]!.lines.text.slice(ud.start, ud.end + 1), orig.text.slice(odefs[o]!.start, odefs[o]!.end + 1)));
    // Unless the hunks shown before or after it (across markers) put it elsewhere: a method copied
    // from a twin class, with a line of its own class above the marker, is that class's edit.
    const byQuote = quoted.length === 1 && (within !== undefined || byHead || inShownOrder(k, ud, quoted[0]!));
    if (byQuote) cands = quoted;
    let shownWithout = false;
    if (within === undefined && !byQuote && !byHead) {
      const { near: rows, before, after, opens } = contextRows(segs, k, ud, index);
      shownWithout = rows.length === 0;
      if (rows.length > 0) {
        // The class whose members surround the definition in the update (or whose head it is shown under).
        const holders = rows.map((r) => {
          const head = opens.has(r) ? odefs.findIndex((d) => d.start === r && CONTAINERS.has(kindGroup(d.kind))) : -1;
          return head >= 0 ? head : containerAt(odefs, r);
        });
        const score = (o: number): number => rows.filter((r, x) => holders[x] === odefs[o]!.parent || (odefs[o]!.start <= r && r <= odefs[o]!.end)).length;
        const best = Math.max(...cands.map(score));
        if (best === 0) return -1;
        cands = cands.filter((o) => score(o) === best);
      } else if (before.length + after.length > 0) {
        // Shown between other hunks: after the lines shown before it, before those shown after it.
        const lo = Math.max(-1, ...before);
        const hi = Math.min(orig.text.length, ...after);
        cands = cands.filter((o) => odefs[o]!.start > lo && odefs[o]!.end < hi);
      }
      if (cands.length > 1 && rows.length === 0) {
        // No context: the one at the update's indentation; a snippet at column 0 may also be a
        // member re-indented, so there the original's top-level one.
        // A twin whose body holds strictly the most of the shown lines comes first (twin-content.ts):
        // a snippet re-indented for its own sake says less than the lines it keeps.
        const col = indentColumns(segs[k]!.lines.text[ud.start]!);
        const level = cands.filter((o) => indentColumns(orig.text[odefs[o]!.start]!) === col);
        const top = cands.filter((o) => odefs[o]!.parent === -1);
        const scores = twinScores(orig, cands.map((o) => odefs[o]!), segs[k]!.lines.text.slice(ud.start, ud.end + 1));
        const byContent = strictBest(scores);
        const bySibling = besideLastShown(k, ud, cands, scores);
        if (bySibling >= 0) cands = [bySibling];
        else if (byContent >= 0) cands = [cands[byContent]!];
        else if (level.length === 1) cands = level;
        else if (col === 0 && top.length === 1) cands = top;
      }
    }
    // Twins in several definitions: the one inside the definition the instruction (or a location
    // comment, location-comments.ts) names, in every language.
    if (cands.length > 1) {
      const named = cands.filter((o) => withinNamed(odefs, o, scope));
      if (named.length === 1) cands = named;
    }
    if (cands.length > 1 && overloads) {
      // Several with the same header are twins (the same method in two classes): the one inside a
      // definition the instruction names, else the first.
      const same = cands.filter((o) => odefs[o]!.header === ud.header);
      const named = same.filter((o) => withinNamed(odefs, o, scope));
      // A last segment shown with no context and no class around it that ends the file as the
      // original does (no marker after it) edits the last twin.
      const lastTwin = shownWithout && endsFile(segs[k]!, orig) && !segs.some((sg) => sg.defs.some((d) => CONTAINERS.has(kindGroup(d.kind))));
      // Else the twin whose body holds more of the shown lines (twin-content.ts), then the last or the first.
      const byContent = same.length > 1 ? twinByContent(orig, same.map((o) => odefs[o]!), segs[k]!.lines.text.slice(ud.start, ud.end + 1)) : -1;
      if (same.length >= 1) cands = named.length === 1 ? named : byContent >= 0 ? [same[byContent]!] : lastTwin ? same.slice(-1) : same.slice(0, 1);
    }
    if (cands.length !== 1) return -1;
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
      placeSiblings(k, uKids, o, null);
      return -1;
    }
    for (let r = od.start; r <= od.end; r++) if (used[r]) return -1;
    if (cutShort(segs[k]!, ud, od, orig) || goesOn(segs[k]!, ud, od, orig)) return -1;
    claim(o);
    if (!sameText(uLines, oLines)) {
      const start = swapStart(orig, od.start, od.end, uLines[0]!);
      swaps.push({ kind: od.kind, name: od.name, start, end: od.end, lines: reindent(uLines, uLines[0]!, orig.text[start]!, orig.usesTabs) });
    }
    return o;
  };

  /**
   * Sibling update definitions (segment `k`): each matched by name, then runs of new ones (no
   * original of their name left) placed next to a matched neighbour, on the side the update shows
   * them. `covered` marks the segment rows accounted for.
   */
  const placeSiblings = (k: number, list: number[], within: number | undefined, covered: Uint8Array | null): void => {
    const sd = segs[k]!.defs;
    const L = segs[k]!.lines;
    const matched: number[] = [];
    list.forEach((u, x) => {
      // A member right below one already placed inside a class (nothing but new lines between): that class holds it.
      const prev = x > 0 ? matched[x - 1]! : -1;
      const holder = within === undefined && prev >= 0 && onlyNewBetween(L, sd[list[x - 1]!]!.end + 1, sd[u]!.start, index) ? odefs[prev]!.parent : -1;
      matched.push(place(k, u, within, holder >= 0 ? holder : undefined));
    });
    const cover = (a: number, b: number): void => { if (covered) for (let r = a; r <= b; r++) covered[r] = 1; };
    list.forEach((u, x) => { if (matched[x]! >= 0) cover(sd[u]!.start, sd[u]!.end); });
    for (let a = 0; a < list.length; ) {
      if (matched[a]! >= 0) { a++; continue; }
      let b = a;
      while (b + 1 < list.length && matched[b + 1]! < 0) b++;
      const ins = newDefinitions(k, list, matched, a, b, within);
      if (ins) cover(ins.from, ins.to);
      a = b + 1;
    }
  };

  /** Inserts update definitions list[a..b] (all unmatched) next to their matched neighbour; the update rows it took, or null. */
  const newDefinitions = (k: number, list: number[], matched: number[], a: number, b: number, within: number | undefined): { from: number; to: number } | null => {
    const sd = segs[k]!.defs;
    const L = segs[k]!.lines;
    const run = list.slice(a, b + 1).map((u) => sd[u]!);
    const first = run[0]!;
    const last = run[run.length - 1]!;
    for (const ud of run) {
      if (!ud.clean || !ud.wholeLines) return null;
      if (indentColumns(L.text[ud.start]!) !== indentColumns(L.text[first.start]!)) return null;
    }
    for (let x = 0; x + 1 < run.length; x++) if (!onlyNewBetween(L, run[x]!.end + 1, run[x + 1]!.start, index)) return null;
    const prev = a > 0 ? a - 1 : -1;
    const next = b + 1 < list.length ? b + 1 : -1;
    let from: number, to: number, at: number, side: 'after' | 'before', nb: number;
    if (prev >= 0 && onlyNewBetween(L, sd[list[prev]!]!.end + 1, first.start, index)) {
      nb = prev; side = 'after';
      from = sd[list[prev]!]!.end + 1; to = last.end; at = odefs[matched[prev]!]!.end + 1;
    } else if (next >= 0 && onlyNewBetween(L, last.end + 1, sd[list[next]!]!.start, index)) {
      nb = next; side = 'before';
      // New lines directly above the first one (its comment, attributes) go with it.
      const floor = prev >= 0 ? sd[list[prev]!]!.end + 1 : 0;
      from = first.start;
      while (from - 1 >= floor && !L.blank[from - 1] && !index.has(L.norm[from - 1]!)) from--;
      to = sd[list[next]!]!.start - 1; at = odefs[matched[next]!]!.start;
    } else return null;
    const uNb = sd[list[nb]!]!;
    const oNb = odefs[matched[nb]!]!;
    // An original of that name not matched yet beside the neighbour: an edit placement could not
    // settle, not a new definition. One only in another class is a twin's (set p ts03: `invalidate`
    // added to UserCache "like TeamCache has", shown after UserCache's `set`).
    if (run.some((ud) => sameNamed(ud, within).some((o) => free(o) && odefs[o]!.parent === oNb.parent))) return null;
    if (indentColumns(L.text[uNb.start]!) !== indentColumns(L.text[first.start]!)) return null;
    // The original sibling on that side, unmatched, with the body a new definition shows: a rename, left to the line merge.
    const sib = siblingOf(matched[nb]!, side);
    if (sib >= 0 && free(sib) && run.some((ud) => sameBody(odefs[sib]!, ud, L))) return null;
    // Never inside a definition already swapped.
    if (swaps.some((s) => !s.inserted && s.start < at && at <= s.end)) return null;
    swaps.push({
      kind: first.kind, name: run.map((d) => d.name).join(', '), start: at, end: at - 1, inserted: true,
      lines: reindent(L.text.slice(from, to + 1), L.text[uNb.start]!, orig.text[oNb.start]!, orig.usesTabs),
    });
    return { from, to };
  };

  /** The original definition next to `o` under the same parent, after or before it; -1 when none. */
  const siblingOf = (o: number, side: 'after' | 'before'): number => {
    const od = odefs[o]!;
    let best = -1;
    for (let x = 0; x < odefs.length; x++) {
      const d = odefs[x]!;
      if (x === o || d.parent !== od.parent) continue;
      if (side === 'after' && d.start > od.end && (best < 0 || d.start < odefs[best]!.start)) best = x;
      if (side === 'before' && d.end < od.start && (best < 0 || d.end > odefs[best]!.end)) best = x;
    }
    return best;
  };

  /** Most of the update definition's body lines (not its header, not weak) occur in original definition `od`. */
  const sameBody = (od: Definition, ud: Definition, L: Lines): boolean => {
    const have = new Set<string>();
    for (let r = od.start; r <= od.end; r++) if (!orig.weak[r]) have.add(orig.norm[r]!);
    let n = 0, hit = 0;
    for (let i = ud.start + 1; i <= ud.end; i++) {
      if (L.blank[i] || L.weak[i]) continue;
      n++;
      if (have.has(L.norm[i]!)) hit++;
    }
    return n > 0 && hit * 2 >= n;
  };

  for (let k = 0; k < segs.length; k++) {
    const { defs, lines } = segs[k]!;
    const covered = new Uint8Array(lines.text.length);
    const top: number[] = [];
    for (let u = 0; u < defs.length; u++) if (defs[u]!.parent === -1) top.push(u);
    placeSiblings(k, top, undefined, covered);
    for (let i = 0; i < lines.text.length; i++) if (!lines.blank[i] && !covered[i]) coveredAll = false;
  }
  if (swaps.length === 0) return null;
  // A new definition goes before a swap that starts on its row (it was inserted before that row).
  swaps.sort((a, b) => a.start - b.start || (a.inserted ? 0 : 1) - (b.inserted ? 0 : 1));
  const out: Array<{ text: string; eol: string | null }> = [];
  let r = 0;
  for (const s of swaps) {
    for (; r < s.start; r++) out.push({ text: orig.text[r]!, eol: orig.eol[r] || null });
    for (const t of keptTrailingSpace(orig, s.start, s.end, s.lines)) out.push({ text: t, eol: null });
    r = s.end + 1;
  }
  for (; r < orig.text.length; r++) out.push({ text: orig.text[r]!, eol: orig.eol[r] || null });
  return {
    code: renderLines(out, orig.dominantEol, orig.finalNewline),
    swaps: swaps.map(({ lines: _l, ...s }) => s),
    covers: coveredAll,
  };
}
