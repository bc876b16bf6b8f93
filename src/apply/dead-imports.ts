// An import the removal left without a use goes with it. "Remove the PDF export view" deletes the
// view, and `from .services import export_recipe_pdf` imported only for it is dead: the instruction's
// removal took the import's last use. Evidence from the edit, not from the import's name: the
// original used what the line imports elsewhere, and the merged file no longer does.
// A replacement says the same of what it replaces: "replace body-parser with express's built-in
// parsers" takes `bodyParser`'s last use, and its `require` goes; what comes in (express) stays.
import { splitLines, type Lines } from './lines.js';
import { asksForRemoval } from './removals.js';

/** A line that brings names in: `import`, `from … import`, `require`, `use`, `mod x;`, `const x = require(…)`.
 *  Not C#'s `using N;` nor a wildcard: they name no binding the code spells. */
const IMPORT_LINE = /^(?:import\b|from\s+\S+\s+import\b|require(?:_relative)?\b|use\s|(?:pub\s+)?mod\s+\w+\s*;|extern\s+crate\b|(?:const|let|var)\s+[\w{}\s,]+=\s*require\()/;

/** Words of an import line that are syntax, not what it binds. */
const SYNTAX = new Set(['import', 'from', 'require', 'requirerelative', 'use', 'mod', 'pub', 'type', 'typeof', 'static', 'crate', 'self', 'super', 'extern', 'using', 'const', 'let', 'var', 'default']);

function importLine(norm: string): boolean {
  return IMPORT_LINE.test(norm);
}

/** A word as compared across lines: lower case, without `_` (`require "legacy_sync"` names `LegacySync`). */
function wordKey(w: string): string {
  return w.toLowerCase().replaceAll('_', '');
}

/**
 * The names an import line binds: `{ a, b as c }` → a, c; `import X from …` → X; `… as y` → y;
 * `from m import a, b` → a, b; otherwise its last word (`use a::b::C;`, `import a.b.C`,
 * `require "csv"`, `mod legacy;`). Path words before the last (`org.acme`) are not bindings.
 */
function importedWords(norm: string): string[] {
  const words = (t: string): string[] => t.match(/[A-Za-z_$][\w$]*/g) ?? [];
  const lastOfItems = (t: string): string[] => t.split(',').map((item) => words(item).pop()).filter((w): w is string => w !== undefined);
  let names: string[];
  const braces = /\{([^}]*)\}/.exec(norm);
  const fromImport = /^from\s+\S+\s+import\s+(.+)$/.exec(norm);
  const defaultImport = /^import\s+([A-Za-z_$][\w$]*)\s*(?:,|from\b)/.exec(norm);
  if (braces) names = [...lastOfItems(braces[1]!), ...(defaultImport ? [defaultImport[1]!] : [])];
  else if (fromImport) names = lastOfItems(fromImport[1]!.replace(/[()]/g, ''));
  else if (defaultImport) names = [defaultImport[1]!];
  else if (/^(?:const|let|var)\s/.test(norm)) names = words(norm.split('=')[0]!).slice(1);
  else if (/\bas\s+[A-Za-z_$]/.test(norm)) names = [/\bas\s+([A-Za-z_$][\w$]*)/.exec(norm)![1]!];
  else if (/\*\s*;?\s*$/.test(norm)) names = [];
  else names = words(norm).slice(-1);
  return [...new Set(names.map(wordKey))].filter((w) => w.length >= 3 && !SYNTAX.has(w));
}

/** The words (wordKey) of the lines that are not import lines. */
function usedWords(l: Lines): Set<string> {
  const out = new Set<string>();
  for (let j = 0; j < l.text.length; j++) {
    if (l.blank[j] || importLine(l.norm[j]!)) continue;
    for (const w of l.norm[j]!.match(/[A-Za-z_$][\w$]*/g) ?? []) out.add(wordKey(w));
  }
  return out;
}

