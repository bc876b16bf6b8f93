// An import the removal left without a use goes with it. "Remove the PDF export view" deletes the
// view, and `from .services import export_recipe_pdf` imported only for it is dead: the instruction's
// removal took the import's last use. Evidence from the edit, not from the import's name: the
// original used what the line imports elsewhere, and the merged file no longer does.
import { splitLines, type Lines } from './lines.js';

/** A line that brings names in: `import`, `from … import`, `require`, `use`, `mod x;`, `using`, `const x = require(…)`. */
const IMPORT_LINE = /^(?:import\b|from\s+\S+\s+import\b|require(?:_relative)?\b|use\s|(?:pub\s+)?mod\s+\w+\s*;|extern\s+crate\b|using\s+[\w.]+\s*;|(?:const|let|var)\s+[\w{}\s,]+=\s*require\()/;

/** Words of an import line that are syntax, not what it imports. */
const SYNTAX = new Set(['import', 'from', 'require', 'require_relative', 'use', 'mod', 'pub', 'as', 'type', 'typeof', 'static', 'crate', 'self', 'super', 'extern', 'using', 'const', 'let', 'var', 'default', 'js', 'ts', 'rb', 'py']);

function importLine(norm: string): boolean {
  return IMPORT_LINE.test(norm);
}

/** The names an import line mentions (identifiers and path words, lower-cased, three letters or more). */
function importedWords(norm: string): string[] {
  return [...new Set((norm.match(/[A-Za-z_$][\w$]*/g) ?? []).map((w) => w.toLowerCase()).filter((w) => w.length >= 3 && !SYNTAX.has(w)))];
}

/** The lower-cased words of the lines that are not import lines. */
function usedWords(l: Lines, skip: (j: number) => boolean): Set<string> {
  const out = new Set<string>();
  for (let j = 0; j < l.text.length; j++) {
    if (l.blank[j] || skip(j) || importLine(l.norm[j]!)) continue;
    for (const w of l.norm[j]!.match(/[A-Za-z_$][\w$]*/g) ?? []) out.add(w.toLowerCase());
  }
  return out;
}

/**
 * Original import rows the merged output leaves dead: the update does not show the line, no word it
 * imports occurs on any other line of the output, and one did on a line of the original that the
 * output dropped.
 */
export function deadImportRows(orig: Lines, out: Lines, updateText: string): number[] {
  const shown = new Set(splitLines(updateText).norm);
  const before = usedWords(orig, () => false);
  const after = usedWords(out, () => false);
  const rows: number[] = [];
  for (let j = 0; j < orig.text.length; j++) {
    if (orig.blank[j] || !importLine(orig.norm[j]!) || shown.has(orig.norm[j]!)) continue;
    const words = importedWords(orig.norm[j]!);
    if (words.length === 0 || words.some((w) => after.has(w)) || !words.some((w) => before.has(w))) continue;
    rows.push(j);
  }
  return rows;
}

/** The merged content without the import lines the removal left dead (see deadImportRows); line endings kept. */
export function withoutDeadImports(content: string, original: string, updateText: string): string {
  const orig = splitLines(original);
  const out = splitLines(content);
  const dead = new Set(deadImportRows(orig, out, updateText).map((j) => orig.text[j]!));
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
