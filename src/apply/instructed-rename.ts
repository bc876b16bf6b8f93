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
/** A name as instructions write it: optionally quoted or backticked, optionally called (`tick()`). */
const NAME = '[`"\']?[A-Za-z_$][\\w$]*(?:\\(\\))?[`"\']?';
/** What stands between listed names: `push/pop`, `a, b and c`. */
const SEPARATOR = '\\s*(?:/|,\\s*and\\s+|,|\\s+and\\s+)\\s*';
const NAMES = `${NAME}(?:${SEPARATOR}${NAME})*`;
/**
 * "rename [the] [kind] <from> [kind] [of <owner>] to ", names optionally quoted or backticked.
 * Only a kind word stands beside the name: in "Rename the Addr field to ListenAddr" the name is
 * `Addr`, not the word after it. The old side may list several names ("rename check/check_at to
 * try_acquire/try_acquire_at", "rename a and b to c and d"); the new side is read as many names.
 */
const RENAME = new RegExp(
  `\\brename\\s+(?:the\\s+)?(?:${KIND}\\s+)?(${NAMES})(?:\\s+${KIND})?(?:\\s+(?:of|in|on)\\s+[\`"']?[\\w$.]+[\`"']?)?\\s+(?:to|into|as)\\s+`,
  'gi',
);
/** "listItems and listWarehouses were renamed to findAllItems and findAllWarehouses". */
const RENAMED = new RegExp(`(?<![\\w$])(${NAMES})\\s+(?:was|were|is|are|has\\s+been|have\\s+been|got)\\s+renamed\\s+(?:to|into|as)\\s+`, 'gi');
/** A further pair after a rename, without the verb: "rename dst to out and sx/sy to scale_x/scale_y". */
const FURTHER = new RegExp(`^\\s*\\(?\\s*(?:,\\s*and|,|and)\\s+(?:the\\s+)?(?:${KIND}\\s+)?(${NAMES})(?:\\s+${KIND})?\\s+(?:to|into|as)\\s+`, 'i');
const FIRST_NAME = new RegExp(`^${NAME}`);
const NEXT_NAME = new RegExp(`^${SEPARATOR}(${NAME})`);
const SEPARATOR_RE = new RegExp(SEPARATOR);

export interface RenamePair {
  from: string;
  to: string;
}

