// The file's first or last line edited in place. A model that rewrites the line ending the file
// (`main()` → `sys.exit(main())`) and stops there shows the file's end as surely as one that
// copies that line unchanged: the line is replaced, not kept after the new one.
import { editedVersion, type Lines } from './lines.js';
import { wrapsLine } from './wrapped-line.js';

/** Update line `shown` reads as an edit of original line `orig` (both normalised). */
export function editsEdgeLine(orig: string, shown: string): boolean {
  if (orig === shown || orig.length === 0 || shown.length === 0) return false;
  return editedVersion(orig, shown) || wrapsLine(orig, shown);
}

/**
 * Update line `shown` is original line `orig` wrapped whole, as a separate expression (`tokens` →
 * `Ok(tokens)`, `items` → `Some(items)`, `value` → `await value`): the text around it starts and ends
 * at word boundaries, so a member call (`tokens.push(t)`) or a longer name (`tokens_seen`) is not a wrap.
 */
export function wrapsWholeLine(orig: string, shown: string): boolean {
  if (!wrapsLine(orig, shown)) return false;
  const core = orig.replace(/[;,]$/, '');
  const at = shown.indexOf(core);
  const before = shown[at - 1] ?? '';
  const after = shown[at + core.length] ?? '';
  return !/[\w$.]/.test(before) && !/[\w$.]/.test(after);
}

/**
 * Segment line i is the first (dir -1) or last (dir 1) content line of its segment: the hunk's
 * edge, next to a marker or the file's edge, where no neighbour on that side shows whether the
 * original line there was kept.
 */
export function atSegmentEdge(s: Lines, i: number, dir: 1 | -1): boolean {
  for (let x = i + dir; x >= 0 && x < s.text.length; x += dir) if (!s.blank[x]) return false;
  return true;
}

/**
 * Update line `shown` is original line `orig` cut before the opener that ends it, its list going on
 * (`m_(x) {` → `m_(x),`, `b: int) -> None:` → `b: int,`), and `next` ends with that opener: a
 * parameter, initializer or argument appended after the last one, the block opened one line later.
 */
export function continuedOnNext(orig: string, shown: string, next: string): boolean {
  if (!shown.endsWith(',')) return false;
  const core = shown.slice(0, -1);
  if (core.length === 0 || !orig.startsWith(core) || orig.length === core.length) return false;
  const rest = orig.slice(core.length);
  const opener = orig[orig.length - 1]!;
  return /^[\s)\]}]/.test(rest) && /[{:(\[]/.test(opener) && next.endsWith(opener);
}
