// Removal units beyond named definitions (rule (c), removals.ts): what an instruction names for
// removal that no definition head names.
// - a one-line statement holding the name as a whole string literal (`gem "dotenv-rails"`) or, for
//   a code-looking name, as a word (`builder.Services.AddHostedService<StockReconciliationWorker>();`);
// - a statement block headed by a comment that holds every word of the description ("delete the
//   legacy NAS mirror block": `# legacy: mirror to the old NAS …` over an `if … fi`).
// Each is a unit only when it is the one match in the file: two matches remove nothing.
import { bracketDelta } from './brackets.js';
import { escapeRe, wholeName } from './escape-regexp.js';
import { commentBody } from './markers.js';
import type { Lines } from './lines.js';

type BlockEnd = (o: Lines, h: number) => number;

/** Rows of a block whose heading comment holds every word a removal phrase puts before a block kind word. */
export function describedBlock(o: Lines, phrase: string, blockEnd: BlockEnd): [number, number] | null {
  const m = /((?:[A-Za-z][\w-]*\s+){1,4})(?:block|section|step)s?\b/i.exec(phrase);
  if (!m) return null;
  const said = m[1]!.split(/\s+/).filter((w) => w.length > 1 && !ARTICLES.has(w.toLowerCase())).map((w) => w.toLowerCase());
  // One word says too little to pick a block by its comment.
  if (said.length < 2) return null;
  let hit: [number, number] | null = null;
  for (let j = 0; j + 1 < o.text.length; j++) {
    const body = o.blank[j] ? null : commentBody(o.norm[j]!);
    if (body === null || (j > 0 && !o.blank[j - 1] && commentBody(o.norm[j - 1]!) !== null)) continue;
    const words = new Set(body.toLowerCase().match(/[a-z][\w-]*/g) ?? []);
    if (!said.every((w) => words.has(w))) continue;
    const h = j + 1;
    if (o.blank[h] || o.indent[h] !== o.indent[j] || !OPENS_BLOCK.test(o.norm[h]!)) continue;
    if (hit) return null;
    hit = [j, blockEnd(o, h)];
  }
  return hit;
}

/**
 * Rows of the one statement block whose head names what a removal phrase calls a setup or a
 * notification ("remove the Sentry setup" → `if env("SENTRY_DSN"):` and its body, "the legacy
 * hipchat notification" → `if [[ -n "${HIPCHAT_WEBHOOK:-}" ]]; then` … `fi`), with the comment lines
 * right above it. The word must be a part of a name on the head (`SENTRY_DSN`), and no other block
 * head may hold it (nested heads are part of the block); else null.
 */
export function setupBlock(o: Lines, phrase: string, blockEnd: BlockEnd): [number, number] | null {
  const m = /\b([A-Za-z][\w-]{2,})\s+(?:setup|set-up|notification|notifications|integration|initiali[sz]ation)\b/i.exec(phrase);
  if (!m || ARTICLES.has(m[1]!.toLowerCase())) return null;
  const word = m[1]!.toLowerCase();
  let hit: [number, number] | null = null;
  for (let h = 0; h < o.text.length; h++) {
    if (o.blank[h] || (hit && h < hit[1]) || !OPENS_BLOCK.test(o.norm[h]!) || commentBody(o.norm[h]!) !== null) continue;
    if (!(o.norm[h]!.toLowerCase().match(/[a-z0-9]+/g) ?? ([] as string[])).includes(word)) continue;
    const end = blockEnd(o, h);
    if (end <= h + 1) continue;
    if (hit) return null;
    hit = [leadingComments(o, h), end];
  }
  return hit;
}

/**
 * Rows of the one test block whose title holds a name the removal phrase gives ("delete the
 * legacy-token tests" → `describe("POST /auth/legacy-token", () => {`, "delete the legacy block" →
 * `describe("legacy", …)`): `names` are the phrase's names and the word before its kind word. Blocks
 * nested in a matching one are part of it; a second match elsewhere makes it 'ambiguous'.
 */
