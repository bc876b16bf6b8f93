// Inline markers: a marker inside a line stands for the original items of a literal, as in
// `const COLORS = [/* ... existing code ... */, 'purple'];` or `f(/* ... */, extra)`. Before the
// merge, each such update line is expanded from the original line it extends: the line that
// starts with the same text before the marker (or ends with the same text after it).
import { INLINE_MARKER } from './loss.js';

/** Length of the closing text both end with: brackets, `;`, `,`, spaces (`'];` would take a quote of the last item). */
function commonSuffix(a: string, b: string): number {
  let k = 0;
  while (k < a.length && k < b.length && a[a.length - 1 - k] === b[b.length - 1 - k] && /[\s)\]}>;,]/.test(a[a.length - 1 - k]!)) k++;
  return k;
}

/** The expanded text of one update line, or null when no original line fits it. */
function expandLine(line: string, originals: string[]): string | null {
  const m = INLINE_MARKER.exec(line);
  if (!m) return null;
  const indent = line.slice(0, line.length - line.trimStart().length);
  const before = line.slice(indent.length, m.index);
  const after = line.slice(m.index + m[0].length);
  if (before.trim() === '' && after.trim() === '') return null; // a whole-line marker
  let best: string | null = null;
  let bestScore = -1;
  for (const o of originals) {
    const t = o.trim();
    if (before.trim().length >= 3 && t.startsWith(before.trim())) {
      // Marker first: the original's items, then what the update adds after the marker.
      const tail = commonSuffix(t, after);
      const items = t.slice(before.trim().length, t.length - tail).replace(/[\s,]+$/, '').trimStart();
      const score = tail;
      if (score > bestScore && items.length > 0) {
        bestScore = score;
        // The original's own spacing between the opening bracket and its first item.
        const lead = t.slice(before.trim().length, t.length - tail).match(/^\s*/)![0];
        best = indent + before.trimEnd() + lead + items + after;
      }
    } else if (after.trim().length >= 1 && before.trim().length >= 3 && t.endsWith(after.trim())) {
      // Marker last (`f(a, /* ... */)`): what the update shows, then the original's remaining items.
      const head = before.trimEnd().replace(/,$/, '');
      const start = t.indexOf(head.trim().slice(0, Math.min(head.trim().length, 8)));
      if (start !== 0) continue;
      const itemsStart = Math.min(t.length - after.trim().length, head.trim().length);
      const rest = t.slice(itemsStart, t.length - after.trim().length).replace(/^[\s,]+/, '');
      if (rest.length > 0 && 0 > bestScore) {
        bestScore = 0;
        best = indent + head.trim() + ', ' + rest + after.trim();
      }
    }
  }
  return best;
}

/** The update with every inline marker expanded from the original; lines that fit no original line stay. */
export function expandInlineMarkers(update: string, code: string): string {
  if (!INLINE_MARKER.test(update)) return update;
  const originals = code.split(/\r?\n/);
  return update
    .split('\n')
    .map((l) => {
      const cr = l.endsWith('\r') ? '\r' : '';
      const e = expandLine(cr ? l.slice(0, -1) : l, originals);
      return e === null ? l : e + cr;
    })
    .join('\n');
}
