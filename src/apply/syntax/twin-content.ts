// Twins (the same method in two classes: `load()` of RecipeStore and of IngredientStore) that an
// update shows one of, with no context or instruction to tell which: the one whose body holds more
// of the update's lines is the one it edits (`items = try await client.fetch([Ingredient].self, …)`
// is a line of IngredientStore's `load`, not of RecipeStore's). Taking the first twin by default
// swapped out the other class's method and dropped its code (held-out set k sw01, ts08).
import type { Lines } from '../lines.js';

/**
 * Of the candidate row ranges `twins` of `orig`, the one sharing strictly the most trimmed lines
 * with `shown` (the update's definition), or -1 when none stands out.
 */
export function twinByContent(orig: Lines, twins: ReadonlyArray<{ start: number; end: number }>, shown: readonly string[]): number {
  const wanted = new Set(shown.map((t) => t.trim()).filter((t) => t.length > 0));
  let best = -1;
  let bestScore = -1;
  let tie = false;
  twins.forEach((t, x) => {
    let score = 0;
    const seen = new Set<string>();
    for (let r = t.start; r <= t.end; r++) {
      const line = orig.text[r]!.trim();
      if (line.length > 0 && wanted.has(line) && !seen.has(line)) {
        seen.add(line);
        score++;
      }
    }
    if (score > bestScore) {
      best = x;
      bestScore = score;
      tie = false;
    } else if (score === bestScore) tie = true;
  });
  return tie ? -1 : best;
}
