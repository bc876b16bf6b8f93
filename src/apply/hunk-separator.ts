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
