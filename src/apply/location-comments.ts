// Location comments: how a model says where a snippet goes. A comment that opens a hunk and only
// names a place — `# in ProjectRepository`, `// inside FooService`, `<!-- in the <head> -->`,
// `# ReceiptsController`, `// file: src/app.ts` — is placement, not content: the expected file
// never has it (k py06, k rb07). It is taken out of the update, and the names it gives join the
// instruction (as "in `Name`"), where the twin tie-breaks (instruction-scope.ts, the syntax pass)
// and the owner of a new definition (new-definition.ts) already read them.
//
// Only a comment that is no original line, stands first in its hunk (after the update's start or
// a marker) and says nothing but the place; the name must be one the original has (a bare name: one
// it defines), so a prose comment (`// in case the cache is cold`) stays.
import { escapeRe } from './escape-regexp.js';
import { splitLines, type Lines } from './lines.js';
import { commentBody, markerLines } from './markers.js';
import { hunkHeadingNumber, leadingConnectiveDropped, markerFor, separatesHunks } from './hunk-separator.js';
import { definesName } from './definition-blocks.js';
import { onwardNote, shortNote } from './moving-note.js';
import { hunkCursor } from './hunk-openers.js';

const PLACE_KINDS = 'class|struct|module|object|impl|interface|trait|enum|namespace|component|section|function|method|file|type|record|element|tag|block|controller|service';
/** `the class `, `the `, or nothing: what may stand between the preposition and the place's name. */
const PLACE_ARTICLE = `\\s+(?:the\\s+)?(?:(?:${PLACE_KINDS})\\s+)?[\`'"]?`;
/** A kind word after the name (`the FooService class`). */
const PLACE_KIND_AFTER = `[\`'"]?(?:\\s+(?:${PLACE_KINDS}))?\\s*`;
/** `in ProjectRepository`, `inside the FooService class`, `in the <head>:`, `(in Foo.bar)`. */
const IN_PLACE = new RegExp(
  `^(?:in|inside|within|into|under)${PLACE_ARTICLE}<?([\\w$.:#/-]+?)>?(?:\\(\\))?${PLACE_KIND_AFTER}:?$`,
  'i',
);
/**
 * `In ShipOrder, allow shipping from pending:`: a place, a comma, then a short note that ends with a
 * colon and announces the code after it; or a place and a colon, then the note (`in router(): add the
 * PATCH route`). The place must be a name the original defines, so a code
 * comment such as `// in Go, a nil map panics on write:` stays.
 */
const IN_PLACE_NOTE = new RegExp(
  `^(?:in|inside|within)${PLACE_ARTICLE}([\\w$.:#]+?)(?:\\(\\))?${PLACE_KIND_AFTER}(?:,\\s*(.+:)|:\\s+(.+[^:]))$`,
  'i',
);
/**
 * Longest note after a place, in words: the place must be a name the original defines and the note
 * end with a colon, so a longer sentence (`In JournalRepository, replace void() so it refuses to void
 * drafts and records who did it:`) is still a model's note, not a code comment.
 */
const PLACE_NOTE_WORDS = 20;
/** `ConnectionPool, private section`: a class the original defines and one of its access sections. */
const SECTION_PLACE = /^`?([A-Za-z_$][\w$]*)`?(?:,\s*|\s+)\(?(?:the\s+)?(?:public|private|protected|internal)\s+(?:section|part|members)\)?:?$/i;
/** `file: src/app.ts`, `path: x`, or a bare path `src/app.ts` (first line of the update only). */
const FILE_PLACE = /^(?:(?:file(?:name)?|path)\s*:\s*\S+|[\w.-]+(?:\/[\w.-]+)*\.[A-Za-z]{1,6})$/i;
/** A bare definition name, possibly qualified: `ReceiptsController`, `UserService.create`, `Cart::total`, `code():`. */
const BARE_NAME = /^`?([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)(\(\))?`?(:?)$/;

export interface LocatedUpdate {
  update: string;
  /** The names the location comments give (owner first when qualified). */
  names: string[];
}

