// Removals the instruction asks for: "Remove the `debugLog` function" when the update leaves that
// function inside a region a marker keeps. Only definitions named in the instruction, absent from the
// update, and lying wholly inside kept original text are dropped, with their decorators/leading comments.
import { lineCounts, perText, splitLines, type Lines } from './lines.js';
import { escapeRe, wholeName } from './escape-regexp.js';
import { blockEnd, definesName } from './definition-blocks.js';
import { inRanges, ownerRanges, placeOwner, qualifiedMembers, separatorToDrop } from './removal-scope.js';
import { attachedHeads } from './attached-removals.js';
import { isMarkerLine } from './markers.js';
import { describedTargets, namedByWords } from './described-targets.js';
import { describedIndexes, implOf, sectionEnd } from './spoken-targets.js';
import { describedBlock, HYPHENATED, joinedNameLine, keyedBlock, namedUnit, pathBlock, setupBlock, TEST_KINDS, titledBlock } from './named-units.js';

// A verb word after an article names a thing ("Remove the delete method"): it starts no removal phrase.
const VERBS = /(?<!\b(?:the|a|an|its|this|that|their)\s+)\b(?:remove|removes|removing|delete|deletes|deleting|drop|drops|dropping|eliminate|get rid of|strip out|stop (?:running|registering|loading))\b([^.;\n]*)/gi;
const KIND_WORDS = /\b(?:function|method|class|struct|enum|interface|type|const|constant|variable|field|column|key|route|endpoint|handler|import|rule|selector|table|test|step|job|target|module|trait|impl|def|fn|func|property|attribute|section|block|helper|action|subcommand|command|trigger|index|bucket|resource|output|overload|dataclass|record|model|component|queue|card|message|service|policy|policies|gem)s?\b/i;
const STOP = new Set(['the', 'a', 'an', 'unused', 'old', 'legacy', 'deprecated', 'and', 'or', 'from', 'in', 'of', 'to', 'with', 'this', 'that', 'it', 'its', 'all', 'now', 'which', 'also', 'code', 'line', 'lines', 'call', 'calls', 'on', 'entirely', 'completely', 'altogether']);

/** The instruction uses a removal verb ("remove", "drop", "get rid of"). */
export function asksForRemoval(instruction: string | null): boolean {
  return instruction !== null && new RegExp(VERB_AT.source, 'i').test(instruction);
}

/** Names the instruction asks to remove: backticked names, code-looking identifiers, or a word after a kind word. */
export function removalTargets(instruction: string | null): string[] {
  if (!instruction) return [];
  const out = new Set<string>();
  for (const rest of verbPhrases(qualifiedText(instruction))) for (const name of phraseTargets(removalPhrase(rest))) out.add(name);
  return [...out];
}

/**
 * The words after each removal verb, to the sentence's end or the next removal verb ("drop mypy:
 * remove it from the extras and delete the [tool.mypy] section" reads as three phrases, not one).
 */
function verbPhrases(text: string): string[] {
  const hits = [...text.matchAll(VERB_AT)];
  return hits.map((m, k) => {
    const from = m.index! + m[0].length;
    const next = k + 1 < hits.length ? hits[k + 1]!.index! : text.length;
    const stop = /[.;\n]/.exec(text.slice(from));
    return text.slice(from, Math.min(next, stop ? from + stop.index : text.length));
  });
}

/** `[tool.mypy]`, `[[bin]]`, `[flake8]`: a section header as written in the file. */
const SECTION_NAME = /\[\[?[A-Za-z_][\w.\u2024-]*\]\]?/g;
const SECTION_DOT = '\u2024';
/** Where each removal verb stands (VERBS without its phrase); not a member name (`PaymentRepo::delete`). */
const VERB_AT = new RegExp('(?<![:.$`])' + VERBS.source.replace(/\(\[\^\.;\\n\]\*\)$/, ''), 'gi');

