// A hunk that opens with a renamed definition (`listAllUsers :: Conn -> …` for `listUsers :: Conn
// -> …`, set k hs03) has no exact anchor and no edited header of the same name, so it went after
// the marker as new code and the old definition stayed beside it. It is the old definition's
// head when the rename is carried through the update: the old name occurs on no update line, the
// new one on no original line, and another update line is an original line with the same rename
// (a caller, an export list entry), or the instruction names both names. Only one original line at or after the hunk's floor may read
// as the renamed head.
import { escapeRe } from './escape-regexp.js';
import { perText, tokens, type Lines } from './lines.js';
import type { MergeContext } from './merge-context.js';

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** The one identifier token that differs between two lines of equal token count: [old, new], or null. */
function renamedToken(a: string, b: string): [string, string] | null {
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.length !== tb.length || ta.length < 2) return null;
  let pair: [string, string] | null = null;
  for (let k = 0; k < ta.length; k++) {
    if (ta[k] === tb[k]) continue;
    if (pair || !IDENT.test(ta[k]!) || !IDENT.test(tb[k]!)) return null;
    pair = [ta[k]!, tb[k]!];
  }
  return pair;
}

/** Every identifier token of the lines. */
const words = perText((l: Lines) => {
  const w = new Set<string>();
  for (let y = 0; y < l.text.length; y++) if (!l.blank[y]) for (const t of tokens(l.norm[y]!)) if (IDENT.test(t)) w.add(t);
  return w;
});

/**
 * The original row in [lo, hi) that segment line f renames (see above); -1 when there is
 * none, more than one, or the rename is not carried through the update.
 */
export function renamedHeadRow(ctx: MergeContext, lines: Lines, f: number, lo: number, hi: number): number {
  const o = ctx.orig;
  const norm = lines.norm[f]!;
  let at = -1;
  let pair: [string, string] | null = null;
  for (let j = lo; j < hi; j++) {
    if (o.blank[j] || o.weak[j]) continue;
    const p = renamedToken(o.norm[j]!, norm);
    if (!p) continue;
    if (at >= 0) return -1;
    at = j;
    pair = p;
  }
  if (!pair) return -1;
  const [from, to] = pair;
  // A new name for an old one: the original never says `to`; the update never says `from`.
  if (words(o).has(to) || ctx.segments.some((s) => words(s.lines).has(from))) return -1;
  // The instruction names both ("Rename asyncHandler to handleAsync everywhere").
  if (ctx.scopeNames?.has(from) && ctx.scopeNames.has(to)) return at;
  const word = new RegExp(`(?<![\\w$])${escapeRe(to)}(?![\\w$])`, 'g');
  for (const s of ctx.segments) {
    const l = s.lines;
    for (let i = 0; i < l.text.length; i++) {
      if ((l === lines && i === f) || l.blank[i] || !l.norm[i]!.includes(to)) continue;
      // Another original line shown with the same rename.
      if (ctx.index.has(l.norm[i]!.replace(word, from))) return at;
    }
  }
  return -1;
}
