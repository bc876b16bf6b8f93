// Original lines between two lines the update shows edited, where the update writes new lines in
// their stead: `func get(_ path:)` → `func get(_ path:, query:)`, then `var components = …` and an
// `if` block, then `var request = URLRequest(url: url)` → `…(url: components.url!)`. The dropped
// `let url = …` lies between two edits that one stretch of the update shows in order, with new text
// between them: that text is what replaces it (rule (a) of loss.ts, by place). Edits stand here as
// exact anchors do for rule (b); the new lines between them must be at least as many as the lines
// they replace, so a long stretch is never read as rewritten by one new line.
import type { Lines } from './lines.js';
import type { Segment } from './merge-context.js';

export interface PairedEdit {
  /** The original line the edit replaces. */
  j: number;
  /** The output line that replaces it. */
  k: number;
}

/**
 * The original rows among `open` (missing, unlicensed) that lie between two paired edits a and b
 * (a.j < row < b.j, a.k < b.k), inside one block (none left of both edits), when one segment shows
 * a's and b's new text in that order with no marker between, and the output lines between them
 * hold at least as many new lines (no original line's text) as there are rows between the edits.
 */
export function rowsBetweenEdits(orig: Lines, out: Lines, segments: readonly Segment[], edits: readonly PairedEdit[], open: readonly number[], isOriginalText: (norm: string) => boolean): Set<number> {
  const rows = new Set<number>();
  const sorted = [...edits].sort((x, y) => x.j - y.j);
  for (let e = 0; e + 1 < sorted.length; e++) {
    const a = sorted[e]!;
    const b = sorted[e + 1]!;
    if (b.k <= a.k) continue;
    const inner = open.filter((j) => j > a.j && j < b.j);
    if (inner.length === 0) continue;
    const bound = Math.min(orig.indent[a.j]!, orig.indent[b.j]!);
    if (inner.some((j) => orig.indent[j]! < bound)) continue;
    let fresh = 0;
    for (let k = a.k + 1; k < b.k; k++) if (!out.blank[k] && !isOriginalText(out.norm[k]!)) fresh++;
    if (fresh < inner.length || !shownInOneSegment(segments, out, a.k, b.k)) continue;
    for (const j of inner) rows.add(j);
  }
  return rows;
}

/** Output lines ka < kb (and every line between) stand in this order inside one segment's lines. */
function shownInOneSegment(segments: readonly Segment[], out: Lines, ka: number, kb: number): boolean {
  const want: string[] = [];
  for (let k = ka; k <= kb; k++) if (!out.blank[k]) want.push(out.norm[k]!);
  for (const seg of segments) {
    const l = seg.lines;
    const solid: string[] = [];
    for (let x = 0; x < l.text.length; x++) if (!l.blank[x]) solid.push(l.norm[x]!);
    for (let s = 0; s + want.length <= solid.length; s++) {
      let ok = true;
      for (let w = 0; w < want.length && ok; w++) ok = solid[s + w] === want[w];
      if (ok) return true;
    }
  }
  return false;
}
