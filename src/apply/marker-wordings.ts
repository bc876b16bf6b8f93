// Marker comments that say what they stand for in words rather than with dots or a stock phrase:
// `# (concurrency and jobs unchanged)`, `// (unchanged: SYMBOLS, formatMoney)`, `/* snip: remaining
// handlers are the same */`, `// [remaining methods omitted for brevity]`, `# ... [[bin]] unchanged ...`.
// Reading such a comment as a marker keeps the code it stands for; reading it as a new comment
// would take the code around it as adjacent anchors and drop what lies between, so when in doubt
// between the two the marker reading is the safe one. Imperatives (`# leave unchanged`) and
// sentences (`// unchanged if the cache is warm`) are ordinary comments.

/** The note ends by saying the things it names are left out or left as they were. */
const ENDS_ELIDED =
  /\b(?:unchanged|omitted|elided|snipped|skipped|not shown|as before|(?:is|are|stays?|remains?) (?:the )?same|for brevity)$/i;
/** The note opens with the elision word, then names what it stands for (`unchanged: a, b`, `snip`). */
const OPENS_ELIDED = /^(?:unchanged|omitted|elided|snip(?:ped)?|skipped)\b:?\s*(.*)$/i;
/** A first word that makes the note an instruction or a remark, not a stand-in for code. */
const REMARK_START = /^(?:leave|keep|must|should|do|don't|never|always|may|will|make|ensure|note|todo|fixme|returns?|is|was)\b/i;
/** Words of a sentence: a stand-in names things, it does not state conditions. */
const SENTENCE_WORD = /\b(?:if|when|unless|because|since|until|while|but|so|then|otherwise)\b/i;
/** What the text may hold: words, names (`_expected`, `[[bin]]`, `a.b`, globs `Get*`) and light punctuation; no code. */
const NAMES = /^[\w\s'",:()/&+.[\]<>*-]*$/;

/**
 * A note's text with the `!` or `?` that ends a Ruby, Elixir or Crystal name (`renew!`, `valid?`,
 * `get_product!/1`) dropped: the name is still a name, so the note still only names things.
 */
export function withoutNameSuffixes(text: string): string {
  return text.replace(/(\w)[!?](?=[\s/,.)\]]|$)/g, '$1');
}

/**
 * True when a comment body (brackets and dots already stripped, or not) reads as a marker that
 * names what it stands for: at most 10 words, no code punctuation, no sentence or imperative.
 */
export function elisionNote(words: string): boolean {
  const w = withoutNameSuffixes(words).replace(/(?:\.{2,}|…)/g, ' ').replace(/^[[(]\s*|\s*[\])]$/g, '').trim();
  if (w.length === 0 || w.length > 100 || !NAMES.test(w)) return false;
  const count = w.split(/\s+/).length;
  if (count > 10 || REMARK_START.test(w) || SENTENCE_WORD.test(w)) return false;
  if (ENDS_ELIDED.test(w)) return true;
  const open = OPENS_ELIDED.exec(w);
  // `unchanged: a, b`, `snip`, or a span: `unchanged up to the status filter`.
  return open !== null && (open[1]!.split(/\s+/).filter(Boolean).length <= 4 || SPAN.test(open[1]!));
}

/** What follows an opening elision word to say how far it reaches. */
const SPAN = /^(?:up to|down to|through|from)\b/i;

/**
 * A note between dots on both sides (`# ... inside StatementImporter.load ...`, `// ... inside
 * .sidebar__item ...`): the dots make it a marker whatever it says, as long as it names things
 * (dotted names and selectors included) and is no code.
 */
export function dottedNote(body: string): boolean {
  const b = body.trim();
  if (!/^(?:\.{2,}|…)/.test(b) || !/(?:\.{2,}|…)$/.test(b)) return false;
  const w = withoutNameSuffixes(b.replace(/^(?:\.{2,}|…)|(?:\.{2,}|…)$/g, '').trim());
  return w.length > 0 && w.length <= 100 && NAMES.test(w) && w.split(/\s+/).length <= 12;
}
