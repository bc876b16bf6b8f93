// Twins (the same method in two classes: `load()` of RecipeStore and of IngredientStore) that an
// update shows one of, with no context or instruction to tell which: the one whose body holds more
// of the update's lines is the one it edits (`items = try await client.fetch([Ingredient].self, …)`
// is a line of IngredientStore's `load`, not of RecipeStore's). Taking the first twin by default
// swapped out the other class's method and dropped its code (held-out set k sw01, ts08).
import type { Lines } from '../lines.js';

/** Per candidate row range of `orig`, how many distinct trimmed lines of `shown` it holds. */
export function twinScores(orig: Lines, twins: ReadonlyArray<{ start: number; end: number }>, shown: readonly string[]): number[] {
  const wanted = new Set(shown.map((t) => t.trim()).filter((t) => t.length > 0));
  return twins.map((t) => {
    const seen = new Set<string>();
    for (let r = t.start; r <= t.end; r++) {
      const line = orig.text[r]!.trim();
      if (line.length > 0 && wanted.has(line)) seen.add(line);
    }
    return seen.size;
  });
}

/**
 * Of the candidate row ranges `twins` of `orig`, the one sharing strictly the most trimmed lines
 * with `shown` (the update's definition), or -1 when none stands out.
 */
export function twinByContent(orig: Lines, twins: ReadonlyArray<{ start: number; end: number }>, shown: readonly string[]): number {
  return strictBest(twinScores(orig, twins, shown));
}

/** Index of the strictly highest of twinScores' `scores`, or -1 when it is shared. */
export function strictBest(scores: readonly number[]): number {
  const best = Math.max(...scores);
  return scores.filter((s) => s === best).length === 1 ? scores.indexOf(best) : -1;
}

/**
 * Share of the best twin's count (twinScores) that a twin placed by its sibling above the marker
 * must reach: a few lines more in another twin (an upload step the other CI job has too) do not
 * outweigh where the update shows it, but a twin that holds few of the lines is not it.
 */
export const SIBLING_TWIN_SHARE = 0.8;