/** `SeriesService.update` written `SeriesService::update`, so its dot does not end the sentence. */
function qualifiedText(instruction: string): string {
  // So is one inside a section name (`[tool.mypy]`): held as a one-dot leader until the phrase is read.
  return instruction.replace(/\b([A-Z][\w$]*)\.(?=[a-z_$])/g, '$1::').replace(/\[\[?[A-Za-z_][\w.-]*\]\]?/g, (m) => m.replace(/\./g, SECTION_DOT));
}

/** The names one removal phrase asks to remove (see removalTargets). */
function phraseTargets(phrase: string): string[] {
  const out = new Set<string>();
  for (const b of phrase.matchAll(/`([^`]+)`/g)) {
    const inner = b[1]!.replace(/\(\)$/, '');
    // `Owner.member` names the member (removal-scope.ts).
    const member = qualifiedMembers(inner);
    const name = member.size > 0 ? [...member.keys()][0]! : /[A-Za-z_$][\w$-]*/.exec(inner)?.[0];
    if (name) out.add(name);
  }
  // A TOML/INI section named with its brackets ("delete the [tool.mypy] section") is that header's block.
  for (const b of phrase.matchAll(SECTION_NAME)) out.add(b[0].replaceAll(SECTION_DOT, '.'));
  const plain = phrase.replace(/`[^`]*`/g, ' ').replace(SECTION_NAME, ' ');
  const qualified = qualifiedMembers(plain);
  const owners = new Set(qualified.values());
  for (const member of qualified.keys()) out.add(member);
  const hits = [...plain.matchAll(/[A-Za-z_$][\w$-]*(?:\(\))?/g)];
  const words = hits.map((m) => m[0]);
  // Words beside each other across spaces or an opening parenthesis ("the methods (move and …)"), not
  // a comma: "(function, usage line …)" lists parts, it names no function `usage`.
  const besideNext = (w: number) => /^\s*\(?\s*$/.test(plain.slice(hits[w]!.index! + words[w]!.length, hits[w + 1]!.index!));
  for (let w = 0; w < words.length; w++) {
    const word = words[w]!.replace(/\(\)$/, '');
    if (owners.has(word)) continue;
    // A code-looking word, or a plain one named by a kind word beside it ("the function dump",
    // "the unused dump method").
    const named = (w > 0 && KIND_WORDS.test(words[w - 1]!) && besideNext(w - 1)) || (w + 1 < words.length && KIND_WORDS.test(words[w + 1]!) && besideNext(w) && word.length >= 3);
    // A hyphenated lower-case name (`dotenv-rails`, `internal-egress`) is a package's or a resource's.
    const codey = /[_$]|[a-z][A-Z]|\(\)$|^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/.test(words[w]!) || (named && !STOP.has(word.toLowerCase()) && !GENERIC.has(word.toLowerCase()));
    if (codey && !STOP.has(word.toLowerCase()) && !KIND_WORDS.test(word)) out.add(word);
  }
  return [...out];
}

/** removalTargets and the definitions of `o` the removal phrases name by description (described-targets.ts). */
export function removalNames(o: Lines, instruction: string | null, shownPairs?: ReadonlySet<string>): string[] {
  if (!instruction) return [];
  const targets = removalTargets(instruction);
  const phrases = verbPhrases(qualifiedText(instruction)).map(removalPhrase);
  // A definition named by its words ("the legacy uploads backup"): a phrase with no name nor kind word.
  const byWords = namedByWords(o, phrases, definesName, blockEnd);
  if (targets.length === 0) return byWords;
  const described = [...describedTargets(o, phrases, definesName, blockEnd, shownPairs), ...byWords, ...phrases.flatMap((p) => describedIndexes(o, p))];
  return described.length === 0 ? targets : [...new Set([...targets, ...described])];
}

/**
 * What "replace X with Y" says goes: X, when it names a thing whole ("replace the status index with a
 * partial index", "Replace the legacy v_order_totals view with …"), not a part or the uses of one
 * ("replace calls to `fetch` with …", "replace the body of parse with …"). Y is what the update shows.
 */
export function replacedPhrases(instruction: string | null): string[] {
  if (!instruction) return [];
  const out: string[] = [];
  for (const m of qualifiedText(instruction).matchAll(REPLACED)) {
    const what = removalPhrase(m[1]!);
    if (what === m[1] && !PART_WORDS.test(what) && what.trim().split(/\s+/).length <= 5) out.push(what);
  }
  return out;
}

/** "replace X with", X within one sentence. */
const REPLACED = /(?<![:.$`])\breplac(?:e|es|ing)\s+([^.;\n]+?)\s+with\b/gi;
/** Words that make X a part, a use or a property of a thing rather than the thing. */
const PART_WORDS = /\b(?:calls?|uses?|usages?|references?|occurrences?|instances?|body|bodies|contents?|implementation|logic|loop|value|values|default|defaults|type|types|import|imports|argument|arguments|param(?:eter)?s?|condition|check|line|lines|string|text|message|name|names|url|path|version|all|every|each|any|of|to|in|inside|within|for|by)\b/i;

/**
 * The definitions a "replace X with Y" instruction removes (replacedPhrases): those X names or
 * describes (described-targets.ts), one the update (as written) does not mention.
 */
export function replacedNames(o: Lines, instruction: string | null, written: string, shownPairs?: ReadonlySet<string>): string[] {
  const phrases = replacedPhrases(instruction);
  if (phrases.length === 0) return [];
  const named = phrases.flatMap(phraseTargets);
  const described = describedTargets(o, phrases, definesName, blockEnd, shownPairs).filter((n) => !named.includes(n));
  return [...new Set([...named, ...described])].filter((n) => definitionCount(o, n) === 1 && !updateMentions(written, n, o));
}

/**
 * The parameter that picks one overload of a removal target: "the SetAsync overload that takes
 * ttlSeconds", "the `parse` function with the `strict` parameter" → SetAsync → ttlSeconds.
 */
export function removalParams(instruction: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!instruction) return out;
  for (const rest of verbPhrases(qualifiedText(instruction))) {
    const m = /\b(?:that|which)\s+(?:takes|accepts|has)\s+(?:an?\s+|the\s+)?`?([A-Za-z_$][\w$]*)`?|\bwith\s+(?:the\s+|an?\s+)?`?([A-Za-z_$][\w$]*)`?\s+(?:param(?:eter)?|argument)\b/i.exec(rest);
    const param = m ? (m[1] ?? m[2])! : null;
    if (!param) continue;
    for (const name of phraseTargets(removalPhrase(rest.slice(0, m!.index)))) if (name !== param) out.set(name, param);
  }
  return out;
}

/** The definition headed by row h declares `param` (on its head or the next lines up to its opening bracket); true when no parameter is asked for. */
export function takesParam(o: Lines, h: number, param: string | undefined): boolean {
  if (param === undefined) return true;
  const word = new RegExp(`(^|[^\\w$])${escapeRe(param)}(?![\\w$])`);
  for (let j = h; j < o.text.length && j < h + 8; j++) {
    if (word.test(o.text[j]!)) return true;
    if (/[{:]\s*$|=>\s*$/.test(o.text[j]!)) break;
  }
  return false;
}

/**
 * The owner each removal target must lie in: `SeriesService.update` → update in SeriesService;
 * "the show action from InvoiceController" → show in InvoiceController (removal-scope.ts).
 */
export function removalScopes(instruction: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!instruction) return out;
  for (const rest of verbPhrases(qualifiedText(instruction))) {
    const what = removalPhrase(rest);
    const place = /\s(?:from|in|inside|within)\s(.*)$/i.exec(rest.slice(0, rest.indexOf(what) + what.length + 200))?.[1];
    const owner = place === undefined ? null : placeOwner(place);
    for (const [member, of] of qualifiedMembers(what.replace(/`/g, ''))) out.set(member, of);
    if (owner) for (const name of phraseTargets(what)) if (!out.has(name)) out.set(name, owner);
  }
  return out;
}

