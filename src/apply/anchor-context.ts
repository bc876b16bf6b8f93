// Whether an update line stands at an original line's place: the lines around both agree until a
// line the original has once pins it (loss.ts rules (a) and (b)).
import { type Lines } from './lines.js';
import { type Segment } from './merge-context.js';
import { type UpdateView, key } from './update-view.js';

/**
 * Walks from update line i and original line j in direction dir over non-blank lines while they are
 * equal, until a strong (not weak) original line confirms the match. Reaching the update's edge
 * counts only where no marker stands (the update shows the file's edge there).
 */
export function contextHolds(view: UpdateView, seg: Segment, isFirst: boolean, isLast: boolean, i: number, orig: Lines, j: number, dir: 1 | -1, substitutions = 0): boolean {
  const s = seg.lines;
  let substituted = false;
  for (;;) {
    // A line unique in the original pins the position; a repeated one (`}`, a copied statement) needs its neighbours.
    if (!substituted && view.origCount.get(key(orig.norm[j]!)) === 1) return true;
    substituted = false;
    i += dir;
    j += dir;
    while (i >= 0 && i < s.text.length && s.blank[i]) i += dir;
    while (j >= 0 && j < orig.text.length && orig.blank[j]) j += dir;
    const segOut = i < 0 || i >= s.text.length;
    const origOut = j < 0 || j >= orig.text.length;
    // The update's edge stands for the file's only where no marker is (and a marker-less update is the whole file).
    // A model that stops without a marker has not said the file ends there (issue 28's lost tail
    // function): only a marker-less update that reads as the whole file vouches for the file's edges.
    if (segOut) return origOut && !view.hasMarkers && view.wholeFile && (dir < 0 ? isFirst : isLast);
    if (origOut) return false;
    if (key(s.norm[i]!) === key(orig.norm[j]!)) continue;
    // A weak line the update rewrote in place (`return err` → `return fmt.Errorf(…)`: new text for
    // an original line it does not show), when allowed: weak lines say little about position anyway.
    if (substitutions <= 0 || !orig.weak[j] || view.origCount.has(key(s.norm[i]!)) || view.where.has(key(orig.norm[j]!))) return false;
    substitutions--;
    substituted = true;
  }
}