export function titledBlock(o: Lines, names: readonly string[], blockEnd: BlockEnd): [number, number] | 'ambiguous' | null {
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  if (wanted.size === 0) return null;
  let hit: [number, number] | null = null;
  for (let h = 0; h < o.text.length; h++) {
    if (o.blank[h] || (hit && h < hit[1])) continue;
    const title = TEST_TITLE.exec(o.norm[h]!)?.[2];
    if (title === undefined || !title.toLowerCase().split(/[^\w-]+/).some((w) => wanted.has(w))) continue;
    const end = blockEnd(o, h);
    if (end <= h + 1) continue;
    if (hit) return 'ambiguous';
    hit = [h, end];
  }
  return hit;
}

/** A test block's head and its title: `describe("…", () => {`, `it '…' do`, `t.Run("…", func(t *testing.T) {`, `group('…', () {`. */
const TEST_TITLE = /^(?:describe|context|it|test|suite|group|feature|scenario|specify|[a-z]\.Run)(?:\.(?:only|skip|each|concurrent))?\s*\(?\s*(["'`])((?:\\.|(?!\1).)*)\1.*(?:\{|\bdo(?:\s*\|[^|]*\|)?|:)\s*$/;
/** Kind words a test block goes by in a removal phrase ("the legacy-token tests", "the legacy block"). */
export const TEST_KINDS = /^(?:tests?|specs?|suites?|blocks?|groups?|contexts?|cases?)$/i;

const ARTICLES = new Set(['the', 'a', 'an', 'its', 'this', 'that', 'whole', 'entire', 'old']);
/** A statement that heads a block: `if …; then`, `for … do`, `while`, a line ending in `{` or `:`. */
const OPENS_BLOCK = /^(?:if|for|while|until|case|foreach|unless|try)\b|[{:]\s*$|\b(?:then|do)$/;

/**
 * The one line that holds `name` as a whole string literal, or a code-looking `name` as a word, and
 * is one whole statement: rows [j, j + 1); 'ambiguous' when two lines carry it as a literal; else null.
 */
export function namedUnit(o: Lines, name: string): [number, number] | 'ambiguous' | null {
  const literal = new RegExp(`(["'])${escapeRe(name)}\\1`);
  // A hyphenated name (`X-XSS-Protection`, `reset-db`) is as specific as an identifier.
  const codey = /[_$]|[a-z][A-Z]|[A-Za-z0-9]-[A-Za-z]/.test(name);
  const word = wholeName(name);
  // Lines that carry the name where it can only mean that thing: a literal, or a hyphenated name as a word.
  const carriers = o.norm.filter((t, j) => !o.blank[j] && (literal.test(t) || (HYPHENATED.test(name) && word.test(t)))).length;
  let hit = -1;
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j]) continue;
    const t = o.norm[j]!;
    if (!literal.test(t) && !(codey && word.test(t))) continue;
    if (hit >= 0 || !wholeStatement(o, j)) return carriers > 1 ? 'ambiguous' : null;
    hit = j;
  }
  return hit < 0 ? null : [hit, hit + 1];
}

/** A hyphenated name as an instruction writes it: `X-XSS-Protection`, `reset-db`, `dotenv-rails`. */
export const HYPHENATED = /^[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+$/;

/**
 * Rows of the one block whose head holds the path a removal phrase names before a kind word ("remove
 * the /v1 redirect location" → `location ~ ^/v1/(.*)$ {` … `}`), with the comment lines right above
 * it. No other line of the file may hold the path; else null.
 */
export function pathBlock(o: Lines, phrase: string, blockEnd: BlockEnd): [number, number] | null {
  const m = /(?:^|\s)(\/[\w.-]+(?:\/[\w.-]+)*)\/?\s+(?:[a-z]+\s+)?(?:location|route|endpoint|handler|redirect|rewrite|block)s?\b/i.exec(phrase);
  if (!m) return null;
  const path = new RegExp(`(^|[^\\w.-])${escapeRe(m[1]!)}(?![\\w.-])`);
  let hit = -1;
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j] || !path.test(o.norm[j]!)) continue;
    if (hit >= 0) return null;
    hit = j;
  }
  if (hit < 0 || commentBody(o.norm[hit]!) !== null || !OPENS_BLOCK.test(o.norm[hit]!)) return null;
  const end = blockEnd(o, hit);
  return end <= hit + 1 ? null : [leadingComments(o, hit), end];
}

