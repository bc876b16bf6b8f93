// A run of lines the merge wrote twice in a row: a loop's `done` doubled under a new `if … fi` (the
// new `fi` taken for the original's `done`), the tail of a copied `case` (`conn_printf(…); break;`)
// both kept and restated, a widget's `),` closing twice, a callback's `})` kept under the new block
// whose own `})` took its place (blank lines between the two copies), a heading restated over the
// section the update wrote above it. When neither the original nor the update holds the run twice in
// a row, the merge made the repeat: two placements of one piece of the update or of one original
// line. The output is not changed (which copy is meant is not known); the merge says it guessed. Over
// every development case's expected file this never holds.
import { exactRows, heldByInputs, splitLines } from './lines.js';

/** The longest run looked for: the doubled pieces seen are a line or two (a closer, a statement and its `break;`). */
const MAX_RUN = 4;

/**
 * Rows (0-based) of `content` where a run of 1..MAX_RUN solid lines starts that the next lines repeat
 * exactly (indentation kept), right away or after blank lines, when neither `code` nor `update` holds
 * that stretch (the run, the blanks, the repeat).
 */
export function doubledRuns(code: string, update: string, content: string): number[] {
  const out = splitLines(content);
  const rows = exactRows(out);
  const held = heldByInputs(code, update);
  const found: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    for (let k = 1; k <= MAX_RUN && i + k <= rows.length; k++) {
      if (out.blank[i + k - 1]) break;
      let at = i + k;
      while (at < rows.length && out.blank[at]) at++;
      if (at + k > rows.length) continue;
      let repeats = true;
      for (let j = 0; j < k && repeats; j++) repeats = rows[i + j] === rows[at + j];
      if (!repeats) continue;
      if (held(rows.slice(i, at + k))) continue;
      found.push(i);
      break;
    }
  }
  return found;
}
