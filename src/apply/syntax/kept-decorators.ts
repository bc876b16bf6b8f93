// A definition quoted from its head (`class Item:`, `public List<X> all() {`) without the decorators
// or annotations the original has above it (`@dataclass`, `@GetMapping("/x")`, `#[derive(Debug)]`)
// does not drop them: the model showed the part it changed. The swap starts below them.
import { annotationLine } from '../licence-rules.js';
import { normalize, type Lines } from '../lines.js';

/** First row of the original definition [start, end] to swap for an update definition whose first line is `uFirst`. */
export function swapStart(orig: Lines, start: number, end: number, uFirst: string): number {
  if (annotationLine(normalize(uFirst))) return start;
  let r = start;
  while (r < end && !orig.blank[r] && annotationLine(orig.norm[r]!)) r++;
  return r;
}