/**
 * Rows of the one mapping entry a removal phrase opens with, named bare or by a service kind word
 * ("drop mailhog — we use …", "remove the flower service"): a key alone on its line (`mailhog:`,
 * `"mailhog": {`) heading a block, the only key of that name in the file, with the comments above.
 */
export function keyedBlock(o: Lines, phrase: string, blockEnd: BlockEnd): [number, number] | null {
  const m = /^\s*(?:the\s+)?([A-Za-z][\w.-]*)\s*(?:$|[\u2014\u2013,:(]|\s+-+\s|\s+(?:service|container|job|stage|task|entry)s?\b)/i.exec(phrase);
  if (!m || ARTICLES.has(m[1]!.toLowerCase())) return null;
  const key = new RegExp(`^(["']?)${escapeRe(m[1]!)}\\1\\s*:\\s*[{[]?\\s*$`);
  let hit = -1;
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j] || !key.test(o.norm[j]!)) continue;
    if (hit >= 0) return null;
    hit = j;
  }
  if (hit < 0) return null;
  const end = blockEnd(o, hit);
  return end <= hit + 1 ? null : [leadingComments(o, hit), end];
}

/**
 * The one line that holds the words a "replace X with Y" or removal phrase names joined into one
 * name ("replace call logging with …" → `implementation("io.ktor:ktor-server-call-logging-jvm:…")`),
 * when it is one whole statement: rows [j, j + 1); else null. All of X's words (two to four plain
 * words, past its article and describing words) must be joined, in order, by `-` or `_`.
 */
export function joinedNameLine(o: Lines, phrase: string): [number, number] | null {
  const words = phrase.trim().split(/\s+/).filter((w) => w !== '');
  while (words.length > 0 && DESCRIBING.has(words[0]!.toLowerCase())) words.shift();
  while (words.length > 0 && ADVERBS.has(words[words.length - 1]!.toLowerCase())) words.pop();
  if (words.length < 2 || words.length > 4 || !words.every((w) => /^[a-z][a-z0-9]*$/.test(w))) return null;
  const joined = new RegExp(`(^|[^A-Za-z0-9])${words.join('[-_]')}(?![A-Za-z0-9])`, 'i');
  let hit = -1;
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j] || !joined.test(o.norm[j]!)) continue;
    if (hit >= 0) return null;
    hit = j;
  }
  return hit < 0 || !wholeStatement(o, hit) ? null : [hit, hit + 1];
}

const DESCRIBING = new Set(['the', 'a', 'an', 'its', 'this', 'that', 'our', 'old', 'obsolete', 'unused', 'deprecated', 'current', 'existing']);
const ADVERBS = new Set(['entirely', 'completely', 'altogether', 'too', 'also']);

/** Row h's first row with the one-line comments right above it at its indentation. */
function leadingComments(o: Lines, h: number): number {
  let start = h;
  while (start > 0 && !o.blank[start - 1] && o.indent[start - 1] === o.indent[h] && commentBody(o.norm[start - 1]!) !== null) start--;
  return start;
}

/** Row j is a statement of its own: brackets balanced, not a comment, not continued on the next line nor from the last one. */
function wholeStatement(o: Lines, j: number): boolean {
  const t = o.norm[j]!;
  if (commentBody(t) !== null || /[,({[=+&|\\]\s*$|^[.)}\]]/.test(t)) return false;
  if (bracketDelta(t.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '""')) !== 0) return false;
  let p = j - 1;
  while (p >= 0 && o.blank[p]) p--;
  return p < 0 || !/[,(\[{=+&|\\]\s*$/.test(o.norm[p]!);
}