/**
 * The part of the words after a removal verb that says what goes: "Remove `a` and update B" — the
 * names after another verb are not removals; "Delete the ReleaseAsync method from StockService" —
 * the names after a place word say where it goes from, not what goes.
 */
function removalPhrase(rest: string): string {
  // A name after "by" / "because" / "instead of" (or in an aside saying what holds "now") is what takes the removed thing's place or the reason,
  // not a target ("drop the reducer (priority is set by saveTodo now)"): an aside holding such a word
  // goes whole, and the phrase ends at one. An aside that only lists names ("the pads (`padLeft`,
  // `padRight`)") stays.
  const plain = rest.replace(/\([^()]*\b(?:by|because|since|instead|favou?r|now|replaced|superseded)\b[^()]*\)/gi, ' ').split(/\s(?:by|because|since|instead of)\s/i)[0]!;
  const what = plain.split(/\b(?:and|then|but)\s+(?:update|add|change|rename|make|fix|modify|set|use|replace|move|keep|bump|increase|decrease|edit|adjust|return|log|call)\b/i)[0]!;
  return what.split(/\s(?:from|in|inside|within)\s/i)[0]!;
}

/** What a removal phrase says goes, split off the names after a second verb ("… and update X"). */
function removalPhrases(instruction: string | null): string[] {
  if (!instruction) return [];
  const out: string[] = [];
  for (const m of instruction.matchAll(VERBS)) {
    out.push(removalPhrase(m[1] ?? ''));
  }
  return out;
}

