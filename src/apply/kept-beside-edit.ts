// An original line the merge kept right beside a new line that restates it: `if err :=
// p.writer.WriteMessages(ctx, msgs...); err != nil {`, left out behind a marker, kept above the new
// retry loop whose `err := p.writer.WriteMessages(ctx, msgs...)` is that call wrapped. The update
// rewrote the line, or it meant to keep it and call it again; nothing in the lines tells which, so
// the kept line stays (no loss) and the merge says it guessed. A new line restates an original line
// when one holds the other's tokens as they stand (a copied sibling changes a name or a value).
// A new line also restates the kept line right beside it, at one indentation, when both set one
// target (`this.started = Date.now();` kept under `this.started = clock.now();`, a `WHERE status =`
// clause kept under the new one) or both return (`return M` after `return setmetatable(M, …)`): the
// first line is dead beside the second, so the update most likely rewrote it.
import { escapeRe } from './escape-regexp.js';
import { alignLines } from './line-diff.js';
import { assignmentKey, solidRow, splitLines, tokens, type Lines } from './lines.js';

/** Kept original lines looked at on each side of a run of new lines. */
const NEAR_ROWS = 3;
/** Names (keywords left out) the shorter line must hold to restate the other. */
const MIN_SHARED_NAMES = 4;

const NAME = /^[A-Za-z_$][\w$]*$/;

/** Words every statement of a kind uses: two checks of one buffer share them and say nothing more. */
const KEYWORDS = new Set(['if', 'else', 'elif', 'for', 'while', 'return', 'await', 'async', 'const', 'let', 'var', 'new', 'this', 'self', 'not', 'and', 'or', 'in', 'is', 'nil', 'null', 'None', 'true', 'false', 'True', 'False', 'local', 'then', 'end', 'def', 'function', 'func', 'fn']);

/**
 * `b` restates `a`: not the same line, and one line's tokens are a run of the other's (the call without
 * its `if … ; err != nil {`, or the call under an assignment), the shorter naming enough. A copy with
 * another value or one argument fewer (`plan: "free"` dropped, `true` for `false`) is a new sibling.
 */
function restates(a: string, b: string): boolean {
  if (a === b) return false;
  const ta = tokens(a);
  const tb = tokens(b);
  const [short, long] = ta.length <= tb.length ? [ta, tb] : [tb, ta];
  if (names(short).size < MIN_SHARED_NAMES) return false;
  for (let at = 0; at + short.length <= long.length; at++) if (short.every((t, k) => long[at + k] === t)) return true;
  return false;
}

/** `key = value` or `key: value` with a plain operator (not `==`, `=~`, `=>`, `::`, `on:click`). */
const SETS_KEY = /^(?::(?:\s|$)|=(?![=~?>]))/;
/** A key read up to a compound operator (`$html .=`, `total +=`): the line adds to the value. */
const COMPOUND = /[-.+*\/%|&^]$/;
/** A Ruby/Perl statement modifier: `return 0 if done` is one of several guarded returns. */
const MODIFIER = /\s(?:if|unless)\s/;

/**
 * `b` rewrites `a`, the line beside it at one indentation: both return, unguarded, or both set one key
 * (a list item `- name:` is a sibling; a compound `.=`/`+=` or a value that reads the key,
 * `stmt = stmt.where(…)`, builds on it).
 */
function setsSameTarget(a: string, b: string): boolean {
  if (/^return\b/.test(a) && /^return\b/.test(b)) return !MODIFIER.test(a) && !MODIFIER.test(b);
  const key = assignmentKey(a);
  if (key === null || key !== assignmentKey(b) || key.startsWith('-') || COMPOUND.test(key)) return false;
  const use = new RegExp(`(?<![\\w$.])${escapeRe(key)}(?![\\w$])`);
  for (const line of [a, b]) {
    const value = line.slice(line.indexOf(key) + key.length).trimStart();
    if (!SETS_KEY.test(value) || use.test(value.slice(1))) return false;
  }
  return true;
}

function names(ts: string[]): Set<string> {
  return new Set(ts.filter((t) => NAME.test(t) && !KEYWORDS.has(t)));
}

/**
 * Original rows (0-based) kept in `content` beside a new line that restates them, where the update
 * never shows them; empty when there is none.
 */
export function keptBesideEdit(code: string, update: string, content: string): number[] {
  const o = splitLines(code);
  const out = splitLines(content);
  const shown = new Set(splitLines(update).norm);
  const inOriginal = new Set(o.norm);
  const from = new Int32Array(out.text.length).fill(-1);
  for (const [j, k] of alignLines(o.norm, out.norm)) from[k] = j;
  const found = new Set<number>();
  for (let k = 0; k < out.text.length; k++) {
    if (from[k]! >= 0 || out.blank[k] || out.weak[k]) continue;
    for (const j of nearKept(out, from, k)) if (!shown.has(o.norm[j]!) && restates(o.norm[j]!, out.norm[k]!)) found.add(j);
    if (inOriginal.has(out.norm[k]!)) continue;
    for (const y of [solidRow(out, k, -1), solidRow(out, k, 1)]) {
      const j = y >= 0 && y < out.text.length ? from[y]! : -1;
      if (j >= 0 && !shown.has(o.norm[j]!) && out.indent[y] === out.indent[k] && setsSameTarget(o.norm[j]!, out.norm[k]!)) found.add(j);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** The original rows of the first NEAR_ROWS solid kept lines above and below the run of new lines holding row k. */
function nearKept(out: Lines, from: Int32Array, k: number): number[] {
  const rows: number[] = [];
  for (const dir of [-1, 1] as const) {
    let y = k;
    while (y >= 0 && y < out.text.length && from[y]! < 0) y += dir;
    for (let n = 0; y >= 0 && y < out.text.length && n < NEAR_ROWS; y += dir) {
      if (out.blank[y]) continue;
      if (from[y]! >= 0) rows.push(from[y]!);
      n++;
    }
  }
  return rows;
}