/** The words of a line, identifiers split at `_`, `-`, `/`, `::` and case changes, lower-cased, three letters or more. */
function lineWords(text: string): string[] {
  return (text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').match(/[A-Z]+(?![a-z])|[A-Za-z][a-z0-9]*/g) ?? []).map((w) => w.toLowerCase()).filter((w) => w.length >= 3 && !SYNTAX.has(w));
}

/** The instruction's own words, split at anything but letters and digits and NOT at case changes: a
 *  name written whole (`ResponsesError`) names that definition, not every import sharing one of its
 *  parts (`core/error`); a plain word (`PDF`, `csv`, `legacy-import`) may name an import's module. */
function instructionWords(instruction: string): Set<string> {
  return new Set((instruction.match(/[A-Za-z0-9]+/g) ?? []).map((w) => w.toLowerCase()).filter((w) => w.length >= 3 && !SYNTAX.has(w)));
}

/** What a replacement replaces: X of "replace X with Y", "swap X for Y", "switch/migrate from X to Y",
 *  "Y instead of X"; the part that comes in is not said to go. */
const REPLACED = [
  /\b(?:replace|replaces|replacing|swap|swaps|swapping|swap out)\s+([^.;\n]+?)\s+(?:with|for|by)\b/gi,
  /\b(?:switch|switches|switching|migrate|migrates|migrating|move|moves|moving|port|ports|porting)\s+(?:\w+\s+){0,3}?from\s+([^.;\n]+?)\s+to\b/gi,
  /\binstead\s+of\s+([^.;\n,]+)/gi,
];

/** The words that may name a dead import: the whole instruction when it asks for a removal, the
 *  replaced parts when it asks for a replacement, none otherwise. */
function namingWords(instruction: string): Set<string> {
  if (asksForRemoval(instruction)) return instructionWords(instruction);
  return instructionWords(replacedParts(instruction).join(' '));
}

/** The parts of the instruction a replacement replaces (REPLACED); none when it asks for no replacement. */
export function replacedParts(instruction: string | null): string[] {
  return instruction ? REPLACED.flatMap((re) => [...instruction.matchAll(re)].map((m) => m[1]!)) : [];
}

/**
 * Original import rows the merged output leaves dead: the update does not show the line, no word it
 * imports occurs on any other line of the output, and one did on a line of the original that the
 * output dropped; and the instruction names one of its words where it removes or replaces (namingWords).
 */
export function deadImportRows(orig: Lines, out: Lines, updateText: string, instruction: string | null): number[] {
  const said = instruction ? namingWords(instruction) : new Set<string>();
  if (said.size === 0) return [];
  const shown = new Set(splitLines(updateText).norm);
  const before = usedWords(orig);
  const after = usedWords(out);
  const rows: number[] = [];
  for (let j = 0; j < orig.text.length; j++) {
    if (orig.blank[j] || !importLine(orig.norm[j]!) || shown.has(orig.norm[j]!)) continue;
    const words = importedWords(orig.norm[j]!);
    if (words.length === 0 || words.some((w) => after.has(w)) || !words.some((w) => before.has(w))) continue;
    // The instruction names it: a word of the line (`pdf` of `export_recipe_pdf`, `csv` of
    // `require "csv"`). A dead `import time` under "remove the retry helper" is left to the user.
    if (!lineWords(orig.norm[j]!).some((w) => said.has(w))) continue;
    rows.push(j);
  }
  return rows;
}

/** The merged content without the import lines the removal left dead (see deadImportRows); line endings kept. */
export function withoutDeadImports(content: string, original: string, updateText: string, instruction: string | null): string {
  const orig = splitLines(original);
  const out = splitLines(content);
  const dead = new Set(deadImportRows(orig, out, updateText, instruction).map((j) => orig.text[j]!));
  if (dead.size === 0) return content;
  let text = '';
  for (let k = 0; k < out.text.length; k++) {
    if (dead.has(out.text[k]!)) {
      // A blank line left alone between the dead import and the code below goes with it.
      if (k + 1 < out.text.length && out.blank[k + 1] && (k === 0 || out.blank[k - 1])) k++;
      continue;
    }
    text += out.text[k]! + out.eol[k]!;
  }
  if (!out.finalNewline && text.endsWith('\n')) text = text.replace(/\r?\n$/, '');
  return text;
}
