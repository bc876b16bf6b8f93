// A marker that stands for a whole block body: the update shows a block's opening line, a marker,
// then the block's closing line (`public int Count(User a)` / `{` / `// ... existing code ...` /
// `}`), usually to say "this method stays, the new one goes after it". The marker means exactly
// the original body, so it is expanded to it before placement; otherwise the new code after the
// `}` may anchor inside that body wherever it repeats the body's lines (a new query builder chain
// copying its neighbour's `->andWhere(…)` lines) and take the body's tail as replaced.
import { closesAt, codeBracketDelta } from './brackets.js';
import { isMarkerLine } from './markers.js';
import { indentLength } from './lines.js';

const clean = (t: string): string => t.replace(/\r$/, '').trimEnd();

/**
 * The update with every body marker expanded to the original body it stands for. A marker is a
 * body marker when the update line before it equals (with its indentation) exactly one original
 * line that opens a block — or is a lone `{` after a header that does — and the update line after
 * it equals the original line closing that block. Returns the update unchanged otherwise.
 */
export function expandBodyMarkers(update: string, code: string): string {
  const orig = code.split('\n').map(clean);
  const trimmed = new Set(orig.map((t) => t.trim()));
  const upd = update.split('\n');
  const count = new Map<string, number>();
  for (const t of orig) if (t.trim()) count.set(t, (count.get(t) ?? 0) + 1);
  const out: string[] = [];
  let changed = false;
  for (let i = 0; i < upd.length; i++) {
    const line = upd[i]!;
    if (i === 0 || i + 1 >= upd.length || !isMarkerLine(clean(line), trimmed)) {
      out.push(line);
      continue;
    }
    const opener = clean(upd[i - 1]!);
    const closer = clean(upd[i + 1]!);
    let h = -1;
    if (count.get(opener) === 1) h = orig.indexOf(opener);
    else if (opener.trim() === '{' && i >= 2 && count.get(clean(upd[i - 2]!)) === 1) {
      // Allman braces: the header is the unique line, the `{` right after it opens the block.
      const head = orig.indexOf(clean(upd[i - 2]!));
      if (head + 1 < orig.length && orig[head + 1] === opener) h = head + 1;
    }
    const c = h >= 0 ? closesAt(orig, h, codeBracketDelta) : -1;
    // The closer must sit at the opener's indentation: a bracket count thrown off by a regex or a
    // quote in a comment lands elsewhere.
    if (c < 0 || orig[c] !== closer || c - h < 2 || indentLength(orig[c]!) !== indentLength(orig[h]!)) {
      out.push(line);
      continue;
    }
    const eol = line.endsWith('\r') ? '\r' : '';
    for (let j = h + 1; j < c; j++) out.push(orig[j]! + eol);
    changed = true;
  }
  return changed ? out.join('\n') : update;
}
