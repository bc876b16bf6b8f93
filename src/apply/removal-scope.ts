// Where an instructed removal applies. "remove SeriesService.update" names the `update` method of
// SeriesService, not the class; "Remove the show action from InvoiceController" names `show` inside
// InvoiceController. A file with twin classes (five services, each with `update`) loses only the
// member of the class named; the owner is never a removal target itself.
import type { Lines } from './lines.js';

/** `Owner.member`, `Owner::member`, `Owner#member` (the member starts lower-case or with `_`). */
const QUALIFIED = /\b([A-Z][\w$]*)(?:\.|::|#)([a-z_$][\w$]*)\b/g;

/** Qualified names of a removal phrase: member → owner. */
export function qualifiedMembers(phrase: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of phrase.matchAll(QUALIFIED)) out.set(m[2]!, m[1]!);
  return out;
}

/** A code-looking owner after a place word: "… from InvoiceController", "… in `StockService`". */
export function placeOwner(placePart: string): string | null {
  const m = /^\s*(?:the\s+)?`?([A-Z][\w$]*[a-z][\w$]*)`?/.exec(placePart);
  return m ? m[1]! : null;
}

/**
 * Rows (start, end exclusive) of the blocks in `o` that define `owner`, found with the caller's
 * `defines` and `blockEnd` (definition-blocks.ts); null when the file defines no such owner, so the removal
 * is not narrowed by a name that is not code here (a file name, a service elsewhere).
 */
export function ownerRanges(o: Lines, owner: string, defines: (text: string, name: string) => boolean, blockEnd: (o: Lines, h: number) => number): Array<[number, number]> | null {
  const out: Array<[number, number]> = [];
  for (let h = 0; h < o.text.length; h++) {
    if (o.blank[h] || !(defines(o.text[h]!, owner) || ownerBlockHead(o.norm[h]!, owner))) continue;
    const end = blockEnd(o, h);
    if (end > h + 1) out.push([h, end]);
  }
  return out.length > 0 ? out : null;
}

/** A block that adds to a type (`impl<K, V> TtlCache<K, V> {`, `extension Money {`, `impl Display for Money {`). */
function ownerBlockHead(norm: string, owner: string): boolean {
  const m = /^(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:impl|extension)\b(.*)$/.exec(norm);
  return m !== null && new RegExp(`(^|[^\\w$])${owner.replace(/\$/g, '\\$')}(?![\\w$])`).test(m[1]!);
}

/** Row h lies inside one of the ranges (or no ranges narrow it). */
export function inRanges(ranges: Array<[number, number]> | null, h: number): boolean {
  return ranges === null || ranges.some(([a, b]) => h > a && h < b);
}

/**
 * The blank rows to drop with a removed block (rows start..end-1, a blank or the file's start above
 * it): those after it when they can go (`kept`: in the merged file through a marker); else, when
 * blank rows after it are shown by the update or none come before its enclosing block's closer
 * (`end` of a Ruby class, a shallower Python definition), those before it. One separator remains.
 */
export function separatorToDrop(o: Lines, kept: Uint8Array, start: number, end: number): number[] {
  const after: number[] = [];
  for (let j = end; j < o.text.length && o.blank[j]; j++) after.push(j);
  const before: number[] = [];
  for (let j = start - 1; j >= 0 && o.blank[j]; j--) before.push(j);
  // The longer of the two separators stays (a method removed before a class: the class's two blank lines).
  if (after.length > 0 && after.every((j) => kept[j])) return before.length === 0 ? after : after.slice(0, Math.min(after.length, before.length));
  if (before.length === 0 || !before.every((j) => kept[j])) return [];
  const next = end + after.length;
  const closes = next < o.text.length && o.indent[next]! < o.indent[start]!;
  return after.length > 0 || closes ? before : [];
}
