// A location comment between two hunks (`// and in put():`, `<!-- in <head>: -->`), set apart from
// the hunk before it by a blank line: the model moved to another place in the file without writing
// a marker. The comment says where the next hunk goes and that the code between is unchanged, so it
// stands in the update as a marker does (location-comments.ts takes the place names from it).
import { commentBody } from './markers.js';
import type { Lines } from './lines.js';

/** Update row i follows a blank line and is followed by one or by more code: it separates two hunks. */
export function separatesHunks(u: Lines, i: number): boolean {
  return i > 0 && u.blank[i - 1]! && i + 1 < u.text.length && commentBody(u.text[i]!) !== null;
}

/** `and in put():` → `in put():` (the connective a model writes when it moves on). */
export function leadingConnectiveDropped(body: string | null): string {
  return (body ?? '').replace(/^\((.*)\)$/, '$1').trim().replace(/^(?:and|also|then|plus)\s+/i, '');
}

/** The comment line as a marker in the same comment syntax and indentation. */
export function markerFor(line: string): string {
  const body = commentBody(line) ?? '';
  const at = body === '' ? -1 : line.lastIndexOf(body);
  return at < 0 ? line : `${line.slice(0, at)}... existing code ...${line.slice(at + body.length)}`;
}

/** The number a model gives its hunks at a comment's start (`1) in getOrLoad, …`, `(2) …`, `3. new helper, …`). */
const HUNK_NUMBER = /^\(?(\d{1,2})([).])\s+/;

/** A comment without the number a model gives its hunks (`1) in getOrLoad, …`, `3. new helper, …`). */
export function withoutHunkNumber(body: string): string {
  return body.replace(HUNK_NUMBER, '');
}

/** The number a trimmed comment opens with as `1)` or `(1)`, or null (location-comments.ts reads no `1.` heading). */
export function hunkHeadingNumber(body: string): number | null {
  const m = HUNK_NUMBER.exec(body);
  return m !== null && m[2] === ')' ? Number(m[1]) : null;
}