const GENERIC = new Set([...STOP, 'debug', 'debugging', 'logging', 'extra', 'stray', 'leftover', 'temporary', 'these', 'those', 'any', 'every', 'each']);

/**
 * Calls the instruction removes as statements: "Remove the debug print statements" → `print`,
 * "drop the console.log calls" / "remove calls to `trace`" → `console.log`, `trace`.
 */
export function statementTargets(instruction: string | null): string[] {
  const out = new Set<string>();
  for (const phrase of removalPhrases(instruction)) {
    for (const m of phrase.matchAll(/(?:`([^`]+)`|([A-Za-z_$][\w$.]*))(?:\(\))?\s+(?:statements?|calls?|invocations?)\b/gi)) {
      const name = /^[A-Za-z_$][\w$.]*/.exec((m[1] ?? m[2]!).replace(/\(.*$/, ''))?.[0];
      if (name && !GENERIC.has(name.toLowerCase()) && !KIND_WORDS.test(name)) out.add(name);
    }
    for (const m of phrase.matchAll(/\bcalls?\s+to\s+(?:the\s+)?`?([A-Za-z_$][\w$.]*)/gi)) if (!GENERIC.has(m[1]!.toLowerCase())) out.add(m[1]!);
  }
  return [...out];
}

/** Whether a line is one whole call statement of `name` (`print("x", y)`, `console.log(a);`, `log.debug(…)`). */
export function callsName(norm: string, name: string): boolean {
  if (!new RegExp(`^(?:await\\s+)?${escapeRe(name)}(?:\\.[\\w$]+)*\\s*\\(`).test(norm)) return false;
  if (!/\)\s*;?$/.test(norm)) return false;
  let depth = 0;
  for (const ch of norm) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
  }
  return depth === 0;
}

/**
 * Original lines that are call statements the instruction removes (`statementTargets`), where the
 * update shows the code around them (the line above or below it): "the debug print statements" are
 * those in the hunks the update rewrites, not every `print` of the file (a script's output stays).
 */
