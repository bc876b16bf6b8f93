// Renames the instruction asks for ("Rename writeJSON to respondJSON and update every caller",
// "Rename the field `qty` to `quantity` everywhere"): the update shows the new name on some lines
// and leaves the others to the marker, so the merge carries the rename into the original lines the
// markers kept, and the no-loss check (loss.ts) takes such a renamed line as the original line's edit.
// A name is renamed where it is a whole token, or a camelCase part of one (`getQty` → `getQuantity`),
// and only to a token the update itself shows, never where the update still shows the old token.
import { commentLine } from './licence-rules.js';
import { lineIdentity } from './line-identity.js';
import type { ApplyInput } from './parse.js';
import { splitLines } from './lines.js';
import { inRenameScope, renameScope } from './rename-scope.js';

/** What people call the thing they rename ("the `qty` field", "the delete_loan handler"). */
export const KIND = '(?:function|method|helper|handler|field|property|prop|variable|var|const|constant|class|struct|type|interface|enum|column|key|param|parameter|argument|arg|attribute|member|module|component|hook|route|endpoint|test|fixture|macro|trait|record|table|alias|command|action)s?';
/**
 * "rename [the] [kind] <from> [kind] [of <owner>] to <to>", names optionally quoted or backticked.
 * Only a kind word stands beside the name: in "Rename the Addr field to ListenAddr" the name is
 * `Addr`, not the word after it.
 */
const RENAME = new RegExp(
  `\\brename\\s+(?:the\\s+)?(?:${KIND}\\s+)?[\`"']?([A-Za-z_$][\\w$]*)(?:\\(\\))?[\`"']?(?:\\s+${KIND})?(?:\\s+(?:of|in|on)\\s+[\`"']?[\\w$.]+[\`"']?)?\\s+(?:to|into|as)\\s+[\`"']?([A-Za-z_$][\\w$]*)`,
  'gi',
);

export interface RenamePair {
  from: string;
  to: string;
}

/** The renames an instruction names (names of 2+ characters that differ). */
export function instructedRenames(instruction: string | null): RenamePair[] {
  if (!instruction) return [];
  const out: RenamePair[] = [];
  for (const m of instruction.matchAll(RENAME)) {
    const from = m[1]!;
    const to = m[2]!;
    if (from !== to && from.length >= 2 && to.length >= 2) out.push({ from, to });
  }
  return out;
}

const TOKEN = /[A-Za-z_$][\w$]*/g;

function capital(s: string): string {
  return s[0]!.toUpperCase() + s.slice(1);
}

/** Token `t` with `from` renamed, as a whole or as a camelCase part; null when it holds neither. */
function renamedToken(t: string, p: RenamePair): string | null {
  if (t === p.from) return p.to;
  // A camelCase part: `getQty` holds `Qty` after a lower-case letter or digit, ending the token or a hump.
  const part = capital(p.from);
  const at = t.indexOf(part);
  if (at > 0 && /[a-z\d]/.test(t[at - 1]!) && !/[a-z]/.test(t[at + part.length] ?? '')) return t.slice(0, at) + capital(p.to) + t.slice(at + part.length);
  return null;
}

/**
 * Per rename, the token map it applies: old token → new token, for each token of the original that
 * holds the old name and whose renamed form the update shows, when the update never shows the old
 * token itself. Empty when the instruction renames nothing.
 */
export function renameTokens(instruction: string | null, original: string, update: string): Map<string, string> {
  const map = new Map<string, string>();
  const pairs = instructedRenames(instruction);
  if (pairs.length === 0) return map;
  // Tokens of the update's code lines: a marker or a note may mention the rename (`// ... writeJSON -> respondJSON ...`).
  const shown = new Set<string>();
  for (const line of update.split(/\r?\n/)) if (!commentLine(line.trim())) for (const t of line.match(TOKEN) ?? []) shown.add(t);
  const seen = new Set<string>();
  for (const t of original.match(TOKEN) ?? []) {
    if (seen.has(t)) continue;
    seen.add(t);
    for (const p of pairs) {
      const r = renamedToken(t, p);
      if (r !== null && shown.has(r) && !shown.has(t)) map.set(t, r);
    }
  }
  return map;
}

/** `text` with every whole token in `map` replaced. */
export function applyRenames(text: string, map: Map<string, string>): string {
  if (map.size === 0) return text;
  // A token glued to a word by `-` is part of a kebab-case name (`toggle-all`, `btn-toggle`), not the identifier.
  return text.replace(TOKEN, (t, at: number) => (KEBAB_BEFORE.test(text.slice(Math.max(0, at - 2), at)) || KEBAB_AFTER.test(text.slice(at + t.length, at + t.length + 2)) ? t : map.get(t) ?? t));
}

const KEBAB_BEFORE = /[A-Za-z0-9]-$/;
const KEBAB_AFTER = /^-[A-Za-z]/;

/**
 * The merged file with the renames applied to every line but those the update shows as they are.
 * A kept definition head whose renamed form the update shows as its own line stays as it is: the
 * update brings that definition itself, and renaming the old one too would define it twice.
 */
export function renameKeptLines(content: string, map: Map<string, string>, update: string, instruction: string | null): string {
  if (map.size === 0) return content;
  const shown = new Set(update.split(/\r?\n/).map((l) => l.trim()));
  return inScope(content, instruction, (line) => {
    if (line.trim() === '' || shown.has(line.trim())) return line;
    const renamed = applyRenames(line, map);
    return shown.has(renamed.trim()) && lineIdentity(renamed.trim()) !== null ? line : renamed;
  });
}

/** `text` with `edit` applied to each line inside the definitions the instruction places its rename in (rename-scope.ts), or to every line. */
function inScope(text: string, instruction: string | null, edit: (line: string) => string): string {
  const scope = renameScope(instruction, splitLines(text));
  return text.split('\n').map((line, j) => (inRenameScope(scope, j) ? edit(line) : line)).join('\n');
}

/**
 * The input with the instruction's renames (renameTokens) applied to the original: every whole
 * token the update carries renamed reads as the update writes it, so a renamed head or caller is
 * an anchor where the old one stands instead of new code beside it. The no-loss pass then judges
 * against the renamed original, which holds every original line, renamed as renameKeptLines would.
 */
export function renamedOriginal(input: ApplyInput): ApplyInput {
  const map = renameTokens(input.instruction, input.code, input.update);
  return map.size === 0 ? input : { ...input, code: inScope(input.code, input.instruction, (line) => applyRenames(line, map)) };
}
