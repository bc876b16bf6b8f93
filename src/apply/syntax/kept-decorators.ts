// A definition quoted from its head (`class Item:`, `public List<X> all() {`) without the decorators
// or annotations the original has above it (`@dataclass`, `@GetMapping("/x")`, `#[derive(Debug)]`)
// does not drop them: the model showed the part it changed. The swap starts below them. An
// annotation whose arguments span lines (`@pytest.mark.parametrize(` … `)`, `@GetMapping(` …
// `})`) is one annotation to its closing bracket: a marker inside its list leaves the rest of it
// to the line merge, so the swap must not start inside it (sets u py03, ac py04).
import { bracketDelta } from '../brackets.js';
import { annotationLine } from '../licence-rules.js';
import { normalize, type Lines } from '../lines.js';

/** An annotation's first line whose argument list goes on below (`@Name(`, `#[name(`, `[Name(`). */
const OPENS_ANNOTATION = /^(?:@[A-Za-z_][\w.]*|#!?\[[A-Za-z_][\w:]*|\[[A-Za-z_][\w.]*)\(/;

/** First row of the original definition [start, end] to swap for an update definition whose first line is `uFirst`. */
export function swapStart(orig: Lines, start: number, end: number, uFirst: string): number {
  const first = normalize(uFirst);
  if (annotationLine(first) || OPENS_ANNOTATION.test(first)) return start;
  let r = start;
  for (let next = annotationAfter(orig, r, end); next > r; next = annotationAfter(orig, r, end)) r = next;
  return r;
}

/** The row after the annotation that starts at row r (one line, or to the line closing its brackets); r when none starts there. */
function annotationAfter(orig: Lines, r: number, end: number): number {
  if (r >= end || orig.blank[r]) return r;
  if (annotationLine(orig.norm[r]!)) return r + 1;
  if (!OPENS_ANNOTATION.test(orig.norm[r]!)) return r;
  let depth = bracketDelta(orig.text[r]!);
  for (let j = r + 1; j < end && depth > 0; j++) {
    depth += bracketDelta(orig.text[j]!);
    if (depth <= 0) return j + 1;
  }
  return r;
}
