// Blocks whose extent no bracket marks: a YAML list item (`- name: …` and the deeper lines under it),
// a shell `case` branch (`deploy)` … `;;`), a CMake command block (`if(…)` … `endif()`), a Dockerfile
// stage (`FROM … AS x` up to the next `FROM`). copied-sibling.ts reads blocks by their brackets; these
// are the blocks of the languages without them, so that a new sibling written in the shape of one of
// them (a new task, case branch, option block or stage) is seen as a copy, not as that block's edit.
import { solidRow, type Lines } from './lines.js';

/** A shell `case` pattern alone on its line: `deploy)`, `-h|--help)`, `"a"|"b")`, `*)`. */
const CASE_PATTERN = /^\(?[^\s()|;#]+(?:\s*\|\s*[^\s()|;#]+)*\)$/;
/** A shell `case` branch's terminator, alone or after the branch's last command. */
const CASE_END = /(?:^|\s);;&?$|(?:^|\s);&$/;
/** A CMake block command and its closer (`if(…)` / `endif()`), case-insensitive as CMake is. */
const CMAKE_HEAD = /^(if|foreach|function|macro|while|block)\s*\(.*\)$/i;
const CMAKE_END = /^end(if|foreach|function|macro|while|block)\s*\(.*\)$/i;
/** A Dockerfile stage's head: `FROM image[:tag] [AS name]`. */
const STAGE_HEAD = /^FROM\s+(?:--platform=\S+\s+)?\S+(?:\s+AS\s+[\w.-]+)?$/i;
/** A Dockerfile instruction: what the line under a stage's head starts with. */
const INSTRUCTION = /^(?:ARG|ADD|COPY|CMD|ENTRYPOINT|ENV|EXPOSE|HEALTHCHECK|LABEL|ONBUILD|RUN|SHELL|STOPSIGNAL|USER|VOLUME|WORKDIR)\b/;
/** A YAML list item that opens a mapping or list under it: `- name: Deploy TLS snippet`, `- uses: x`. */
const LIST_ITEM = /^-(?:\s|$)/;

type Kind = 'item' | 'case' | 'cmake' | 'stage';

/** Lines looked back over for the head of a block ending at a line. */
const MAX_BLOCK = 400;

/** The kind of flat block line x heads, or null. */
function headKind(l: Lines, x: number): Kind | null {
  const n = l.norm[x]!;
  if (LIST_ITEM.test(n)) {
    const next = solidRow(l, x, 1);
    return next >= 0 && l.indent[next]! > l.indent[x]! ? 'item' : null;
  }
  if (CASE_PATTERN.test(n)) return 'case';
  if (CMAKE_HEAD.test(n)) return 'cmake';
  if (STAGE_HEAD.test(n)) {
    const next = solidRow(l, x, 1);
    return next >= 0 && INSTRUCTION.test(l.norm[next]!) ? 'stage' : null;
  }
  return null;
}

/** The last line of the flat block of kind k that line h heads, or -1. */
function blockEnd(l: Lines, h: number, k: Kind): number {
  if (k === 'item') {
    let end = h;
    for (let y = h + 1; y < l.text.length; y++) {
      if (l.blank[y]) continue;
      if (l.indent[y]! <= l.indent[h]!) break;
      end = y;
    }
    return end > h ? end : -1;
  }
  if (k === 'case') {
    for (let y = solidRow(l, h, 1); y >= 0; y = solidRow(l, y, 1)) {
      if (l.indent[y]! < l.indent[h]! || (l.indent[y] === l.indent[h] && CASE_PATTERN.test(l.norm[y]!)) || l.norm[y] === 'esac') return -1;
      if (CASE_END.test(l.norm[y]!)) return y;
    }
    return -1;
  }
  if (k === 'cmake') {
    const word = CMAKE_HEAD.exec(l.norm[h]!)![1]!.toLowerCase();
    let depth = 0;
    for (let y = h + 1; y < l.text.length; y++) {
      const n = l.norm[y]!;
      if (CMAKE_HEAD.exec(n)?.[1]!.toLowerCase() === word) depth++;
      else if (CMAKE_END.exec(n)?.[1]!.toLowerCase() === word && depth-- === 0) return y;
    }
    return -1;
  }
  // A stage runs to its last instruction before the next stage; comments just above that stage are its own.
  let end = h;
  for (let y = h + 1; y < l.text.length; y++) {
    if (l.blank[y]) continue;
    if (STAGE_HEAD.test(l.norm[y]!)) break;
    end = y;
  }
  while (end > h && l.norm[end]!.startsWith('#')) end = solidRow(l, end, -1);
  return end > h ? end : -1;
}

/** The [head, last line] of the flat block line x heads (dir 1) or ends (dir -1), or null. */
export function flatBlock(l: Lines, x: number, dir: 1 | -1): [number, number] | null {
  if (l.blank[x]) return null;
  if (dir > 0) {
    const k = headKind(l, x);
    const end = k ? blockEnd(l, x, k) : -1;
    return end > x ? [x, end] : null;
  }
  for (let y = solidRow(l, x, -1); y >= 0 && x - y <= MAX_BLOCK; y = solidRow(l, y, -1)) {
    const k = headKind(l, y);
    if (!k) continue;
    const end = blockEnd(l, y, k);
    if (end === x) return [y, x];
    // The nearest block around x goes on past it: no block ends at x.
    if (end > x) return null;
  }
  return null;
}

/**
 * The nearest flat block around row x, x not its head (a Dockerfile stage's `RUN` line, at its head's
 * indentation, which the indentation does not place under the head), or null.
 */
export function enclosingFlatBlock(l: Lines, x: number): [number, number] | null {
  for (let y = solidRow(l, x, -1); y >= 0 && x - y <= MAX_BLOCK; y = solidRow(l, y, -1)) {
    const k = headKind(l, y);
    if (!k) continue;
    const end = blockEnd(l, y, k);
    if (end >= x) return [y, end];
  }
  return null;
}

/**
 * A shell `case` branch rewritten after its last anchor: segment row x is the branch's `;;` (its body
 * sits at the `;;`'s column, so no indentation tells it from the new lines before it), the branch's
 * head above it is paired with an original branch head (`paired`), and that original branch ends at or
 * after original row j, before `limit`, with the same terminator. The original rows from j up to that
 * end are the rest of the old branch body the new lines replace: [x, the original end], or null.
 */
export function caseBranchCloser(s: Lines, o: Lines, i: number, j: number, limit: number, paired: ReadonlyMap<number, number>): [number, number] | null {
  let x = i;
  while (x < s.text.length && (s.blank[x] || !CASE_END.test(s.norm[x]!))) x++;
  if (x >= s.text.length || s.norm[x] !== ';;') return null;
  const shown = flatBlock(s, x, -1);
  if (!shown || shown[0] >= i) return null;
  const head = paired.get(shown[0]);
  if (head === undefined || o.norm[head] !== s.norm[shown[0]]) return null;
  const old = flatBlock(o, head, 1);
  if (!old || old[1] < j || old[1] >= limit || o.norm[old[1]] !== s.norm[x]) return null;
  return [x, old[1]];
}

/** Two heads of flat blocks of one kind (`- name:` items, case patterns, `if(` blocks, stages). */
export function alikeFlatHeads(l: Lines, x: number, m: Lines, y: number): boolean {
  const k = headKind(l, x);
  if (!k || k !== headKind(m, y)) return false;
  if (k === 'item') return itemKey(l.norm[x]!) === itemKey(m.norm[y]!);
  if (k === 'cmake') return CMAKE_HEAD.exec(l.norm[x]!)![1]!.toLowerCase() === CMAKE_HEAD.exec(m.norm[y]!)![1]!.toLowerCase();
  return true;
}

/**
 * Two alike flat heads that name different blocks: another task name, case pattern, condition or
 * stage name (`AS build` → `AS asset-build`). A stage's image (`node:18` → `node:20`) is no name.
 */
export function flatHeadRenamed(l: Lines, x: number, m: Lines, y: number): boolean {
  if (!alikeFlatHeads(l, x, m, y)) return false;
  const a = headName(l.norm[x]!);
  const b = headName(m.norm[y]!);
  return a !== null && b !== null && a !== b;
}

/** Flat head x of l is named as a flat head of the original o other than row not (`AS runtime` rewritten from another image): it stands for that block. */
export function namesOriginalBlock(l: Lines, x: number, o: Lines, not: number): boolean {
  const name = headName(l.norm[x]!);
  if (name === null || !headKind(l, x)) return false;
  for (let y = 0; y < o.text.length; y++) if (y !== not && !o.blank[y] && alikeFlatHeads(l, x, o, y) && headName(o.norm[y]!) === name) return true;
  return false;
}

/** What names a flat block at its head: a stage's `AS` name (none without it), else the head itself. */
function headName(n: string): string | null {
  if (STAGE_HEAD.test(n)) return /\sAS\s+([\w.-]+)$/i.exec(n)?.[1] ?? null;
  return n;
}

/** The key a list item's first line sets (`name` of `- name: x`), or the item's whole text. */
function itemKey(n: string): string {
  return /^-\s+([\w.-]+):/.exec(n)?.[1] ?? n;
}

/** The flat block right before (dir -1) or after (dir 1) block b, blank and `#` comment lines between, at b's head's indentation; or null. */
export function flatNeighbour(l: Lines, b: [number, number], dir: 1 | -1): [number, number] | null {
  let y = solidRow(l, dir > 0 ? b[1] : b[0], dir);
  while (y >= 0 && l.norm[y]!.startsWith('#')) y = solidRow(l, y, dir);
  if (y < 0) return null;
  const n = flatBlock(l, y, dir);
  return n && l.indent[n[0]] === l.indent[b[0]] ? n : null;
}