/** The update without its location comments and the names they give, or null when it has none. */
export function locationComments(update: string, code: string): LocatedUpdate | null {
  const u = splitLines(update);
  const o = splitLines(code);
  const originalNorms = new Set(o.norm);
  const marker = markerLines(u.text, o.text);
  const drop = new Uint8Array(u.text.length);
  const marked = new Uint8Array(u.text.length);
  const names: string[] = [];
  const numbered = numberedHeadings(u, originalNorms);
  // A comment above the first numbered heading titles the list (`// Add stale-while-revalidate support.`).
  for (let i = 0; numbered.length > 0 && i < numbered[0]!; i++) drop[i] = 1;
  const hunks = hunkCursor(u, marker);
  for (let i = 0; i < u.text.length; i++) {
    if (drop[i]) continue;
    const at = hunks.at(i);
    if (!at) continue;
    const { opens: wasStart, first: wasFirst } = at;
    if (originalNorms.has(u.norm[i]!)) continue;
    if (numbered.includes(i)) {
      // Numbered headings name the hunks in turn: each ends the hunk before it, like a marker.
      if (wasFirst) drop[i] = 1;
      else marked[i] = 1;
      for (let j = i - 1; j >= 0 && u.blank[j]; j--) drop[j] = 1;
      for (let j = i + 1; j < u.text.length && u.blank[j]; j++) drop[j] = 1;
      hunks.reopen();
      continue;
    }
    // Set apart by a blank line after a hunk, it also ends that hunk (hunk-separator.ts).
    if (!wasStart) {
      const place = separatingNote(u, i, o, code, originalNorms);
      if (!place) continue;
      marked[i] = 1;
      // The blank lines before it set the hunks apart in the update; the marker keeps the file's own.
      for (let j = i - 1; j >= 0 && u.blank[j]; j--) drop[j] = 1;
      names.push(...place);
      hunks.reopen();
      continue;
    }
    const body = commentBody(u.text[i]!)?.replace(/^\((.*)\)$/, '$1').trim();
    if (!body) continue;
    // After a marker and a blank line, `# and in the client:` is the same note.
    const place = placeNames(body, o.text, code, wasFirst) ?? (!wasFirst && u.blank[i - 1] && onwardNote(body) ? [] : null);
    if (!place) continue;
    // A note that opens the update says the hunk is somewhere inside the file, not at its head.
    if (wasFirst && IN_PLACE_NOTE.test(body)) marked[i] = 1;
    else drop[i] = 1;
    names.push(...place);
    // The blank lines after it go with it; the next line opens the hunk.
    for (let j = i + 1; j < u.text.length && u.blank[j]; j++) drop[j] = 1;
    hunks.reopen();
  }
  if (!drop.includes(1) && !marked.includes(1)) return null;
  return { update: u.text.map((t, i) => (drop[i] ? '' : (marked[i] ? markerFor(t) : t) + u.eol[i]!)).join(''), names };
}

/**
 * The names a comment that sets row i apart from the hunk above (after a blank line) places the next
 * hunk by, [] for a note that names no place (`// and in the init:`, `# imports`), null when row i is
 * no such note. Row i must be no original line.
 */
export function separatingNote(u: Lines, i: number, o: Lines, code: string, originalNorms: ReadonlySet<string>): string[] | null {
  const note = separatesHunks(u, i) ? commentBody(u.text[i]!) : null;
  if (note === null) return null;
  // A note that only says the update goes on elsewhere (`// and in the init:`) separates too.
  return placeNames(leadingConnectiveDropped(note), o.text, code, false, true) ?? (onwardNote(note) || namesNextKeyword(note, u, i, originalNorms) ? [] : null);
}

/**
 * Rows of comments that number the update's hunks — `// 1) in getOrLoad, after the bypass check:`,
 * `// 2) new option on GetOrLoadOptions` — when two or more, none an original line, each opening the
 * update or standing after a blank line, count up from 1 (a heading a prose locator took out leaves
 * a gap); [] otherwise. Comments before the first one are comments too, or there is none.
 */
