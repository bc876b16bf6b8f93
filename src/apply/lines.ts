// Line model shared by both merge algorithms: each line's text without its terminator, its own
// terminator (so CRLF, LF and a missing final newline survive the merge), a normalised form used for
// matching, indentation in columns, and how much a match on it is worth as an anchor.

import { widenedCondition } from './sql-conditions.js';

/** Columns a tab counts for when comparing indentation. */
export const TAB_WIDTH = 4;

/** A line that only closes blocks: brackets, `end`, `fi`/`done`/`esac`, closing tags. */
export const CLOSER_LINE = /^(?:[)}\]][)}\];,]*|end\b.*|fi|done|esac|END\b.*|(?:<\/[\w.:-]+>\s*)+)$/;

export interface Lines {
  readonly text: readonly string[];
  /** Each line's own terminator: '\r\n', '\n', or '' for a last line without one. */
  readonly eol: readonly string[];
  /** Trimmed, inner whitespace runs collapsed to one space. */
  readonly norm: readonly string[];
  /** Leading whitespace in columns; 0 for blank lines. */
  readonly indent: readonly number[];
  readonly blank: readonly boolean[];
  /** Lines too common to anchor on alone (braces, `end`, `return`, closing tags...). */
  readonly weak: readonly boolean[];
  /** The terminator most lines use ('\n' when there are none). */
  readonly dominantEol: string;
  /** True when the text ends with a line terminator. */
  readonly finalNewline: boolean;
  /** Indentation style of the text: tabs when most indented lines start with a tab. */
  readonly usesTabs: boolean;
}

const WEAK_WORDS = new Set([
  'end', 'else', 'else:', 'fi', 'done', 'esac', 'then', 'do', 'begin', 'try', 'try:', 'try {', 'finally:',
  'finally {', '} else {', '}else{', '} else', 'else {', 'return', 'return;', 'break', 'break;', 'continue',
  'continue;', 'pass', 'return nil', 'return null;', 'return None', 'return err', 'return false;',
  'return true;', 'return false', 'return true', 'return 0;', 'return self', 'return result;', 'return result',
  'end if', 'end loop;', 'end;', 'default:', '} catch {', '});', ')', ');', '))', ']', '];', '},', '],',
  '</div>', '</li>', '</ul>', '</p>', '</span>', '</section>', '</template>', '<div>', '<li>', '<ul>', '"""',
  "'''", '---', '```', 'else if', 'in', 'BEGIN', 'END', 'END;', 'GO', 'go', '{', '}', 'where', 'let', 'of',
]);

