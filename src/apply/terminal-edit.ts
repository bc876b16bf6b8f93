// A block's last statement rewritten after a marker: `// ... checks unchanged ...` / `return
// w.Flush()` / `}` where the block ended `return nil` / `}`. The new `return` lands right after the
// old one, which the marker keeps: two `return`s (or `throw`s, `raise`s) in a row at one depth leave the
// second unreachable, so the new one is the old one's edit, however differently it reads. Only the
// block's last statement, with its block's end (closer or dedent) right after the new line in the
// output as in the original; only a new line the update writes right after a marker or right after
// the line above the old one (a `return` under a new head of the update's own belongs to that
// block), and only an old line the update never shows.
import { keptRows } from './line-diff.js';
import { solidRow, splitLines, type Lines } from './lines.js';
import { markerLines } from './markers.js';

/** Statements after which nothing in their block runs. */
const TERMINAL = /^(return|throw|raise)\b/;

/**
 * Original row j (its block's last statement, a terminal one) stands replaced by output row k: k is a
 * terminal statement of the same keyword at j's indentation, a text the original never has, and the line after k in
 * the output is the line that ends j's block in the original (its closer, or the next line at a
 * lesser indentation), same text, same indentation.
 */
export function terminalReplaced(orig: Lines, j: number, out: Lines, k: number): boolean {
  const a = TERMINAL.exec(orig.norm[j]!);
  if (!a || orig.norm[j] === out.norm[k] || TERMINAL.exec(out.norm[k]!)?.[1] !== a[1] || orig.indent[j] !== out.indent[k]) return false;
  const q = solidRow(orig, j, 1);
  const c = solidRow(out, k, 1);
  if (q < 0 || c < 0 || orig.indent[q]! >= orig.indent[j]! || out.norm[c] !== orig.norm[q] || out.indent[c] !== orig.indent[q]) return false;
  // One block: k stands under j's own head (a new function copying j's body lines has another head).
  const hj = headAbove(orig, j);
  const hk = headAbove(out, k);
  if (hj < 0 || hk < 0 || orig.norm[hj] !== out.norm[hk]) return false;
  // A line the original has elsewhere is that line, placed here, not j's edit.
  return !orig.norm.includes(out.norm[k]!);
}

/**
 * The merged content without each original terminal line kept right above a new terminal line that
 * replaces it (`terminalReplaced`), where the update never shows the old line; unchanged when none.
 */
export function withoutReplacedTerminals(code: string, update: string, content: string): string {
  if (!TERMINAL_ANYWHERE.test(update)) return content;
  const o = splitLines(code);
  const out = splitLines(content);
  const u = splitLines(update);
  const shown = new Set(u.norm);
  // What the update writes above each line: a marker (null) keeps original lines there.
  const marks = markerLines(u.text, o.text);
  const above = new Map<string, Array<string | null>>();
  for (let i = 0; i < u.text.length; i++) {
    if (marks[i] || u.blank[i]) continue;
    const w = solidRow(u, i, -1);
    if (w < 0) continue;
    above.set(u.norm[i]!, [...(above.get(u.norm[i]!) ?? []), marks[w] ? null : u.norm[w]!]);
  }
  const { from } = keptRows(o.norm, out.norm);
  const drop = new Set<number>();
  for (let k = 0; k < out.text.length; k++) {
    if (from[k]! >= 0 || out.blank[k]) continue;
    const kept = solidRow(out, k, -1);
    const j = kept >= 0 ? from[kept]! : -1;
    if (j < 0 || shown.has(o.norm[j]!) || !terminalReplaced(o, j, out, k)) continue;
    // The update writes k under a marker, or under the line the output has above j: j lies where k goes.
    const before = solidRow(out, kept, -1);
    if (!(above.get(out.norm[k]!) ?? []).some((w) => w === null || (before >= 0 && w === out.norm[before]))) continue;
    // The line after k is the original's own end of j's block, kept.
    const c = solidRow(out, k, 1);
    if (from[c]! !== solidRow(o, j, 1)) continue;
    drop.add(kept);
  }
  if (drop.size === 0) return content;
  let text = '';
  for (let k = 0; k < out.text.length; k++) if (!drop.has(k)) text += out.text[k]! + out.eol[k]!;
  return text;
}

/** The nearest solid row above x at a lesser indentation (the head of x's block), or -1. */
function headAbove(l: Lines, x: number): number {
  for (let y = solidRow(l, x, -1); y >= 0; y = solidRow(l, y, -1)) if (l.indent[y]! < l.indent[x]!) return y;
  return -1;
}

const TERMINAL_ANYWHERE = /^\s*(?:return|throw|raise)\b/m;
