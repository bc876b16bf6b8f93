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
import { keptRows } from './line-diff.js';
import { assignmentKey, exactText, solidRow, splitLines, tokens, type Lines } from './lines.js';
import { markerLines } from './markers.js';
import { headerOf } from './merge-context.js';

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
export const MODIFIER = /\s(?:if|unless)\s/;

/**
 * `b` rewrites `a`, the line beside it at one indentation: both return, unguarded, or both set one key
 * (a list item `- name:` is a sibling; a compound `.=`/`+=` or a value that reads the key,
 * `stmt = stmt.where(…)`, builds on it).
 */
export function setsSameTarget(a: string, b: string): boolean {
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

/** An original line kept in the output beside a new line that restates it: original row, output row, which reading. */
interface KeptBeside {
  j: number;
  y: number;
  /** The output row of the new line beside it. */
  k: number;
  /** The second reading: both lines set one key or both return, so the kept one is dead. */
  rewritten: boolean;
}

function keptBeside(code: string, update: string, content: string): KeptBeside[] {
  const o = splitLines(code);
  const out = splitLines(content);
  const shown = new Set(splitLines(update).norm);
  // By exact text, indentation kept: a return or assignment the original writes at another depth
  // (`return vim.deepcopy(defaults)` of a helper) is new where it stands (same-target-edit.ts).
  const inOriginal = new Set(o.text.map(exactText));
  const { from, at } = keptRows(o.norm, out.norm);
  const found: KeptBeside[] = [];
  for (let k = 0; k < out.text.length; k++) {
    if (from[k]! >= 0 || out.blank[k] || out.weak[k]) continue;
    for (const j of nearKept(out, from, k)) if (!shown.has(o.norm[j]!) && restates(o.norm[j]!, out.norm[k]!)) found.push({ j, y: at[j]!, k, rewritten: false });
    if (inOriginal.has(exactText(out.text[k]!))) continue;
    for (const y of [solidRow(out, k, -1), solidRow(out, k, 1)]) {
      const j = y >= 0 && y < out.text.length ? from[y]! : -1;
      if (j >= 0 && !shown.has(o.norm[j]!) && out.indent[y] === out.indent[k] && setsSameTarget(o.norm[j]!, out.norm[k]!)) found.push({ j, y, k, rewritten: true });
    }
  }
  return found;
}

/**
 * Original rows (0-based) kept in `content` beside a new line that restates them, where the update
 * never shows them; empty when there is none.
 */
export function keptBesideEdit(code: string, update: string, content: string): number[] {
  return [...new Set(keptBeside(code, update, content).map((f) => f.j))].sort((a, b) => a - b);
}

/**
 * Original lines kept right beside a new line that sets the same key or also returns (the second
 * reading), as [original row, output row] in output order: the update rewrote them there (rule (a)).
 */
export function rewrittenBesideEdit(code: string, update: string, content: string): Array<[number, number]> {
  const rows = new Map<number, number>();
  const found = keptBeside(code, update, content).filter((f) => f.rewritten);
  if (found.length === 0) return [];
  const out = splitLines(content);
  const heads = shownHeads(code, update);
  for (const f of found) if (placedUnderShownHead(out, f.k, heads)) rows.set(f.y, f.j);
  return [...rows].map(([y, j]): [number, number] => [j, y]).sort((a, b) => a[1] - b[1]);
}

/**
 * Each update line (markers left out, by its normalized text) with the header the update shows it
 * under (the nearest shallower line above it, a flat section header for a TOML/INI key), or null
 * where it shows none.
 */
function shownHeads(code: string, update: string): Map<string, Array<string | null>> {
  const u = splitLines(update);
  const marker = markerLines(u.text, splitLines(code).text);
  const solid = splitLines(u.text.filter((_, i) => !marker[i]).join('\n'));
  const heads = new Map<string, Array<string | null>>();
  for (let i = 0; i < solid.text.length; i++) {
    if (solid.blank[i]) continue;
    const h = headerOf(solid, i);
    const list = heads.get(solid.norm[i]!) ?? [];
    list.push(h >= 0 ? solid.norm[h]! : null);
    heads.set(solid.norm[i]!, list);
  }
  return heads;
}

/**
 * The new line at output row k sits where the update put it: under the header the update shows it
 * under, or the update shows it under none. A key the update edits under `[dependencies]`, placed
 * beside the same key of `[dev-dependencies]`, is no rewrite of that line: both stay.
 */
function placedUnderShownHead(out: Lines, k: number, heads: Map<string, Array<string | null>>): boolean {
  const shown = heads.get(out.norm[k]!) ?? [];
  const h = headerOf(out, k);
  const here = h >= 0 ? out.norm[h]! : null;
  return shown.some((head) => head === null || head === here);
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

/**
 * `content` without output rows `rows`; where a dropped line stood between two blank lines, one of
 * them goes too (the new line's blank and the old line's blank stood for one separation).
 */
export function withoutRows(content: string, rows: readonly number[]): string {
  const out = splitLines(content);
  const drop = new Set(rows);
  for (const y of rows) {
    const above = keptRowBeyond(out, drop, y, -1);
    const below = keptRowBeyond(out, drop, y, 1);
    if (above >= 0 && below >= 0 && out.blank[above] && out.blank[below]) drop.add(below);
  }
  let text = '';
  let last = -1;
  for (let k = 0; k < out.text.length; k++) {
    if (drop.has(k)) continue;
    text += out.text[k]! + out.eol[k]!;
    last = k;
  }
  // The file's last line dropped: the line now last ends the file as the dropped one did.
  return last >= 0 && last < out.text.length - 1 && out.eol[out.text.length - 1] === '' ? text.slice(0, text.length - out.eol[last]!.length) : text;
}

/** The nearest row beyond y in direction dir that is not dropped, or -1. */
function keptRowBeyond(out: Lines, drop: ReadonlySet<number>, y: number, dir: 1 | -1): number {
  for (let x = y + dir; x >= 0 && x < out.text.length; x += dir) if (!drop.has(x)) return x;
  return -1;
}
