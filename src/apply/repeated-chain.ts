// A segment after a marker whose only anchors are lines the original has many times (`#[test]`,
// `@Override`, `it do`) and which ends with the closers of blocks opened segments before
// (`mod tests {` / marker / a new test / `}` / `}`: set l rs02): the repeated line is the new code's
// own, copied from its siblings. Matched to the first sibling it puts the new code there and
// drops the siblings between it and the block's closer (the no-loss pass then puts them back out
// of place); the closers, paired with the block's own closing line by structure
// (closer-anchors.ts closingTail), place it at the block's end and drop nothing.
import type { Lines } from './lines.js';
import type { Chain } from './merge-context.js';
import { separatorChanged } from './member-separators.js';

/**
 * True when `tail` (closer pairs) should replace `chain`: every chain line is repeated in the
 * original, the closers come after the chain, and the original between the chain's last anchor
 * and the first closer holds code the segment does not show there, not even with only its trailing
 * separator changed (the chain would delete it).
 */
export function closersOutweighRepeated(s: Lines, o: Lines, index: ReadonlyMap<string, number[]>, chain: Chain, tail: Chain): boolean {
  if (chain.length === 0 || tail.length === 0) return false;
  if (!chain.every(([i]) => (index.get(s.norm[i]!)?.length ?? 0) > 1)) return false;
  const [li, lj] = chain[chain.length - 1]!;
  const [ti, tj] = tail[0]!;
  if (ti <= li || tj <= lj) return false;
  const shown = new Set<string>();
  for (let i = li + 1; i < ti; i++) if (!s.blank[i]) shown.add(s.norm[i]!);
  // A line shown with only its trailing separator changed is shown (`updated_at …,` before a new
  // last column): the chain then deletes nothing there.
  const shownAsIs = (norm: string): boolean => shown.has(norm) || [...shown].some((t) => separatorChanged(norm, t));
  for (let j = lj + 1; j < tj; j++) if (!o.blank[j] && !shownAsIs(o.norm[j]!)) return true;
  return false;
}
