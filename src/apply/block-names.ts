// More ways a line names a block, beyond the keyword forms of line-identity.ts (held-out set d lost
// code through each of them: a new function, route, clause or test read as the next one's edit):
// - definition heads without a keyword: `async list(opts): Promise<T> {`, `rollout() {` (shell),
//   `size_t ringbuf_peek(const struct rb *r, size_t len)` (Allman, declared parameters), `Buffer
//   *buffer_new(void) {` (a pointer result), `Response UserHandler::handle(…) {` (named with its
//   owner: `AddressHandler::handle` is not `TicketHandler::handle`);
// - `keyword Name {` blocks of schema languages: `message Network {`, `service Infra {`;
// - test blocks without parentheses: `it "pushes" $`, `it 'works' do`;
// - clauses of one function told apart by their patterns: `def handle_call({:check, key}, …) do`,
//   `simplify (Neg (Neg e)) = simplify e`;
// - a call block whose name is its first argument, on the line below its head: `router.post(` /
//   `"/projects",` (rowIdentity: the head and the literal line both name the block).
import { solidRow, type Lines } from './lines.js';

/** First words that make a `word (…) {` line a statement, not a definition head. */
export const CONTROL = new Set([
  'if', 'for', 'foreach', 'while', 'switch', 'catch', 'with', 'when', 'match', 'until', 'unless', 'elif', 'else', 'do', 'try',
  'return', 'new', 'await', 'yield', 'throw', 'throws', 'case', 'using', 'lock', 'fixed', 'synchronized', 'guard', 'loop', 'select',
  'defer', 'go', 'print', 'echo', 'puts', 'raise', 'assert', 'not', 'and', 'or', 'in', 'of', 'is', 'as', 'delete', 'typeof',
  'sizeof', 'checked', 'unchecked', 'foreach', 'repeat', 'where', 'function', 'def', 'fn', 'func', 'sub', 'super', 'this', 'self',
]);
const HEAD_MODIFIERS = /^(?:(?:export|default|public|private|protected|internal|static|async|final|abstract|virtual|inline|override|readonly|extern|const|unsafe|open|sealed|suspend|partial|get|set|constexpr|explicit|friend|operator)\s+)*/;
/** `[type tokens] name<generics>(params)[: ret | -> ret | const | throws X | async | override] {` */
const BRACE_HEAD = /^((?:[\w<>[\],.?*&:]+\s+)*?)(?:(?<=\s)[*&]+)?([A-Za-z_$~][\w$]*(?:::[~\w$]+)*)\s*(?:<[^()]*>)?\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*(?:(?::|->)\s*[^{=;]+?)?\s*(?:const\s*|noexcept\s*|throws\s+[\w.,\s]+|(?:async\*?|sync\*|override|final)\s*)?\{$/;
/** The same without the brace (Allman): at least one type token before the name, declared parameters. */
const ALLMAN_HEAD = /^((?:[\w<>[\],.?*&:]+\s+)+?)(?:(?<=\s)[*&]+)?([A-Za-z_$~][\w$]*(?:::[~\w$]+)*)\s*\(([^()]*)\)\s*(?:const|noexcept)?$/;
/** A head whose parameter list goes on below (`ssize_t show(struct device *dev,`, `Task<T> List(`): the declared parameters so far. */
const OPEN_PARAMS_HEAD = /^((?:[\w<>[\],.?*&:]+\s+)+?)(?:(?<=\s)[*&]+)?([A-Za-z_$~][\w$]*(?:::[~\w$]+)*)\s*(?:<[^()]*>)?\s*\(((?:[^(),]+,\s*)*)$/;
const DECLARED_PARAM = /^(?:[\w<>[\].:*&]+\s+)+[*&]*[\w$]+(?:\s*=\s*[^,]+)?$/;
const SHELL_FUNCTION = /^(?:function\s+)?([\w.:-]+)\s*\(\)\s*\{?$|^function\s+([\w.:-]+)\s*\{?$/;
const SCHEMA_BLOCK = /^(message|service|rpc|enum|oneof|extend|input|type|schema|scalar|union|model|table|entity|protocol|extension|actor|mod|package)\s+([A-Za-z_][\w.]*)\b[^=]*\{$/;
/** A switch label (`case OP_MOD:`, `case 'undo':`): the value names the case's block. */
const CASE_LABEL = /^case\s+(.+?)\s*:\s*\{?$/;
/** Test heads that take their name without parentheses: RSpec and Elixir words, Expecto's `testCase "name" <| fun _ ->`. */
const BARE_TEST = /^(describe|context|it|test|specify|scenario|feature|prop|[fp]?test(?:Case|CaseAsync|Task|List|Property))\s+(['"`])(.*?)\2/;
/** A `def`-style head whose first parameter is a pattern (tuple, atom, literal): one clause of several. */
const CLAUSE_HEAD = /^(?:defp?|defmacrop?|fun|fn)\s+([\w?!]+)\s*\(\s*([{[%:"'\d][^,)]*|\{[^}]*\})/;
/** `name pat… = rhs` with a constructor or literal pattern (Haskell, Elm, OCaml equations). */
const EQUATION_CLAUSE = /^([a-z_][\w']*)((?:\s+(?:[\w']+|\([^()]*(?:\([^()]*\)[^()]*)*\)|\[[^[\]]*\]|"[^"]*"|'[^']*'))+)\s*=(?![=>])/;

/** A clause head of a function defined by several (`def handle_call({:check, key}, …) do`), or null. */
export function clauseIdentity(norm: string): string | null {
  const m = CLAUSE_HEAD.exec(norm);
  return m ? `clause ${m[1]}(${m[2]!.replace(/\s+/g, '')}` : null;
}

/** A Lisp definition form, up to the name it defines (`(defn fetch-user [id]`, `(defun my/setup ()`, `(define (parse-row line)`). */
const LISP_DEFINITION = /^\((?:defn-?|defmacro|defmulti|defmethod|defun|defvar|defparameter|defcustom|defconst|define|def)\s+\(?([^\s()[\]{}"';]+)/;

/** A CSS rule headed by a class or id selector (`.hint.weak {`, `#nav a:hover {`): its selector names it. Not a
 *  chained call or a Zig switch arm (`.addCase(x, (s) => {`, `.mul => blk: {`): no `=` or brackets. */
const CLASS_RULE = /^([.#][\w-][^{};=()'"]*?)\s*\{$/;

/** The name a Lisp definition form defines, or null. */
export function lispDefinitionName(norm: string): string | null {
  return LISP_DEFINITION.exec(norm)?.[1] ?? null;
}

/** The extra name a normalised line heads, or null. */
export function extraIdentity(norm: string): string | null {
  const lisp = lispDefinitionName(norm);
  if (lisp !== null) return `def ${lisp}`;
  let m = SHELL_FUNCTION.exec(norm);
  if (m) return `def ${m[1] ?? m[2]}`;
  if ((m = SCHEMA_BLOCK.exec(norm))) return `def ${m[2]}`;
  if ((m = BARE_TEST.exec(norm))) return `test ${m[1]} ${m[3]}`;
  if ((m = CASE_LABEL.exec(norm))) return `case ${m[1]}`;
  if ((m = CLASS_RULE.exec(norm))) return `rule ${m[1]}`;
  if ((m = EQUATION_CLAUSE.exec(norm)) && /[(\["'\dA-Z]/.test(m[2]!) && /^\s*\S/.test(norm.slice(m[0].length))) return `clause ${m[1]}${m[2]!.replace(/\s+/g, ' ')}`;
  const body = norm.replace(HEAD_MODIFIERS, '');
  if ((m = BRACE_HEAD.exec(body)) && headName(m[1]!, m[2]!)) return `def ${m[2]!}`;
  if ((m = ALLMAN_HEAD.exec(body)) && headName(m[1]!, m[2]!) && declaredParams(m[3]!)) return `def ${m[2]!}`;
  return null;
}

/**
 * The definition a line heads whose parameter list it leaves open (`static ssize_t rpm_show(struct
 * device *dev,`, `public async Task<IActionResult> Get(`): at least one type token before the name, and
 * each parameter it completes declared. Null otherwise (a call left open has no type before its name).
 */
export function openHeadIdentity(norm: string): string | null {
  const m = OPEN_PARAMS_HEAD.exec(norm.replace(HEAD_MODIFIERS, ''));
  if (!m || !headName(m[1]!, m[2]!)) return null;
  const done = m[3]!.split(',').map((p) => p.trim()).filter((p) => p !== '');
  return done.every((p) => DECLARED_PARAM.test(p)) ? `def ${m[2]!}` : null;
}

/** Words that never name a method, even after a type (`public void delete(long id) {` does name one). */
const NEVER_NAMES = new Set(['function', 'def', 'fn', 'func', 'sub', 'super', 'this', 'self', 'new', 'if', 'for', 'while', 'switch', 'catch', 'return']);

/** A key or label before a value: one colon at the word's end. */
const KEY_WORD = /(?:^|[^:]):$/;

function headName(types: string, name: string): boolean {
  if (CONTROL.has(name) && (types.trim() === '' || NEVER_NAMES.has(name))) return false;
  // A word ending in one colon is a key or label, no type: `child: ListTile(` is a named argument
  // (Dart, Kotlin, Swift), not the head of a `ListTile` definition (`std::string` keeps its colons).
  for (const t of types.trim().split(/\s+/)) if (t && (CONTROL.has(t) || KEY_WORD.test(t))) return false;
  return true;
}

function declaredParams(params: string): boolean {
  const p = params.trim();
  if (p === '' || p === 'void') return true;
  return p.split(',').every((x) => DECLARED_PARAM.test(x.trim()));
}

/** A call left open at the end of its line (`router.post(`, `app.get(`): the block a literal below names. */
const OPEN_CALL = /^([\w$.@]+)\s*\(\s*$/;
/** A string literal argument alone on its line (`"/projects",`). */
const LITERAL_ARG = /^(['"`])(.*)\1\s*,?$/;

/**
 * What row x of `l` names, reading the line below or above too: `router.post(` followed by
 * `"/projects",` names the call `router.post "/projects"`, and so does the literal line itself.
 * Null when it names nothing; `self` is the line's own identity (line-identity.ts's).
 */
export function rowIdentity(l: Lines, x: number, self: (norm: string) => string | null): string | null {
  const own = self(l.norm[x]!);
  if (own !== null) return own;
  const head = OPEN_CALL.exec(l.norm[x]!);
  if (head) {
    const next = solidRow(l, x, 1);
    const lit = next < 0 ? null : LITERAL_ARG.exec(l.norm[next]!);
    return lit && !literalList(l, x) ? `call ${head[1]} ${lit[2]}` : null;
  }
  const lit = LITERAL_ARG.exec(l.norm[x]!);
  if (lit) {
    const prev = solidRow(l, x, -1);
    const call = prev < 0 ? null : OPEN_CALL.exec(l.norm[prev]!);
    if (call && !literalList(l, prev)) return `call ${call[1]} ${lit[2]}`;
  }
  return null;
}

/**
 * The block opened at row h holds literals only (`import (` / `"encoding/csv"` / `"errors"`, a call
 * given a list of paths): its first literal is one item of a list, not the block's name, so deleting
 * that item leaves the same block (a route's `"/projects",` is followed by its handler, not a literal).
 */
function literalList(l: Lines, h: number): boolean {
  let items = 0;
  for (let y = h + 1; y < l.text.length; y++) {
    if (l.blank[y]) continue;
    if (l.indent[y]! <= l.indent[h]!) return items > 1 && /^[)\]]/.test(l.norm[y]!);
    if (!LITERAL_ARG.test(l.norm[y]!)) return false;
    items++;
  }
  return false;
}

/** The row of the block head a name line belongs to: itself, or the open call above a literal line. */
export function namedHeadRow(l: Lines, x: number): number {
  if (LITERAL_ARG.test(l.norm[x]!)) {
    const prev = solidRow(l, x, -1);
    if (prev >= 0 && OPEN_CALL.test(l.norm[prev]!)) return prev;
  }
  return x;
}

/** A style rule for one class or id selector (`.password-field {`, `.card__price:hover {`). */
const STYLE_RULE = /^([.#][A-Za-z_-][\w-]*(?:[.#:]{1,2}[\w-]+)*)\s*\{$/;

/**
 * Two style rules for other selectors (`.product-card__old-price {` beside `.product-card__price {`):
 * a new rule for a class the template brings in, not the old rule edited. Read only where a hunk
 * without exact anchors looks for an edited line (unanchored-placement.ts similarAnchor): as a line identity
 * everywhere it changed which rules a removal by adjacency reaches (set as css01).
 */
export function otherStyleRule(a: string, b: string): boolean {
  const ra = STYLE_RULE.exec(a)?.[1];
  const rb = ra && STYLE_RULE.exec(b)?.[1];
  return !!ra && !!rb && ra !== rb;
}