export function instructedStatements(o: Lines, instruction: string | null, shown: ReadonlySet<string>): Set<number> {
  const out = new Set<number>();
  const names = statementTargets(instruction);
  if (names.length === 0) return out;
  const neighbour = (j: number, dir: 1 | -1): string | undefined => {
    let y = j + dir;
    while (y >= 0 && y < o.text.length && o.blank[y]) y += dir;
    return o.norm[y];
  };
  for (let j = 0; j < o.text.length; j++) {
    if (o.blank[j] || shown.has(o.norm[j]!) || !names.some((n) => callsName(o.norm[j]!, n))) continue;
    const above = neighbour(j, -1);
    const below = neighbour(j, 1);
    if ((above !== undefined && shown.has(above)) || (below !== undefined && shown.has(below))) out.add(j);
  }
  return out;
}

/** End (exclusive) of what removing the definition headed by row h removes: a Markdown section to the next heading of its level, else its block. */
export function removalEnd(o: Lines, h: number): number {
  const section = sectionEnd(o, h);
  return section >= 0 ? section : blockEnd(o, h);
}

/** Lines of `o` that define `name`. */
function definitionCount(o: Lines, name: string): number {
  let n = 0;
  for (let h = 0; h < o.text.length; h++) if (!o.blank[h] && definesName(o.text[h]!, name)) n++;
  return n;
}

/** Some line defining `name` is not kept (the merge left it out). */
function droppedAlready(o: Lines, kept: Uint8Array, name: string, ranges: Array<[number, number]> | null = null): boolean {
  // A one-line key of that name in a block the update rewrote (`reports = aws_s3_bucket.reports.arn`) is not such a definition.
  for (let h = 0; h < o.text.length; h++) if (!kept[h] && !o.blank[h] && definesName(o.text[h]!, name) && inRanges(ranges, h) && blockEnd(o, h) > h + 1) return true;
  return false;
}

/**
 * Original lines to drop. `kept[j]` says whether original line j survives through a marker region;
 * `updateText` is the update, which must not mention a target for it to be removed.
 * `written` is the update as its writer wrote it (before marker-expansion.ts wrote original bodies
 * in for markers): a name it mentions is shown, one only an expanded marker brought in is not (a
 * `Form {` body marker "General and Text sections" expanded with the Privacy section it removes).
 */
export function instructedRemovals(o: Lines, kept: Uint8Array, instruction: string | null, updateText: string, done?: (name: string) => boolean, attachedTexts?: ReadonlySet<string>, written = updateText): Set<number> {
  const removed = new Set<number>();
  const scopes = removalScopes(instruction);
  const params = removalParams(instruction);
  const pairs = consecutivePairs(updateText.split('\n').map((l) => l.trim()), o);
  for (const name of [...removalNames(o, instruction, pairs), ...replacedNames(o, instruction, written, pairs)]) {
    if (updateMentions(written, name, o)) continue;
    // A definition of the name the merge already dropped (the update showed its neighbours adjacent)
    // was the one meant: another of that name (the interface method a handler implements) stays (set j go04).
    const owner = scopes.get(name);
    const ranges = owner === undefined ? null : ownerRanges(o, owner, definesName, blockEnd);
    if (droppedAlready(o, kept, name, ranges) || done?.(name)) continue;
    // The first definition of the name; after it, only the type's `impl` blocks (spoken-targets.ts).
    let found = false;
    for (let h = 0; h < o.text.length; h++) {
      if (!kept[h] || o.blank[h] || !definesName(o.text[h]!, name) || !inRanges(ranges, h) || !takesParam(o, h, params.get(name))) continue;
      if (found && !implOf(o.text[h]!, name)) continue;
      if (removeDefinitionAt(o, kept, h, removed)) found = true;
    }
  }
  // Units no definition head names (named-units.ts), each the one match in the file.
  for (const [start, end] of instructedUnits(o, instruction, written)) removeRowsAt(o, kept, start, end, removed);
  // What belongs to a removed definition, when the phrase says so (attached-removals.ts).
  for (const h of attachedRemovalHeads(o, instruction, updateText)) if (kept[h]) removeDefinitionAt(o, kept, h, removed);
  // The same heads found in the original, for a merged file that no longer holds what they belong to.
  if (attachedTexts) for (let h = 0; h < o.text.length; h++) if (kept[h] && !removed.has(h) && o.indent[h] === 0 && attachedTexts.has(o.norm[h]!)) removeDefinitionAt(o, kept, h, removed);
  if (removed.size > 0) oneSeparator(o, kept, removed);
  return removed;
}

