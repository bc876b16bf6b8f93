// "Existing code" marker lines: `// ... existing code ...` and the same idea in every comment
// syntax. Only a whole line that is a comment counts, so JS spread (`...args`), Python `...` bodies
// with code around them and prose comments are not markers.
import { dottedNote, elisionNote } from './marker-wordings.js';
import { indentLength } from './lines.js';
import { movingNote } from './moving-note.js';

/** Comment wrappers: each captures the comment's body. Order matters (block forms first). */
const COMMENT_FORMS: RegExp[] = [
  /^\{\s*\/\*+(.*?)\*+\/\s*\}$/, // JSX {/* ... */}
  /^\/\*+(.*?)\*+\/$/, // C block
  /^<!--+(.*?)-+->$/, // HTML / XML / Markdown
  /^<%--(.*?)--%>$/, // JSP, ASP.NET
  /^<%#(.*?)-?%>$/, // ERB
  /^\{\{!--(.*?)--\}\}$/, // Handlebars block
  /^\{\{--(.*?)--\}\}$/, // Blade
  /^\{\{!(.*?)\}\}$/, // Handlebars, Mustache
  /^\{#(.*?)#\}$/, // Jinja, Django, Twig, Nunjucks
  /^@\*(.*?)\*@$/, // Razor
  /^\(\*+(.*?)\*+\)$/, // OCaml, Pascal
  /^\{-+(.*?)-+\}$/, // Haskell block
  /^--\[\[(.*?)\]\]$/, // Lua block
  /^"""(.*?)"""$/, // Python docstring used as a marker
  /^(?:\/\/+|#+|--+|;+|%+|!+|'|rem\s|::)(.*)$/i, // line comments
];

/** The body of a whole-line comment in any comment syntax, or null when the line is no comment. */
export function commentBody(line: string): string | null {
  const t = line.trim();
  for (const form of COMMENT_FORMS) {
    const m = form.exec(t);
    if (m) return (m[1] ?? '').trim();
  }
  return null;
}

/** An inline marker inside a line: `[/\* ... existing code ... *\/, "x"]` or the JSX form in braces. */
export const INLINE_MARKER = /\{\/\*+\s*(?:\.{2,}|…)[^*]*?\*+\/\}|\/\*+\s*(?:\.{2,}|…)[^*]*?\*+\//;

const BARE_DOTS = /^(?:\.\.\.|…|\. \. \.)$/;
const DOTS = /^(?:\.{2,}|…)|(?:\.{2,}|…)$/;
const KEYWORDS =
  /\b(existing|rest|remaining|unchanged|same|keep|kept|previous|prior|other|omitted|original|more|code|here|file|before|after|lines?|methods?|functions?|imports?|fields?|etc|as is|body|implementation|content|elements?|items?|entries|styles?|rules?|tests?|cases?|steps?|routes?|columns?|definitions?|config)\b/i;
/** Marker phrases that count even without dots (`// rest of file unchanged`). */
const PHRASES =
  /\b(existing code|rest of (the )?(file|code|class|function|module|component|method|script|document|config|body|implementation)|remaining (code|lines|file)|code unchanged|(everything|all) else (is )?unchanged|unchanged code|same as before|keep existing)\b/i;

/**
 * "Unchanged" said of what the marker stands for, without dots: `# [rest unchanged]`,
 * `<!-- rest of README unchanged -->`, `// other methods omitted`.
 */
const UNCHANGED_PHRASE =
  /^(?:the )?(?:rest|remainder|others?|remaining|existing|all other|everything else)\b[\w\s,'/-]{0,48}\b(?:unchanged|omitted|elided|as before|as is|not shown)$/i;

/** A comment that only names what exists there (`<!-- existing store badges -->`, `// existing routes`). */
const EXISTING_ONLY = /^(?:the |all )?existing(?: [a-z][\w-]*){1,3}$/i;

/** Words only (plus light punctuation): what a marker's text looks like once the dots are gone. */
const PROSE = /^[\w\s'",:()/&+-]*$/;

function isMarkerBody(body: string): boolean {
  // A body in brackets (`# [rest unchanged]`, `// (unchanged)`) reads as the words inside.
  const b = body.trim().replace(/^\[(.*)\]$|^\((.*)\)$/, (_, sq: string | undefined, par: string | undefined) => (sq ?? par ?? '').trim());
  if (b.length === 0 || b.length > 100) return false;
  if (/^(?:\.{3,}|…)$/.test(b)) return true;
  const startsWithDots = /^(?:\.{2,}|…)/.test(b);
  const endsWithDots = /(?:\.{2,}|…)$/.test(b);
  const words = b.replace(/(?:\.{2,}|…)/g, ' ').trim();
  // `... and on the Project type:`: dots, then where the next hunk goes (moving-note.ts).
  if (movingNote(b)) return true;
  if (!PROSE.test(words)) return dottedNote(b) || elisionNote(words);
  const wordCount = words.length === 0 ? 0 : words.split(/\s+/).length;
  if (wordCount > 12) return false;
  if (startsWithDots && (endsWithDots || KEYWORDS.test(words) || wordCount <= 4)) return true;
  if (DOTS.test(b) && KEYWORDS.test(words)) return true;
  return ((PHRASES.test(words) || UNCHANGED_PHRASE.test(words)) && wordCount <= 8) || EXISTING_ONLY.test(words) || elisionNote(words);
}

/**
 * True when `line` is a marker. `originalLines` holds the trimmed original lines: a line that also
 * appears in the original is ordinary content there (a prose comment, a YAML `...`, a Python `...` body).
 */
export function isMarkerLine(line: string, originalLines: ReadonlySet<string>): boolean {
  const t = line.trim();
  if (t.length === 0 || t.length > 140) return false;
  if (originalLines.has(t)) return false;
  if (BARE_DOTS.test(t)) return true;
  if (t.length < 2) return false;
  // An element of a list written over several lines: `...,` / `/* ... */,` stands for the elements there.
  if (t.endsWith(',') && /^(?:\.{3}|…|\/\*.*\*\/)$/.test(t.slice(0, -1).trimEnd())) return isMarkerLine(t.slice(0, -1), originalLines);
  // The same in leading-comma style (Haskell, Elm, SQL): `, ...` for elements, `[ ...` for the first ones.
  if (/^[,[({]\s*(?:\.{3}|…)$/.test(t)) return true;
  for (const form of COMMENT_FORMS) {
    const m = form.exec(t);
    if (m) return isMarkerBody(m[1] ?? '');
  }
  return false;
}

/**
 * Which update lines are markers, judged against the original's lines. A bare `...` the original
 * also has counts as a marker only at an indentation the original never has it at (a Markdown file
 * whose Python example has a `    ...` body, edited with `...` markers at column 0), and not as the
 * body of a block header just above it (`def f(self):` then a deeper `...`: the file uses `...` as code).
 */
export function markerLines(updateLines: readonly string[], originalLines: readonly string[]): boolean[] {
  const { trimmed, dots } = originalIndex(originalLines);
  let prev = '';
  return updateLines.map((line) => {
    const t = line.trim();
    let marker = isMarkerLine(line, trimmed);
    if (!marker && trimmed.has(t) && BARE_DOTS.test(t) && !dots.has(line.trimEnd())) {
      marker = !(prev.trimEnd().endsWith(':') && indentLength(prev) < indentLength(line));
    }
    if (t) prev = line;
    return marker;
  });
}

interface OriginalIndex {
  /** Every original line trimmed. */
  trimmed: ReadonlySet<string>;
  /** The original's bare `...` lines as written (indentation kept). */
  dots: ReadonlySet<string>;
}

/** The index of each original, built once: a merge asks markerLines about one original in a dozen passes (the split is shared, lines.ts). */
const originalIndexes = new WeakMap<readonly string[], OriginalIndex>();

function originalIndex(originalLines: readonly string[]): OriginalIndex {
  let index = originalIndexes.get(originalLines);
  if (index) return index;
  const trimmed = new Set<string>();
  const dots = new Set<string>();
  for (const l of originalLines) {
    const t = l.trim();
    trimmed.add(t);
    if (BARE_DOTS.test(t)) dots.add(l.trimEnd());
  }
  index = { trimmed, dots };
  originalIndexes.set(originalLines, index);
  return index;
}