function numberedHeadings(u: Lines, originalNorms: ReadonlySet<string>): number[] {
  const rows: number[] = [];
  let last = 0;
  let commentsOnly = true;
  for (let i = 0; i < u.text.length; i++) {
    if (u.blank[i]) continue;
    const body = originalNorms.has(u.norm[i]!) ? null : commentBody(u.text[i]!);
    const k = body === null || (i > 0 && !u.blank[i - 1]) ? null : hunkHeadingNumber(body.trim());
    if (k === null) {
      if (rows.length === 0 && body === null) commentsOnly = false;
      continue;
    }
    if (k <= last || (rows.length === 0 && k !== 1)) return [];
    if (rows.length === 0 && !commentsOnly) return [];
    rows.push(i);
    last = k;
  }
  return rows.length >= 2 ? rows : [];
}

/** `Cart::total` → [Cart, total]: a qualified name's parts, owner first. */
function nameParts(place: string): string[] {
  return place.split(/\.|::|#/).filter(Boolean);
}

/** The names a comment body places the hunk by, [] for a file path, null when it is no location. */
function placeNames(body: string, origText: readonly string[], code: string, first: boolean, between = false): string[] | null {
  const inPlace = IN_PLACE.exec(body);
  if (inPlace) {
    const place = inPlace[1]!;
    const parts = nameParts(place);
    // A name the original has as a word places the hunk; a file path only says which file.
    if (parts.length > 0 && usesWord(code, parts[0]!)) return parts;
    return /\/|\.[A-Za-z]{1,6}$/.test(place) ? [] : null;
  }
  const noted = IN_PLACE_NOTE.exec(body);
  if (noted && shortNote(noted[2] ?? noted[3]!, PLACE_NOTE_WORDS)) {
    const parts = nameParts(noted[1]!);
    if (parts.length > 0 && origText.some((t) => definesName(t, parts[0]!))) return parts;
  }
  const section = SECTION_PLACE.exec(body);
  if (section && origText.some((t) => definesName(t, section[1]!))) return [section[1]!];
  const bare = BARE_NAME.exec(body);
  if (bare) {
    const parts = nameParts(bare[1]!);
    // A lone lowercase word may be a section comment; a type name, a qualified one or a call (`code()`) is a place.
    if ((parts.length > 1 || /[A-Z]/.test(parts[0]!) || bare[2]) && origText.some((t) => definesName(t, parts[0]!))) return parts;
    // Between two hunks, a name and a colon (`// Display:`, `# argparse:`) labels the next hunk with a
    // name the original uses: a heading for where the model moved, not a comment the file needs.
    if (between && bare[3] && usesWord(code, parts[0]!)) return [];
  }
  return first && FILE_PLACE.test(body) ? [] : null;
}

/**
 * Between two hunks, one word that is the plural of the keyword the next line opens with
 * (`# imports` over `import csv`, `// includes` over `#include <x>`) names the kind of lines that
 * follow: a heading for the hunk when the hunk shows some of those lines as the original has them
 * (a new section of new lines may have such a comment of its own).
 */
function namesNextKeyword(note: string, u: Lines, i: number, originalNorms: ReadonlySet<string>): boolean {
  const word = /^([a-z]{3,})s:?$/i.exec(note.trim());
  if (!word) return false;
  let j = i + 1;
  while (j < u.text.length && u.blank[j]) j++;
  const next = j < u.text.length ? /^#?([a-z]+)/i.exec(u.text[j]!.trim()) : null;
  if (next === null || next[1]!.toLowerCase() !== word[1]!.toLowerCase()) return false;
  for (; j < u.text.length && !u.blank[j]; j++) if (originalNorms.has(u.norm[j]!)) return true;
  return false;
}

/** The original has `name` as a word of its own. */
function usesWord(code: string, name: string): boolean {
  return new RegExp(`(?<![\\w$])${escapeRe(name)}(?![\\w$])`).test(code);
}

/** The instruction with the places the location comments give ("in `Name`"). */
export function withPlaces(instruction: string | null, names: readonly string[]): string | null {
  if (names.length === 0) return instruction;
  const place = names.map((n) => `in \`${n}\``).join(', ');
  return instruction ? `${instruction}\n(${place})` : `(${place})`;
}