const PUNCT_ONLY = /^[\s{}()[\];,.:<>/\\|&*+\-=!?'"`#@~^%$]*$/;

export function normalize(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}

/** Characters of leading whitespace (a tab counts one; indentColumns expands tabs). */
/** The nearest non-blank row from x (exclusive) in direction dir, or -1. */
export function solidRow(l: Lines, x: number, dir: 1 | -1): number {
  for (let y = x + dir; y >= 0 && y < l.text.length; y += dir) if (!l.blank[y]) return y;
  return -1;
}

/** How many items `a` and `b` share at their start, and then at their end (the two runs do not overlap). */
export function sharedEnds<T>(a: ArrayLike<T>, b: ArrayLike<T>): [pre: number, suf: number] {
  const n = Math.min(a.length, b.length);
  let pre = 0;
  while (pre < n && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < n - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  return [pre, suf];
}

/** The nearest row from x (exclusive) in direction dir that is neither blank nor weak, or -1. */
export function strongRow(l: Lines, x: number, dir: 1 | -1): number {
  for (let y = x + dir; y >= 0 && y < l.text.length; y += dir) if (!l.blank[y] && !l.weak[y]) return y;
  return -1;
}

/** Lines that continue the expression of the line before them (`?? throw`, `.then(`, `|| x`). */
export const CONTINUATION_LINE = /^(?:\?\?|\?|:|\.(?!\.)|\+|-(?!-)|\*|\/(?![/*])|&&|\|\||\|>|=>)/;

/** Line h's statement goes on over deeper lines: the next one continues its expression (`self` / `.client`) or h ends in a backslash. */
export function continuedBelow(l: Lines, h: number): boolean {
  let y = h + 1;
  while (y < l.text.length && l.blank[y]) y++;
  return y < l.text.length && l.indent[y]! > l.indent[h]! && (CONTINUATION_LINE.test(l.norm[y]!) || l.norm[h]!.endsWith('\\'));
}

/** End (exclusive) of the indentation block headed by line h (`def f():`, `key:`): deeper lines after it. */
export function indentBlockEnd(l: Lines, h: number): number {
  let end = h + 1;
  for (let j = h + 1; j < l.text.length; j++) {
    if (l.blank[j]) continue;
    if (l.indent[j]! <= l.indent[h]!) break;
    end = j + 1;
  }
  return end;
}

/** Leading whitespace for `cols` columns: tabs of TAB_WIDTH (then spaces) in a tab-indented file, else spaces. */
export function indentText(cols: number, tabs: boolean): string {
  if (cols <= 0) return '';
  return tabs ? '\t'.repeat(Math.floor(cols / TAB_WIDTH)) + ' '.repeat(cols % TAB_WIDTH) : ' '.repeat(cols);
}

export function indentLength(line: string): number {
  return line.length - line.trimStart().length;
}

export function indentColumns(line: string): number {
  let cols = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 32) cols += 1;
    else if (c === 9) cols += TAB_WIDTH - (cols % TAB_WIDTH);
    else break;
  }
  return cols;
}

/**
 * A line that is one closing tag (`</template>`, `</xsl:template>`, a fragment's `</>`), its name
 * captured: weak, it says little on its own, and its block has no bracket to count.
 */
export const CLOSING_TAG_LINE = /^<\/([\w.:-]*)>$/;

export function isWeak(norm: string): boolean {
  if (norm.length <= 3) return true;
  if (PUNCT_ONLY.test(norm)) return true;
  if (WEAK_WORDS.has(norm)) return true;
  return CLOSING_TAG_LINE.test(norm) || TEMPLATE_BLOCK_CLOSER.test(norm) || CMAKE_BLOCK_CLOSER.test(norm);
}

/**
 * A CMake block command's closer (`endif()`, `endforeach()`): CMake's `fi` or `end`, one per block, so
 * as common as the blocks and no anchor on its own (a new `if(…)` block's `endif()` is not the file's last).
 */
const CMAKE_BLOCK_CLOSER = /^end(?:if|foreach|function|macro|while|block)\s*\([^()]*\)$/i;

/** A template block's closer: Handlebars / Mustache `{{/if}}` — as common as `</div>`. (Svelte's `{/if}` stays strong: made weak, it moved two Svelte cases, one each way.) */
const TEMPLATE_BLOCK_CLOSER = /^\{\{\/[\w-]+\}\}$/;

/**
 * `compute` made once per text: a merge asks about one original in many passes, each with its own
 * `Lines` object, but the splits of one text share their rows (splitLines), so the result is kept
 * by the rows. `compute` reads only the split's arrays.
 */
export function perText<T>(compute: (l: Lines) => T): (l: Lines) => T {
  const results = new WeakMap<readonly string[], T>();
  return (l) => {
    if (results.has(l.norm)) return results.get(l.norm)!;
    const result = compute(l);
    results.set(l.norm, result);
    return result;
  };
}

/**
 * How many rows of `l` hold each normalised line, read through `key` (loss.ts drops a BOM). Blank
 * rows count under '' unless `solidOnly`, which leaves them out.
 */
export function lineCounts(l: Lines, { solidOnly = false, key = (norm: string) => norm }: { solidOnly?: boolean; key?: (norm: string) => string } = {}): Map<string, number> {
  const counts = new Map<string, number>();
  for (let y = 0; y < l.text.length; y++) {
    if (solidOnly && l.blank[y]) continue;
    const k = key(l.norm[y]!);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** Rows [a, b) of `l` as Lines of their own (a hunk cut out of a segment). */
export function sliceLines(l: Lines, a: number, b: number): Lines {
  return { ...l, text: l.text.slice(a, b), eol: l.eol.slice(a, b), norm: l.norm.slice(a, b), indent: l.indent.slice(a, b), blank: l.blank.slice(a, b), weak: l.weak.slice(a, b) };
}

/** Texts split lately, newest first: a merge splits its original, its update and each stage of its
 *  output in a dozen passes (placement, closers, comments, the loss check, the reports), and a split
 *  of a 10,000-line file costs more than the pass that asks for it. Callers only read a split's
 *  arrays (readonly), so the passes share them; each call still gets its own Lines object, as some
 *  passes tell their splits apart by identity (two segments of the same text are two segments). */
const recentSplits: Array<{ source: string; lines: Lines }> = [];
const RECENT_SPLITS = 8;

export function splitLines(source: string): Lines {
  const at = recentSplits.findIndex((s) => s.source === source);
  if (at >= 0) {
    const hit = recentSplits[at]!;
    if (at > 0) {
      recentSplits.splice(at, 1);
      recentSplits.unshift(hit);
    }
    return { ...hit.lines };
  }
  const lines = split(source);
  recentSplits.unshift({ source, lines });
  if (recentSplits.length > RECENT_SPLITS) recentSplits.pop();
  return { ...lines };
}

function split(source: string): Lines {
  const raw = source === '' ? [] : source.split('\n');
  const finalNewline = source.endsWith('\n');
  if (finalNewline) raw.pop();
  const text: string[] = [];
  const eol: string[] = [];
  let crlf = 0;
  let lf = 0;
  for (let i = 0; i < raw.length; i++) {
    let line = raw[i]!;
    const terminated = i < raw.length - 1 || finalNewline;
    let term = '';
    if (terminated) {
      if (line.endsWith('\r')) {
        line = line.slice(0, -1);
        term = '\r\n';
        crlf++;
      } else {
        term = '\n';
        lf++;
      }
    } else if (line.endsWith('\r')) {
      line = line.slice(0, -1);
    }
    text.push(line);
    eol.push(term);
  }
  const n = text.length;
  const norm = new Array<string>(n);
  const indent = new Array<number>(n);
  const blank = new Array<boolean>(n);
  const weak = new Array<boolean>(n);
  let tabbed = 0;
  let spaced = 0;
  for (let i = 0; i < n; i++) {
    const t = text[i]!;
    const nm = normalize(t);
    norm[i] = nm;
    blank[i] = nm.length === 0;
    indent[i] = blank[i] ? 0 : indentColumns(t);
    weak[i] = blank[i] || isWeak(nm);
    if (!blank[i]) {
      const c = t.charCodeAt(0);
      if (c === 9) tabbed++;
      else if (c === 32) spaced++;
    }
  }
  return {
    text, eol, norm, indent, blank, weak,
    dominantEol: crlf > lf ? '\r\n' : '\n',
    finalNewline,
    usesTabs: tabbed > spaced,
  };
}

/** Exact comparison text of a line: trailing space and a byte-order mark dropped, indentation kept. */
export function exactText(t: string): string {
  return (t.charCodeAt(0) === 0xfeff ? t.slice(1) : t).trimEnd();
}

/** Each line's exact comparison text (exactText). */
export function exactRows(l: Lines): string[] {
  return l.text.map(exactText);
}

/** Word-ish tokens used by the "same line, edited" test. */
export function tokens(norm: string): string[] {
  return norm.match(/[A-Za-z_$][\w$]*|\d+|\S/g) ?? [];
}

/** Key of a `key: value` / `key = value` line, or null. */
export function assignmentKey(norm: string): string | null {
  // A leading comma (`, cfgTimeout = 30` in a Haskell/Elm record, comma-first JS) separates, it is not the key.
  // A quoted key is whole whatever it holds (`"@typescript-eslint/no-unused-vars": …`, `"Content Type": …`).
  const m = /^(?:,\s*)?("[^"]+"|'[^']+'|[\w$."'@-]+(?:\s[\w$."'@-]+){0,2})\s*[:=](?!=)/.exec(norm);
  return m ? m[1]! : null;
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

export function dice(a: string, b: string): number {
  if (a.length < 2 || b.length < 2) return 0;
  const ga = bigrams(a);
  let common = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const g = b.slice(i, i + 2);
    const c = ga.get(g);
    if (c) {
      common++;
      ga.set(g, c - 1);
    }
  }
  return (2 * common) / (a.length - 1 + b.length - 1);
}

/** True when `b` reads as an edited version of `a` (same statement, changed value or arguments). */
export function similarLines(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < 4 || b.length < 4) return false;
  const ka = assignmentKey(a);
  const kb = assignmentKey(b);
  if (ka !== null || kb !== null) {
    if (ka !== kb) return false;
    return dice(a, b) >= 0.4;
  }
  const d = dice(a, b);
  if (d >= 0.8) return true;
  const ta = tokens(a);
  const tb = tokens(b);
  const lead = Math.min(3, ta.length, tb.length);
  if (lead < 2) return false;
  for (let i = 0; i < lead; i++) if (ta[i] !== tb[i]) return false;
  return d >= 0.6;
}

/** Bigram similarity at which a line with the same first token counts as the edited original. */
export const ANCHOR_DICE = 0.6;

export function firstToken(norm: string): string {
  return /^[A-Za-z_$][\w$]*|^\S/.exec(norm)?.[0] ?? '';
}

/** `b` is an edit of `a`: similar by the strict test, or same leading word and close enough text. */
export function editedVersion(a: string, b: string): boolean {
  if (similarLines(a, b)) return true;
  // A SQL condition widened to a list (`= 'paid'` → `IN ('paid', 'shipped')`): no key of its own (sql-conditions.ts).
  if (widenedCondition(a, b)) return true;
  // Extended or trimmed at the end (`return x;` → `return x; // why`), at least 6 characters kept.
  const short = a.length <= b.length ? a : b;
  const long = a.length <= b.length ? b : a;
  if (short.length >= 6 && long.startsWith(short.replace(/[;,]$/, ''))) return true;
  // A block header's condition extended (`if not account:` → `if not account or skip(account):`).
  if (short.length >= 6 && /\s*[:{]$/.test(short) && /[:{]$/.test(long) && long.startsWith(`${short.replace(/\s*[:{]$/, '')} `)) return true;
  if (assignmentKey(a) !== null || assignmentKey(b) !== null) return false;
  return firstToken(a) === firstToken(b) && dice(a, b) >= ANCHOR_DICE;
}

/** Leading tokens two lines must share to be one statement edited (`if (!v) return` → `if (!v) throw`). */
const SHARED_LEAD_TOKENS = 5;

export function sameStatementEdited(a: string, b: string): boolean {
  const ta = tokens(a);
  const tb = tokens(b);
  let k = 0;
  while (k < ta.length && k < tb.length && ta[k] === tb[k]) k++;
  return k >= SHARED_LEAD_TOKENS;
}

/**
 * Same tokens but one (`super()` → `superNext()`, `test:` → `testRenamed:`): a rename in place.
 * One name renamed at each of its places on the line counts as one (`tmp = max(tmp, x)` →
 * `peak = max(peak, x)`: a local variable renamed with its uses), never two names.
 */
export function renamedInPlace(a: string, b: string): boolean {
  const ta = tokens(a);
  const tb = tokens(b);
  const change = ta.length < 2 ? null : soleTokenChange(ta, tb);
  if (!change) return false;
  const from = ta[change.at]!;
  const to = tb[change.at]!;
  // Several places: one name, renamed everywhere on the line (the old name is not left beside the new one).
  return change.places === 1 || (/^[A-Za-z_$]/.test(from) && !tb.includes(from) && !ta.includes(to));
}

/**
 * Two token lists of one length that differ by one token changed the same way at each place it
 * differs (`tmp` → `peak` at every `tmp`): the first place and how many; null when the lengths
 * differ, nothing differs, or two different changes do.
 */
export function soleTokenChange(ta: readonly string[], tb: readonly string[]): { at: number; places: number } | null {
  if (ta.length !== tb.length) return null;
  let at = -1;
  let places = 0;
  for (let k = 0; k < ta.length; k++) {
    if (ta[k] === tb[k]) continue;
    if (at < 0) at = k;
    else if (ta[k] !== ta[at] || tb[k] !== tb[at]) return null;
    places++;
  }
  return at < 0 ? null : { at, places };
}

/** Lines joined with their own line endings (the dominant one where a line has none), the last one's only with a final newline. */
export function renderLines(out: Array<{ text: string; eol: string | null }>, dominant: string, finalNewline: boolean): string {
  const parts: string[] = new Array(out.length);
  for (let i = 0; i < out.length; i++) {
    const l = out[i]!;
    const last = i === out.length - 1;
    const eol = last ? (finalNewline ? (l.eol ?? dominant) : '') : (l.eol ?? dominant);
    parts[i] = l.text + eol;
  }
  return parts.join('');
}

/**
 * Whether the original or the update holds a run of exact rows (exactRows) in a row: a repeat or a
 * join the merge's output shows is its own making only when neither input has it. Each input is split
 * once, on the first question.
 */
export function heldByInputs(code: string, update: string): (run: readonly string[]) => boolean {
  let original: string[] | null = null;
  let shown: string[] | null = null;
  return (run) => {
    original ??= exactRows(splitLines(code));
    if (runAt(original, run) >= 0) return true;
    shown ??= exactRows(splitLines(update));
    return runAt(shown, run) >= 0;
  };
}

/** Where the run `run` starts in `ps` (consecutive items, compared exactly), from `at` on; -1 when it does not occur. */
export function runAt<T>(ps: readonly T[], run: readonly T[], at = 0): number {
  outer: for (let x = at; x + run.length <= ps.length; x++) {
    for (let y = 0; y < run.length; y++) if (ps[x + y] !== run[y]) continue outer;
    return x;
  }
  return -1;
}

/** A line that opens a block: ends with an opening bracket or `:`, or starts a Ruby/Lua-style definition. */
export function opensBlock(norm: string): boolean {
  return /[{([:]$|\bdo(?:\s*\|[^|]*\|)?$/.test(norm) || /^(?:def|class|module|function|func|fn|sub|proc)\b/.test(norm);
}
