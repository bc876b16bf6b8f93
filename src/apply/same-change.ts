// A note asking for the shown edit elsewhere: `// ... same change (writeError(w, r, err)) in every
// other handler ...`, `# ... same fix in parse_b and parse_c ...`. The update edits one line at one
// place and leaves its other places to the note. The merge repeats that line edit on the other
// lines that read exactly as the edited original line did (in the definitions the note names, or
// the whole file), and lowers confidence when the note's change cannot be read off the update.
import { commentBody } from './markers.js';
import { editedVersion, normalize, splitLines } from './lines.js';
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

function counts(lines: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) if (l !== '') m.set(l, (m.get(l) ?? 0) + 1);
  return m;
}

interface LineEdit {
  from: string;
  to: string;
}

/**
 * The line edits the merge made that the note may ask for again: an original line (normalised) the
 * merged file holds fewer times than the original, paired with the one update line that edits it and
 * that the merged file holds more times. The update must never show the old line as it is: where it
 * does, the writer kept it there.
 */
function shownEdits(original: string, update: string, merged: string): LineEdit[] {
  const o = counts(splitLines(original).norm);
  const m = counts(splitLines(merged).norm);
  const u = splitLines(update);
  const shown = new Set(u.norm);
  // The update's own text for each line: `to` keeps its inner spacing.
  const written = new Map(u.norm.map((n, i) => [n, u.text[i]!.trim()]));
  const grown = [...m].filter(([l, n]) => n > (o.get(l) ?? 0) && shown.has(l)).map(([l]) => l);
  const out: LineEdit[] = [];
  for (const [from, n] of o) {
    if ((m.get(from) ?? 0) >= n || (m.get(from) ?? 0) === 0 || shown.has(from)) continue;
    const to = grown.filter((g) => editedVersion(from, g));
    if (to.length === 1) out.push({ from, to: written.get(to[0]!) ?? to[0]! });
  }
  return out;
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
  const edits = shownEdits(original, update, merged);
  // `// ... same change for exports ...` above the exports block heads a hunk that shows the change;
  // a note with no code after it leaves the change to be read off the update.
  if (edits.length === 0) return { content: merged, unread: trailingNote(update) };
  const byFrom = new Map(edits.map((e) => [e.from, e.to]));
  const l = splitLines(merged);
  // "in ListSuppliers, ListDrivers": the definitions the note names; none named: the whole file.
  const scope = notes.map((n) => renameScope(n.replace(/,\s*/g, ' in '), l)).reduce<Array<[number, number]> | null>((a, s) => (s === null ? a : [...(a ?? []), ...s]), null);
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