/** A listed name without quotes, backticks or call parentheses. */
function bareName(text: string): string {
  return text.trim().replace(/^[`"']|[`"']$/g, '').replace(/\(\)$/, '');
}

/**
 * `count` names read from the start of `text` (the new side of a rename), and the length read;
 * null when fewer stand there. Reading exactly as many as the old side lists keeps the sentence
 * after them out ("Rename X to Y and update its callers").
 */
function newNames(text: string, count: number): { names: string[]; length: number } | null {
  const first = FIRST_NAME.exec(text);
  if (!first) return null;
  const names = [bareName(first[0])];
  let length = first[0].length;
  while (names.length < count) {
    const next = NEXT_NAME.exec(text.slice(length));
    if (!next) return null;
    names.push(bareName(next[1]!));
    length += next[0].length;
  }
  return { names, length };
}

/** The renames an instruction names (names of 2+ characters that differ); a list pairs its names in order. */
export function instructedRenames(instruction: string | null): RenamePair[] {
  if (!instruction) return [];
  const out: RenamePair[] = [];
  /** The pairs of one rename whose old side is `fromText` and whose new side starts `rest`; the text after it. */
  const read = (fromText: string, rest: string): string | null => {
    const from = fromText.split(SEPARATOR_RE).map(bareName);
    const to = newNames(rest, from.length);
    if (!to) return null;
    from.forEach((f, i) => {
      const t = to.names[i]!;
      if (f !== t && f.length >= 2 && t.length >= 2) out.push({ from: f, to: t });
    });
    return rest.slice(to.length);
  };
  for (const m of [...instruction.matchAll(RENAME), ...instruction.matchAll(RENAMED)]) {
    let rest = read(m[1]!, instruction.slice(m.index! + m[0].length));
    for (let f = rest === null ? null : FURTHER.exec(rest); rest !== null && f; f = rest === null ? null : FURTHER.exec(rest)) rest = read(f[1]!, rest.slice(f[0].length));
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
  // A member of an imported module (`path.join`) is no showing of the file's own `join`.
  const modules = importedNames(original);
  const shown = new Set<string>();
  for (const line of update.split(/\r?\n/)) {
    if (commentLine(line.trim())) continue;
    for (const m of line.matchAll(TOKEN)) if (!modules.has(RECEIVER.exec(line.slice(0, m.index))?.[1] ?? '')) shown.add(m[0]);
  }
  const seen = new Set<string>();
  for (const t of original.match(TOKEN) ?? []) {
    if (seen.has(t)) continue;
    seen.add(t);
    for (const p of pairs) {
      const r = renamedToken(t, p);
      if (r !== null && shown.has(r) && !shown.has(t)) map.set(t, r);
    }
  }
  // `json.load` is the json module's load, not the file's own `load` the instruction renames.
  if (map.size > 0) for (const m of modules) for (const t of [...map.keys()]) if (!t.includes('.') && original.includes(`${m}.${t}`)) map.set(`${m}.${t}`, t);
  return map;
}

/** Namespaces a language provides without an import (JavaScript's globals, java.lang). */
const BUILT_IN_NAMESPACES = ['JSON', 'Math', 'Object', 'Array', 'Number', 'String', 'Date', 'Promise', 'Reflect', 'Symbol', 'Intl', 'console', 'process', 'window', 'document', 'System', 'Integer', 'Long', 'Double', 'Boolean', 'Character', 'Thread'];
const IMPORT_LINE = /^\s*(?:import|from)\s|^\s*(?:const|let|var)\s+[\w$]+\s*=\s*require\(/;
const IMPORT_WORDS = new Set(['import', 'from', 'as', 'const', 'let', 'var', 'require', 'type', 'static', 'typeof']);

/**
 * Built-in namespaces and the names the original's imports bind (`json` of `import json`, `fs` of `import fs from 'fs'` or
 * `const fs = require('fs')`, `json` of Go's `"encoding/json"`, `Map` of Java's `import java.util.Map;`):
 * every identifier of an import line but its keywords, and the last part of a quoted path in one
 * (Go's import block lines are quoted paths).
 */
function importedNames(original: string): Set<string> {
  const names = new Set<string>(BUILT_IN_NAMESPACES);
  let goBlock = false;
  for (const line of original.split(/\r?\n/)) {
    if (/^import\s*\($/.test(line.trim())) { goBlock = true; continue; }
    if (goBlock && line.trim() === ')') { goBlock = false; continue; }
    if (!goBlock && !IMPORT_LINE.test(line)) continue;
    for (const q of line.matchAll(/["']([^"']+)["']/g)) {
      const last = /([A-Za-z_$][\w$]*)$/.exec(q[1]!);
      if (last) names.add(last[1]!);
    }
    for (const t of line.replace(/["'][^"']*["']/g, ' ').match(TOKEN) ?? []) if (!IMPORT_WORDS.has(t)) names.add(t);
  }
  return names;
}

/** `text` with every whole token in `map` replaced; a qualified entry (`json.load` → `load`) overrides its token's. */
export function applyRenames(text: string, map: Map<string, string>): string {
  if (map.size === 0) return text;
  return text.replace(TOKEN, (t, at: number) => {
    // A token glued to a word by `-` is part of a kebab-case name (`toggle-all`, `btn-toggle`), not the identifier.
    if (KEBAB_BEFORE.test(text.slice(Math.max(0, at - 2), at)) || KEBAB_AFTER.test(text.slice(at + t.length, at + t.length + 2))) return t;
    const receiver = RECEIVER.exec(text.slice(0, at));
    return (receiver && map.get(`${receiver[1]}.${t}`)) || (map.get(t) ?? t);
  });
}

const RECEIVER = /([A-Za-z_$][\w$]*)\.$/;

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