/**
 * Adjacent removed blocks each dropped one separator, the same one at times: across a stretch of
 * removed and blank rows, as many blank rows remain as the longer separator at its two edges had
 * (extra kept ones go, those above first).
 */
function oneSeparator(o: Lines, kept: Uint8Array, removed: Set<number>): void {
  for (let a = 0; a < o.text.length; ) {
    if (!(o.blank[a] || removed.has(a))) {
      a++;
      continue;
    }
    let b = a;
    while (b + 1 < o.text.length && (o.blank[b + 1] || removed.has(b + 1))) b++;
    let lead = 0;
    while (a + lead <= b && o.blank[a + lead]) lead++;
    let trail = 0;
    while (b - trail >= a && o.blank[b - trail]) trail++;
    const left: number[] = [];
    for (let j = a; j <= b; j++) if (o.blank[j] && !removed.has(j)) left.push(j);
    const want = a === 0 || b === o.text.length - 1 ? left.length : Math.max(lead, trail);
    if (lead <= b - a && left.length > want) for (const j of left.slice(0, left.length - want)) if (kept[j]) removed.add(j);
    a = b + 1;
  }
}

/** "a\u0000b" for each two consecutive non-blank lines (normalised) with no marker between them. */
export function consecutivePairs(norms: readonly string[], o: Lines): Set<string> {
  const shown = new Set(o.norm);
  const out = new Set<string>();
  let prev: string | null = null;
  for (const n of norms) {
    if (n === '') continue;
    if (isMarkerLine(n, shown)) {
      prev = null;
      continue;
    }
    if (prev !== null) out.add(`${prev}\u0000${n}`);
    prev = n;
  }
  return out;
}

/**
 * The update names `name` on a line of code: a marker that says what it stands for
 * (`# ... other buckets unchanged (artifacts bucket resources removed) ...`) shows nothing.
 */
function updateMentions(updateText: string, name: string, o: Lines): boolean {
  const word = wholeName(name);
  if (!word.test(updateText)) return false;
  const shown = new Set(o.text.map((t) => t.trim()));
  return updateText.split('\n').some((line) => word.test(line) && !isMarkerLine(line, shown));
}

