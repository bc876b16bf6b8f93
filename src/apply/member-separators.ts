// The separator after a member of a list or object (`,`; `;` in a union or a statement list) belongs
// to the list, not to the member's text: it comes and goes as members are added after it. Two cases
// where an update's separators are not what the merged file needs:
// - a shown line without the separator its original has, right before a marker: the marker stands
//   for the members after it, so the separator stays (`"devDependencies": {` / `// ...` / `}` for
//   the original `},`);
// - a member appended after the original's last member, which the update does not show (a marker
//   stands for it): that member now has a sibling after it and takes the separator its siblings
//   carry (`"File" sink }` → `},` before a new `{ "Name": "Seq" … }`).
import { indentLength, type Lines } from './lines.js';
import { commentBody } from './markers.js';
import { startsWithCloser } from './brackets.js';

const SEPARATOR = /[,;]$/;

/** The line without its trailing `,` / `;` (the member's own text). */
export function withoutSeparator(norm: string): string {
  return norm.replace(SEPARATOR, '');
}

/** `a` and `b` are the same line but for a trailing `,` / `;` added or dropped. */
export function separatorChanged(a: string, b: string): boolean {
  return a !== b && withoutSeparator(a) === withoutSeparator(b);
}

/**
 * Update line `shown` (normalised) is original line `orig` with its trailing separator dropped, and
 * a marker follows it in the update: the original's text, separator and all, is what stays.
 */
export function separatorDroppedBeforeMarker(shown: string, orig: string, lastBeforeMarker: boolean): boolean {
  return lastBeforeMarker && SEPARATOR.test(orig) && orig.slice(0, -1).trimEnd() === shown;
}

/** An output line: its text, and the original row a marker kept (undefined for lines the update shows). */
export interface SourcedLine {
  text: string;
  from?: number;
}

/** A comment after the code (the separator would go before it): such lines are left alone. */
const COMMENT_START = /\/\/|#|--|\/\*|<!--/;
/** Quoted strings, blanked before looking for a comment (`"https://…"`, `"#/components/…"`). */
const QUOTED = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;

function hasComment(norm: string): boolean {
  return COMMENT_START.test(norm.replace(QUOTED, '""'));
}

/**
 * Original row j ends the last member of a comma-separated list: no separator of its own, the next
 * content row closes the list at a shallower indentation, and the member before it (the row above
 * the member's first row, at the same indentation) ends with a comma.
 */
function lastMemberEnd(o: Lines, j: number): boolean {
  const t = o.norm[j]!;
  if (!t || SEPARATOR.test(t) || /[[({:=]$/.test(t) || hasComment(t)) return false;
  let n = j + 1;
  while (n < o.text.length && o.blank[n]) n++;
  if (n >= o.text.length || !startsWithCloser(o.norm[n]!) || o.indent[n]! >= o.indent[j]!) return false;
  const first = memberStart(o, j);
  if (blockArm(o.norm[first]!)) return false;
  let p = first - 1;
  while (p >= 0 && o.blank[p]) p--;
  return p >= 0 && o.indent[p] === o.indent[j] && o.norm[p]!.endsWith(',') && !hasComment(o.norm[p]!);
}

/** `Pat => {`: a match arm with a block body (Rust, Scala), which ends without a comma whatever its
 *  siblings end with; `key: () => {` is an object's member and takes one. */
function blockArm(norm: string): boolean {
  return /=>\s*\{$/.test(norm) && !/^(?:[\w$]+|"[^"]*"|'[^']*')\s*:(?!:)/.test(norm);
}

/** The first row of the member whose last row is j: j itself, or the opener a closer row j pairs with. */
function memberStart(o: Lines, j: number): number {
  if (!startsWithCloser(o.norm[j]!)) return j;
  for (let y = j - 1; y >= 0; y--) {
    if (o.blank[y] || o.indent[y]! > o.indent[j]!) continue;
    return o.indent[y] === o.indent[j] && /[[({]$/.test(o.norm[y]!) ? y : j;
  }
  return j;
}

/**
 * Output lines with a comma added to each original last member that a marker kept (the update does
 * not show it) and that an update line now follows at its indentation, opening a new member (not a
 * closer, not a comment): a member appended after it.
 */
export function carrySeparators<L extends SourcedLine>(out: L[], o: Lines): void {
  for (let x = 0; x < out.length; x++) {
    const j = out[x]!.from;
    if (j === undefined || !lastMemberEnd(o, j)) continue;
    let n = x + 1;
    while (n < out.length && out[n]!.text.trim() === '') n++;
    const next = out[n];
    if (!next || next.from !== undefined) continue;
    const t = next.text.trim();
    if (indentLength(next.text) !== indentLength(out[x]!.text) || startsWithCloser(t) || commentBody(t) !== null) continue;
    out[x] = { ...out[x]!, text: `${out[x]!.text},` };
  }
}
