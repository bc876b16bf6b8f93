// A note asking for the shown edit elsewhere: `// ... same change (writeError(w, r, err)) in every
// other handler ...`, `# ... same fix in parse_b and parse_c ...`. The update edits one line at one
// place and leaves its other places to the note. The merge repeats that line edit on the other
// lines that read exactly as the edited original line did (in the definitions the note names, or
// the whole file), and lowers confidence when the note's change cannot be read off the update.
import { commentBody } from './markers.js';
import { editedVersion, isWeak, normalize, splitLines, type Lines } from './lines.js';
import { inRenameScope, renameScope } from './rename-scope.js';

const SAME_CHANGE = /\bsame\s+(?:change|edit|fix|update)\b/i;

/** The bodies of the update's comment lines that ask for the same change elsewhere. */
export function sameChangeNotes(update: string): string[] {
  const out: string[] = [];
  for (const line of update.split(/\r?\n/)) {
    const body = commentBody(line);
    if (body !== null && SAME_CHANGE.test(body)) out.push(body);
  }
  return out;
}

export interface LineEdit {
  /** The original line, normalised. */
  from: string;
  /** The update's line as written (trimmed). */
  to: string;
}

/**
 * The line edits a same-change note may ask for again, read off the original and the update: an
 * original line (not weak) paired with the one update line, new to the file, that edits it and no
 * other original line. Unless
 * the note names the definitions it means, the update must never show the old line as it is: where
 * it does, the writer kept it there.
 */
export function noteEdits(original: string, update: string, named: boolean): LineEdit[] {
  const o = splitLines(original);
  const u = splitLines(update);
  const had = new Set(o.norm);
  const shown = new Set(u.norm);
  const fresh = [...new Set(u.norm.filter((n, i) => !u.blank[i] && !had.has(n) && commentBody(n) === null))];
  const written = new Map(u.norm.map((n, i) => [n, u.text[i]!.trim()]));
  const pairs: Array<[string, string]> = [];
  for (const from of new Set(o.norm)) {
    if (from.length < 6 || isWeak(from) || commentBody(from) !== null || (shown.has(from) && !named)) continue;
    const to = fresh.filter((g) => editedVersion(from, g));
    if (to.length === 1) pairs.push([from, to[0]!]);
  }
  // One to one: a new head that reads like every sibling's head (`func (s *Server) get…`) edits none of them.
  return pairs.filter(([, to]) => pairs.filter((p) => p[1] === to).length === 1).map(([from, to]) => ({ from, to: written.get(to) ?? to }));
}

/** Rows [start, end) of the definitions the notes name ("in ListSuppliers, ListDrivers and ListCarriers"), or null: the whole file. */
export function noteScope(notes: readonly string[], l: Lines): Array<[number, number]> | null {
  return notes.map((n) => renameScope(n.replace(/,\s*|\s+and\s+/g, ' in '), l)).reduce<Array<[number, number]> | null>((a, s) => (s === null ? a : [...(a ?? []), ...s]), null);
}

export interface RepeatedEdits {
  content: string;
  /** A note asks for the same change but the update shows no line edit to repeat. */
  unread: boolean;
}

/** `merged` with the shown line edits repeated where the note asks (see the module comment). */
export function repeatShownEdits(original: string, update: string, merged: string): RepeatedEdits {
  const notes = sameChangeNotes(update);
  if (notes.length === 0) return { content: merged, unread: false };
  const l = splitLines(merged);
  const scope = noteScope(notes, l);
  const edits = noteEdits(original, update, scope !== null);
  // `// ... same change for exports ...` above the exports block heads a hunk that shows the change;
  // a note with no code after it leaves the change to be read off the update.
  if (edits.length === 0) return { content: merged, unread: trailingNote(update) };
  const byFrom = new Map(edits.map((e) => [e.from, e.to]));
  const out = merged.split('\n').map((line, j) => {
    const to = byFrom.get(normalize(line));
    if (to === undefined || !inRenameScope(scope, j)) return line;
    const lead = /^\s*/.exec(line)![0];
    return `${lead}${to}${line.endsWith('\r') ? '\r' : ''}`;
  });
  return { content: out.join('\n'), unread: false };
}

/** The last line of code the update shows comes before a same-change note. */
function trailingNote(update: string): boolean {
  const lines = update.split(/\r?\n/);
  let last = -1;
  lines.forEach((line, j) => {
    if (line.trim() !== '' && commentBody(line) === null) last = j;
  });
  return lines.slice(last + 1).some((line) => SAME_CHANGE.test(commentBody(line) ?? ''));
}
