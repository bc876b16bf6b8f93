// A declaration line (loss.ts asks this only of lines that head no block: an interface, protocol or
// trait member, a prototype) is not replaced by a line that defines another name while the merged
// file still uses the old one: a rename carried through the file leaves no use of the old name behind,
// and a definition whose callers stay is still needed. The line defining the other name is new
// beside it (`fun setTyping(…)` kept under `fun addReaction(…)` added before it, `store.setTyping(`
// still called further down). An import line likewise: `import …DeleteMapping;` shown where
// `import …GetMapping;` stood is a new import beside it while `@GetMapping` is still used.
import { lineIdentity, MODIFIERS } from './line-identity.js';
import { tokens, type Lines } from './lines.js';
import { blockEnd } from './definition-blocks.js';

/** The plain name a definition line defines (`def name`, a Go method's method name), or null. */
function definedName(norm: string): string | null {
  const id = lineIdentity(norm);
  const m = id === null ? null : /^def (?:[\w$]+\.)?([A-Za-z_$][\w$]*)$/.exec(id);
  return m ? m[1]! : null;
}

/** A type's head (`type Team struct {`, `class`, `interface`, `enum`, `record`): code the update shows
 *  still naming it cannot compile without it, while a function left out between shown callers is
 *  the deletion by adjacency that generated and written edits make. */
const TYPE_HEAD = new RegExp(String.raw`^${MODIFIERS}(?:type|struct|class|interface|enum|record|trait|union|data|newtype)\b`);
/**
 * The name a type head declares where no definition pattern names it (Haskell `type Env = …`, `data`,
 * `newtype`). An export list's item (`type Foo as Foo,`, `type Foo,` in TS) names a type without
 * declaring it: left out between shown items, it is deleted like any other item.
 */
const TYPE_NAME = new RegExp(String.raw`^${MODIFIERS}(?:type|data|newtype)\s+([A-Za-z_$][\w$]*)(?![\w$])(?!\s+as\b|\s*[,}])`);

/** Import lines (Java/Kotlin/Scala/TS/Python `import`, Python `from`, Rust `use`, C# `using`, C `#include`). */
const IMPORT_LINE = /^(?:import|from|use|using|#include)\b/;

/** The names an import line imports that the other line does not: what replacing it would drop. */
function importedOnlyBy(norm: string, other: string): string[] {
  if (!IMPORT_LINE.test(norm) || !IMPORT_LINE.test(other)) return [];
  const kept = new Set(tokens(other));
  return tokens(norm).filter((t) => /^[A-Za-z_$][\w$]*$/.test(t) && !kept.has(t));
}

/** Per name, how many lines of a text use it other than to define or import it, built once per text and name. */
const counted = new WeakMap<Lines, Map<string, number>>();

function usesOf(l: Lines, name: string): number {
  let c = counted.get(l);
  if (!c) counted.set(l, (c = new Map()));
  let n = c.get(name);
  if (n === undefined) {
    n = 0;
    for (const norm of l.norm) if (usesName(norm, name)) n++;
    c.set(name, n);
  }
  return n;
}

/** Line `norm` uses `name` (not defining it, not importing it). */
function usesName(norm: string, name: string): boolean {
  return norm.includes(name) && tokens(norm).includes(name) && definedName(norm) !== name && !IMPORT_LINE.test(norm);
}

/**
 * The merged file still uses the name at least as often as the original did (a rename carried to the
 * uses leaves fewer), uses on the original rows `gone` (left out together with the definition, and
 * `type Env = …` counting as a use of its own name) aside.
 */
function stillUsedIn(orig: Lines, out: Lines, name: string, gone: readonly number[] = []): boolean {
  const uses = usesOf(out, name);
  return uses > 0 && uses >= usesOf(orig, name) - gone.filter((j) => usesName(orig.norm[j]!, name)).length;
}

/**
 * Original rows that head a whole definition left out in `missing` (head to its block's end) whose
 * name the update's own code uses and the merged file still uses: rule (b) does not delete them by
 * adjacency. Two shown definitions with a neighbour's declaration left out between them
 * (`func GetUser … }` then `func GetTeam(…) (*Team, error)`, `type Team struct` between) skip it;
 * code the update shows using `Team` does not delete `Team`. A name only the rest of the file uses
 * (a symbol list, another method) does not count: adjacency deletes a definition nothing shown needs.
 */
export function usedDefinitionRows(orig: Lines, missing: readonly number[], out: Lines, shown: readonly Lines[]): number[] {
  const gone = new Set(missing);
  return missing.filter((j) => {
    const name = TYPE_HEAD.test(orig.norm[j]!) ? definedName(orig.norm[j]!) ?? TYPE_NAME.exec(orig.norm[j]!)?.[1] ?? null : null;
    if (name === null || !stillUsedIn(orig, out, name, missing) || !shown.some((l) => usesOf(l, name) > 0)) return false;
    const end = blockEnd(orig, j);
    for (let y = j + 1; y < end; y++) if (!orig.blank[y] && !gone.has(y)) return false;
    return true;
  });
}

/**
 * Original definition row j replaced by output row k would leave its name dangling: k defines
 * another name (or, for an import, imports other names), and the merged file still uses the old one exactly as often as the original did
 * (a rename carried to the uses leaves fewer; a definition never used elsewhere is free to go).
 */
export function leavesNameDangling(orig: Lines, j: number, out: Lines, k: number): boolean {
  const stillUsed = (name: string): boolean => stillUsedIn(orig, out, name);
  // An import replaced by one naming something else; not a list opened over lines (`use a::{`).
  const dropped = importedOnlyBy(orig.norm[j]!, out.norm[k]!);
  if (dropped.length > 0 && importedOnlyBy(out.norm[k]!, orig.norm[j]!).length > 0) return dropped.every(stillUsed);
  const from = definedName(orig.norm[j]!);
  if (from === null) return false;
  const to = definedName(out.norm[k]!);
  return to !== null && to !== from && stillUsed(from);
}
