// Alignment a writer lost. An update that shows an original line with its aligned columns collapsed
// (`ami           = data.ami.id` → `ami = data.ami.id`, `baseURL:    url` → `baseURL: url`) and
// nothing else changed is the original line copied as context, not an edit: the committed sets keep
// the original's spacing there (ag tf03, at ts02), and take the update's only where the aligned run
// lost a member (the formatter narrowed the column after its longest key went: l tf02).
import { splitLines } from './lines.js';

/** An instruction about formatting may collapse alignment on purpose. */
const SPEAKS_OF_FORMAT = /\b(?:format\w*|align\w*|whitespace|spacing|spaces|indent\w*|lint\w*|prettier|gofmt|fmt)\b/i;

/** Two tokens with a run of two or more spaces between them: an aligned column. */
const ALIGNED = /\S {2,}\S/;

const squash = (t: string): string => t.replace(/\s+/g, '');

/** The key a line starts with (`ami`, `baseURL`, `"name"`), whose presence says the line is still there. */
const key = (t: string): string => /^[^\s=:]+/.exec(t)?.[0] ?? t;

/**
 * The output with each line that collapses an original line's alignment, and changes nothing else,
 * written as the original had it; null when there is none. Only where the original writes that line
 * one way (or one twin stands beside the output line's neighbours) and every line of its aligned run (the adjacent non-blank lines at its indent) still starts an
 * output line: a run that lost or renamed a member is realigned by the update on purpose. Not where
 * the output still holds that original line as often as the original does.
 */
export function keptAlignment(original: string, update: string, instruction: string | null, output: string): string | null {
  if (instruction !== null && SPEAKS_OF_FORMAT.test(instruction)) return null;
  if (!ALIGNED.test(original)) return null;
  const orig = splitLines(original);
  // Trimmed, not normalized: the inner spacing is what differs.
  const trimmed = orig.text.map((t) => t.trim());
  const origTexts = new Set(trimmed);
  const bySquash = new Map<string, number[]>();
  trimmed.forEach((t, j) => {
    if (ALIGNED.test(t)) bySquash.set(squash(t), [...(bySquash.get(squash(t)) ?? []), j]);
  });
  const shown = new Set(update.split('\n').map((l) => l.trim()));
  const lines = output.split('\n');
  const outKeys = new Set(lines.map((l) => key(l.trim())));
  let changed = false;
  const squashed = lines.map((l) => squash(l));
  const outCount = counts(lines.map((l) => l.trim()));
  const origCount = counts(trimmed);
  const kept = lines.map((line, k) => {
    const t = line.trim();
    if (t === '' || origTexts.has(t) || ALIGNED.test(t) || !shown.has(t)) return line;
    const rows = (bySquash.get(squash(t)) ?? []).filter((y) => runIntact(orig, y, outKeys));
    // Twins aligned differently (the same line in two resources): the one whose neighbours are the output line's.
    const beside = rows.filter((y) => [-1, 1].some((d) => squashed[k + d] !== undefined && squashed[k + d] !== '' && squash(trimmed[y + d] ?? '') === squashed[k + d]));
    const texts = new Set(rows.map((y) => trimmed[y]));
    const j = texts.size === 1 ? rows[0] : beside.length === 1 ? beside[0] : undefined;
    // The original line still stands in the output as itself: this one is new code written in its
    // shape (a new resource's `bucket = …` beside an aligned one), keeping the update's spacing.
    if (j === undefined || (outCount.get(trimmed[j]!) ?? 0) >= origCount.get(trimmed[j]!)!) return line;
    changed = true;
    return line.slice(0, line.length - line.trimStart().length) + trimmed[j]! + (line.endsWith('\r') ? '\r' : '');
  });
  return changed ? kept.join('\n') : null;
}

function counts(texts: readonly string[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const t of texts) n.set(t, (n.get(t) ?? 0) + 1);
  return n;
}

/** Every line of j's aligned run (adjacent non-blank lines at j's indent) still starts an output line. */
function runIntact(orig: ReturnType<typeof splitLines>, j: number, outKeys: ReadonlySet<string>): boolean {
  const at = (y: number): boolean => y >= 0 && y < orig.text.length && !orig.blank[y] && orig.indent[y] === orig.indent[j];
  let a = j;
  while (at(a - 1)) a--;
  for (let y = a; at(y); y++) if (!outKeys.has(key(orig.text[y]!.trim()))) return false;
  return true;
}
