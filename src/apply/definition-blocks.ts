// Where a named definition stands in a file: a line that defines a name (definesName: a keyword
// head, a method or key head, an impl, a heading, a labelled block) and the end of the block a head
// opens (blockEnd: brackets, indentation, a section, an SQL statement). Read by the removals
// (removals.ts) and by every rule that places by a definition's name (new and appended
// definitions, prose and location comments, rename scopes).
import { escapeRe, wholeName } from './escape-regexp.js';
import { lispDefinitionName } from './block-names.js';
import type { Lines } from './lines.js';
import { headingNames, implOf, labelledBlock } from './spoken-targets.js';

const DEF_WORDS = /^(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:public\s+|private\s+|protected\s+|static\s+|async\s+|final\s+|abstract\s+|virtual\s+|inline\s+|override\s+|local\s+)*(?:def|function|func|fun|fn|class|struct|enum|interface|type|const|let|var|impl|trait|module|sub|proc|procedure|CREATE\s+(?:OR\s+REPLACE\s+)?(?:TABLE|VIEW|FUNCTION|INDEX|PROCEDURE|TRIGGER))\b/i;

/** Whether original line j defines `name`. */
export function definesName(text: string, name: string): boolean {
  const t = text.trim();
  if (name.startsWith('[')) return t === name;
  // A Go method named with its receiver's type (line-identity.ts): `Pool.Submit` is `func (p *Pool) Submit(`.
  const m = GO_RECEIVER_NAME.exec(name);
  if (m && new RegExp(`^func\\s*\\(\\s*(?:[\\w$]+\\s+)?\\*?\\s*${escapeRe(m[1]!)}(?:\\[[^\\]]*\\])?[^)]*\\)\\s*${escapeRe(m[2]!)}(?![\\w$])`).test(t)) return true;
  const word = wholeName(name);
  if (!word.test(t)) return false;
  // The name right after the keyword (`function Panel(…: PanelProps)` defines Panel, not PanelProps).
  // A name followed by `::` or `.name` qualifies another (`impl fmt::Display` defines no `fmt`).
  if (new RegExp(`${DEF_WORDS.source.slice(0, -2)}\\s+(?:\\([^)]*\\)\\s*)?(?:[\\w$]+[.:]+)?${escapeRe(name)}(?![\\w$-]|::|\\.[\\w$])`, 'i').test(t)) return true;
  // A Rust type's impl block, a Markdown section's heading (spoken-targets.ts).
  // A block labelled by a string (`Section("Privacy") {`, `<fieldset id="billing">`).
  if (implOf(t, name) || headingNames(null, t, name) || labelledBlock(t, name)) return true;
  // An HCL block labelled `name` (`resource "aws_s3_bucket" "reports" {`).
  // A Lisp form defining the name (`(defn fetch-user [id]`, `(defun parse-row (line)`).
  if (lispDefinitionName(t) === name) return true;
  if (new RegExp(`^(?:resource|data|module|output|variable|provider)\\s+(?:"[^"]*"\\s+)*"${escapeRe(name)}"\\s*\\{`).test(t)) return true;
  // `name(` method heads, `name:` / `name =` keys, `.name {` selectors, `name:` make targets.
  // A definition qualified by its owner (`void Scene::debugDump() const {`); not `obj.name(` calls,
  // nor a statement calling it (`return SetAsync(…)`). Type parameters may follow (`SetAsync<T>(`).
  // A return type may be qualified (`std::uint32_t remaining(…) {`).
  if (/^(?:return|await|yield|throw|new)\s/.test(t)) return false;
  return new RegExp(`^(?:(?:[\\w$<>\\[\\],*&\\s]|::)+[\\s*&])?[.#]?(?:[\\w$]+::)*${escapeRe(name)}(?:<[^()]*>)?\\s*(?:\\(|:(?!:)|=|\\{)`).test(t);
}