/** Lines above a definition that belong to it: decorators, attributes (`[Obsolete(…)]`), comments (an ML `(* … *)` too, not a `(*p)` dereference). */
export const LEADING = /^(@|\/\/|#(?!include)|\/\*|\(\*(?=\s|\*|$)|\*|--|;|<!--|"""|'''|\/\/\/|\[[A-Z][\w.]*(?:\(.*\))?\]$)/;

/** Adds the definition headed by row h (with its leading comments and one separator) to `removed` when the merge kept all of it. */
function removeDefinitionAt(o: Lines, kept: Uint8Array, h: number, removed: Set<number>): boolean {
  let start = h;
  const section = sectionEnd(o, h);
  while (section < 0 && start > 0 && kept[start - 1] && !o.blank[start - 1] && o.indent[start - 1] === o.indent[h] && LEADING.test(o.norm[start - 1]!)) start--;
  return removeRowsAt(o, kept, start, removalEnd(o, h), removed);
}

/** Adds rows [start, end) (and one separator) to `removed` when the merge kept all of them. */
function removeRowsAt(o: Lines, kept: Uint8Array, start: number, end: number, removed: Set<number>): boolean {
  for (let j = start; j < end; j++) if (!kept[j]) return false;
  for (let j = start; j < end; j++) removed.add(j);
  // The blank lines separating it from what follows go with it (those before it stay as the
  // separator), unless the update shows those (they stay) or none follow before its enclosing
  // block closes: then the blank lines before it go, so one separator remains (removal-scope.ts).
  if (start === 0 || o.blank[start - 1]) {
    for (const j of separatorToDrop(o, kept, start, end)) removed.add(j);
  }
  if (end >= o.text.length) for (let j = start - 1; j >= 0 && o.blank[j] && kept[j]; j--) removed.add(j);
  return true;
}

/**
 * Rows [start, end) of the units the instruction removes that no definition names (named-units.ts):
 * a name the file defines nowhere, or a block described by its heading comment; none the update
 * (as written) mentions. Names that two units carry go to `ambiguous` (nothing of theirs is removed).
 */
export function instructedUnits(o: Lines, instruction: string | null, written: string, ambiguous: string[] = []): Array<[number, number]> {
  if (!instruction) return [];
  const out: Array<[number, number]> = [];
  const targets = removalTargets(instruction);
  for (const name of targets) {
    if (definitionCount(o, name) > 0 || updateMentions(written, name, o)) continue;
    const unit = namedUnit(o, name);
    if (unit === 'ambiguous') ambiguous.push(name);
    else if (unit) out.push(unit);
  }
  const shown = new Set(written.split('\n').map((l) => l.trim()));
  for (const phrase of verbPhrases(qualifiedText(instruction)).map(removalPhrase)) {
    const unit = describedBlock(o, phrase, blockEnd);
    if (unit && !shown.has(o.norm[unit[0]]!) && !shown.has(o.norm[unit[0] + 1]!)) out.push(unit);
    const setup = setupBlock(o, phrase, blockEnd);
    if (setup && !setupShown(o, setup, shown)) out.push(setup);
    // A test block titled by the name, when no definition and no line the update shows names it.
    // (A name removalTargets holds that labels a block is removed as a definition already.)
    const titles = testTitleNames(phrase).filter((n) => !(targets.includes(n) && definitionCount(o, n) > 0) && !updateMentions(written, n, o));
    const titled = titledBlock(o, titles, blockEnd);
    if (titled === 'ambiguous') ambiguous.push(...titles);
    else if (titled && !shown.has(o.norm[titled[0]]!)) out.push(titled);
    // A block of look-alike entries (`ports:` in every service) is shown only by a line the original has once.
    for (const unit of [pathBlock(o, phrase, blockEnd), keyedBlock(o, phrase, blockEnd)]) if (unit && !ownLineShown(o, unit, shown)) out.push(unit);
  }
  // What the phrases name the way the file writes it, not as an identifier: a hyphenated name
  // (`X-XSS-Protection`), or X's words joined into one (`call logging` → `…-call-logging-…`); a
  // "replace X with Y" names X for this too, whatever its words (Y is what the update shows).
  for (const phrase of [...verbPhrases(qualifiedText(instruction)).map(removalPhrase), ...replacedObjects(instruction)]) {
    for (const name of hyphenatedNames(phrase)) {
      if (targets.includes(name) || definitionCount(o, name) > 0 || updateMentions(written, name, o)) continue;
      const unit = namedUnit(o, name);
      if (unit === 'ambiguous') ambiguous.push(name);
      else if (unit) out.push(unit);
    }
    const joined = joinedNameLine(o, phrase);
    if (joined && !shown.has(o.norm[joined[0]]!)) out.push(joined);
  }
  return out;
}

/** The update shows a line of rows [start, end) that the original has nowhere else. */
function ownLineShown(o: Lines, [start, end]: [number, number], shown: ReadonlySet<string>): boolean {
  const counts = originalCounts(o);
  for (let j = start; j < end; j++) if (!o.blank[j] && shown.has(o.norm[j]!) && counts.get(o.norm[j]!) === 1) return true;
  return false;
}

const originalCounts = perText((l) => lineCounts(l));

/** The hyphenated names a phrase writes (`X-XSS-Protection`, `reset-db`). */
function hyphenatedNames(phrase: string): string[] {
  return (phrase.match(/[A-Za-z][\w-]*/g) ?? []).filter((w) => HYPHENATED.test(w));
}

/** X of each "replace X with Y" (at most five words), read like a removal phrase; parts and uses too. */
function replacedObjects(instruction: string): string[] {
  const out: string[] = [];
  for (const m of qualifiedText(instruction).matchAll(REPLACED)) {
    const what = removalPhrase(m[1]!);
    if (what.trim().split(/\s+/).length <= 5) out.push(what);
  }
  return out;
}

/** The update shows a line of the block (then it is edited, not removed). */
function setupShown(o: Lines, [start, end]: [number, number], shown: ReadonlySet<string>): boolean {
  for (let j = start; j < end; j++) if (!o.blank[j] && !o.weak[j] && shown.has(o.norm[j]!)) return true;
  return false;
}

/** The name a removal phrase gives a test block by: the word before a test kind word ("the legacy-token tests" → legacy-token). */
function testTitleNames(phrase: string): string[] {
  const words = phrase.replace(/`/g, '').match(/[A-Za-z_$][\w$-]*/g) ?? [];
  const k = words.findIndex((w, i) => i > 0 && TEST_KINDS.test(w));
  if (k < 0) return [];
  const before = words[k - 1]!;
  return before.length < 3 || ARTICLE_WORDS.has(before.toLowerCase()) ? [] : [before];
}

const ARTICLE_WORDS = new Set(['the', 'a', 'an', 'its', 'this', 'that', 'these', 'those', 'all', 'two', 'both', 'failing', 'flaky', 'skipped', 'old', 'unused']);

/**
 * Header rows of the definitions that belong to one the instruction removes ("the labels table, its
 * trigger and its index"; attached-removals.ts), per removal phrase; none the update mentions.
 */
export function attachedRemovalHeads(o: Lines, instruction: string | null, updateText: string): number[] {
  if (!instruction) return [];
  const out = new Set<number>();
  for (const rest of verbPhrases(qualifiedText(instruction))) {
    const names = phraseTargets(removalPhrase(rest)).filter((n) => !updateMentions(updateText, n, o));
    if (names.length === 0) continue;
    // The definition each name removes: its first (removeDefinitionAt's); others of that name may belong to it.
    const rows: number[] = [];
    for (const n of names) {
      const h = o.text.findIndex((t, j) => !o.blank[j] && definesName(t, n));
      if (h >= 0) rows.push(h);
    }
    for (const h of attachedHeads(o, rest, rows, updateText, blockEnd)) out.add(h);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * The instruction's removals applied to a merged file: a definition it names that is still there
 * (the update showed context the merge matched inside it, so it was not wholly kept) is dropped,
 * unless the update itself mentions the name. Line endings are kept.
 */
export function removeInstructed(content: string, instruction: string | null, updateText: string, original?: string, written = updateText): string {
  if (removalTargets(instruction).length === 0) return content;
  const o = splitLines(content);
  const all = new Uint8Array(o.text.length).fill(1);
  // Names the merge already removed a definition of (the content holds fewer than the original) are done.
  const before = original === undefined ? null : splitLines(original);
  const attached = before ? new Set(attachedRemovalHeads(before, instruction, updateText).map((h) => before.norm[h]!)) : undefined;
  const removed = instructedRemovals(o, all, instruction, updateText, before ? (name) => definitionCount(before, name) > definitionCount(o, name) : undefined, attached, written);
  if (removed.size === 0) return content;
  let out = '';
  for (let j = 0; j < o.text.length; j++) if (!removed.has(j)) out += o.text[j]! + o.eol[j]!;
  // The file's last line kept its terminator state only if it survived: a removed tail leaves the
  // new last line's own terminator, which matches the original convention when it had one.
  if (!o.finalNewline && out.endsWith('\n')) out = out.replace(/\r?\n$/, '');
  return out;
}