const GO_RECEIVER_NAME = /^([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)$/;

/** End (exclusive) of the block whose header is line h: braces when it opens one, else indentation. */
export function blockEnd(o: Lines, h: number): number {
  const N = o.text.length;
  // A TOML/INI section runs to the next section header at its level (its keys are not indented).
  if (SECTION_HEADER.test(o.norm[h]!) && o.indent[h] === 0) {
    let j = h + 1;
    while (j < N && !(o.indent[j] === 0 && SECTION_HEADER.test(o.norm[j]!))) j++;
    return lastNonBlank(o, h, j) + 1;
  }
  // SQL: a statement runs to its `;` (a `$$ … $$` body's own semicolons do not count).
  if (/^CREATE\b/i.test(o.norm[h]!)) {
    let dollars = 0;
    for (let j = h; j < N; j++) {
      dollars += (o.text[j]!.match(/\$\$/g) ?? []).length;
      if (dollars % 2 === 0 && /;\s*$/.test(o.text[j]!)) return j + 1;
    }
  }
  // Brace mode when the header opens a block (`{` or an unclosed bracket) or the next line is a lone `{`.
  let depth = 0;
  let opened = false;
  let headerDepth = 0;
  for (const ch of o.text[h]!) {
    if (ch === '{' || ch === '(' || ch === '[') headerDepth++;
    else if (ch === '}' || ch === ')' || ch === ']') headerDepth--;
  }
  let next = h + 1;
  while (next < N && o.blank[next]) next++;
  const braceMode = headerDepth > 0 || (next < N && o.norm[next] === '{');
  if (!braceMode) {
    // An element (`<fieldset id="billing">`) ends with its closing tag at its indentation.
    const element = /^<([a-z][\w-]*)/i.exec(o.norm[h]!)?.[1];
    for (let j = h + 1; j < N; j++) {
      if (o.blank[j] || o.indent[j]! > o.indent[h]!) continue;
      if (CLAUSE_OF_BLOCK.test(o.norm[j]!)) continue;
      if (element && o.norm[j]!.startsWith(`</${element}>`)) return j + 1;
      return closesAtHeaderDepth(o, h, j) ? j + 1 : lastNonBlank(o, h, j) + 1;
    }
    return lastNonBlank(o, h, N) + 1;
  }
  for (let j = h; j < N; j++) {
    const t = o.text[j]!;
    for (const ch of t) {
      if (ch === '{' || ch === '(' || ch === '[') depth++;
      else if (ch === '}' || ch === ')' || ch === ']') depth--;
    }
    // Opened only by a line that leaves a bracket open: `Total()` on its own line, its `{` below (Allman).
    if (opened && depth <= 0) return j + 1;
    if (depth > 0) opened = true;
    if (!opened && j === h && /[;,]\s*$/.test(t)) return h + 1;
    if (!opened && j > h && !o.blank[j] && o.indent[j]! <= o.indent[h]! && !CLAUSE_OF_BLOCK.test(o.norm[j]!)) {
      // Indentation block ended; `end` closes Ruby/Lua blocks at the header's level.
      return closesAtHeaderDepth(o, h, j) ? j + 1 : lastNonBlank(o, h, j) + 1;
    }
  }
  return lastNonBlank(o, h, N) + 1;
}

/**
 * Row j is the `end` (`fi`, `done`) of the block headed at row h: at the header's depth. A shallower
 * one closes an enclosing block (an OCaml `module … end` around its last `let`).
 */
function closesAtHeaderDepth(o: Lines, h: number, j: number): boolean {
  return /^(end|end;|fi|done)\b/.test(o.norm[j]!) && o.indent[j] === o.indent[h];
}

/** A clause at the header's level that continues its `end` block: a method-level `rescue`/`ensure` (Ruby, Elixir); not a YAML key `rescue:` (Ansible). */
const CLAUSE_OF_BLOCK = /^(?:rescue|ensure)\b(?!:)/;

/** A whole line that is a section header: `[tool.mypy]`, `[[bin]]`, `[remote "origin"]`. */
const SECTION_HEADER = /^\[\[?[^\],]+\]\]?$/;

function lastNonBlank(o: Lines, from: number, to: number): number {
  let j = to - 1;
  while (j > from && o.blank[j]) j--;
  return j;
}
