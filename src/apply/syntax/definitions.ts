// Definitions in a syntax tree: functions, methods, classes, structs, enums, interfaces, impls,
// modules, route registrations (`app.get('/x', …)`), test blocks, CSS rules and YAML keys, each
// with its kind, name and whole-line range. The syntax merge matches an update's definitions to the
// original's by kind group and name (see place.ts).
import type { Node, Tree } from 'web-tree-sitter';
import type { LanguageId } from './grammars.js';

export type DefKind =
  | 'function' | 'method' | 'class' | 'struct' | 'enum' | 'interface' | 'trait' | 'impl' | 'module'
  | 'type' | 'property' | 'route' | 'test' | 'rule' | 'at-rule' | 'sql' | 'key';

export interface Definition {
  kind: DefKind;
  name: string;
  /** First and last row (0-based, inclusive) of the definition's lines. */
  start: number;
  end: number;
  /** Index of the innermost enclosing definition in the same list, -1 at top level. */
  parent: number;
  /** True when the node is alone on its lines (nothing but whitespace, `;` or `,` beside it): only then can its lines be swapped. */
  wholeLines: boolean;
  /** The header line (first line, trimmed), to tell overloads apart. */
  header: string;
  /** No syntax error or missing token inside the definition. */
  clean: boolean;
}

/** Kinds that count as "the same kind" for matching (a method shown without its class parses as a function). */
export function kindGroup(k: DefKind): string {
  switch (k) {
    case 'function': case 'method': return 'callable';
    case 'class': case 'struct': case 'enum': case 'interface': case 'trait': case 'type': return 'type';
    default: return k;
  }
}

type NameFn = (n: Node) => string | null;

/**
 * The source being walked. Node text comes from it by offset: web-tree-sitter's `node.text`
 * re-reads the input from the node to the end of the file, which made naming quadratic.
 */
let SRC = '';
function T(n: Node): string;
function T(n: Node | null | undefined): string | null;
function T(n: Node | null | undefined): string | null {
  return n ? SRC.slice(n.startIndex, n.endIndex) : null;
}
interface Spec { kind: DefKind | ((n: Node) => DefKind | null); name?: NameFn }

const field = (f: string): NameFn => (n) => T(n.childForFieldName(f)) ?? null;
const byName = field('name');
const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** C/C++ declarators nest (`*make(int)`, `A::g()`): the name is the innermost identifier-like node. */
function declaratorName(n: Node): string | null {
  let d: Node | null = n.childForFieldName('declarator');
  for (let guard = 0; d && guard < 16; guard++) {
    if (['identifier', 'field_identifier', 'qualified_identifier', 'destructor_name', 'operator_name', 'type_identifier'].includes(d.type)) return squash(T(d));
    d = d.childForFieldName('declarator') ?? d.namedChildren.find((c): c is Node => c !== null && /identifier|declarator/.test(c.type)) ?? null;
  }
  return null;
}

/** `app.get('/x', …)`, `router.post("/y", …)`: "GET /x". */
const HTTP_VERBS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'all', 'use', 'options', 'head', 'route']);
const TEST_CALLS = new Set(['describe', 'it', 'test', 'context', 'suite']);
function firstStringArg(call: Node): string | null {
  const args = call.childForFieldName('arguments');
  const a = args?.namedChildren[0];
  if (!a || (a.type !== 'string' && a.type !== 'template_string')) return null;
  return T(a);
}
function callKind(stmt: Node): { kind: DefKind; name: string } | null {
  const call = stmt.namedChildren[0];
  if (!call || call.type !== 'call_expression') return null;
  const fn = call.childForFieldName('function');
  if (!fn) return null;
  const arg = firstStringArg(call);
  if (arg === null) return null;
  if (fn.type === 'member_expression') {
    const prop = T(fn.childForFieldName('property')) ?? '';
    if (HTTP_VERBS.has(prop)) return { kind: 'route', name: `${T(fn.childForFieldName('object')) ?? ''}.${prop} ${arg}` };
    const obj = T(fn.childForFieldName('object')) ?? '';
    if (TEST_CALLS.has(obj) && (prop === 'only' || prop === 'skip' || prop === 'each')) return null;
    return null;
  }
  if (fn.type === 'identifier' && TEST_CALLS.has(T(fn))) return { kind: 'test', name: `${T(fn)} ${arg}` };
  return null;
}

/** `const f = () => {…}` / `const f = function…`: a function definition by another spelling. */
function boundFunction(n: Node): string | null {
  const decls = n.namedChildren.filter((c): c is Node => c !== null && c.type === 'variable_declarator');
  if (decls.length !== 1) return null;
  const v = decls[0]!.childForFieldName('value');
  if (!v || !['arrow_function', 'function_expression', 'function', 'generator_function', 'class'].includes(v.type)) return null;
  return T(decls[0]!.childForFieldName('name')) ?? null;
}

const JS: Record<string, Spec> = {
  function_declaration: { kind: 'function' },
  generator_function_declaration: { kind: 'function' },
  class_declaration: { kind: 'class' },
  abstract_class_declaration: { kind: 'class' },
  method_definition: { kind: 'method' },
  interface_declaration: { kind: 'interface' },
  type_alias_declaration: { kind: 'type' },
  enum_declaration: { kind: 'enum' },
  internal_module: { kind: 'module' },
  lexical_declaration: { kind: (n) => (boundFunction(n) ? 'function' : null), name: boundFunction },
  expression_statement: { kind: (n) => callKind(n)?.kind ?? null, name: (n) => callKind(n)?.name ?? null },
};

/**
 * A function defined through a macro (`TEST_F(CacheTest, Evicts) {…}`, `BOOST_AUTO_TEST_CASE(parses)
 * {…}`): no return type, an upper-case macro name, bare identifiers for parameters. Every one of
 * them has the macro's name, so the arguments are what tell a test from its siblings.
 */
function macroDefinedName(n: Node): string | null {
  const d = n.childForFieldName('declarator');
  if (n.childForFieldName('type') || d?.type !== 'function_declarator') return null;
  const macro = d.childForFieldName('declarator');
  if (macro?.type !== 'identifier' || !/^[A-Z][A-Z0-9_]*$/.test(T(macro))) return null;
  const params = d.childForFieldName('parameters')?.namedChildren ?? [];
  const bare = params.every((p) => p?.type === 'parameter_declaration' && !p.childForFieldName('declarator') && p.childForFieldName('type')?.type === 'type_identifier');
  return params.length > 0 && bare ? squash(T(d)) : null;
}

const C: Record<string, Spec> = {
  function_definition: { kind: 'function', name: (n) => macroDefinedName(n) ?? declaratorName(n) },
  struct_specifier: { kind: (n) => (n.childForFieldName('body') && n.childForFieldName('name') ? 'struct' : null) },
  union_specifier: { kind: (n) => (n.childForFieldName('body') && n.childForFieldName('name') ? 'struct' : null) },
  enum_specifier: { kind: (n) => (n.childForFieldName('body') && n.childForFieldName('name') ? 'enum' : null) },
  type_definition: { kind: (n) => (n.childForFieldName('type')?.childForFieldName('body') ? 'type' : null), name: declaratorName },
};

const SPECS: Record<LanguageId, Record<string, Spec>> = {
  typescript: JS,
  tsx: JS,
  javascript: JS,
  python: {
    function_definition: { kind: 'function' },
    class_definition: { kind: 'class' },
  },
  go: {
    function_declaration: { kind: 'function' },
    method_declaration: {
      kind: 'method',
      // The receiver type is part of a Go method's identity: (s *Server) Start → Server.Start.
      name: (n) => {
        const recv = T(n.childForFieldName('receiver')) ?? '';
        const t = /([A-Za-z_]\w*)(?:\[[^\]]*\])?\s*\)\s*$/.exec(recv)?.[1] ?? '';
        const name = T(n.childForFieldName('name'));
        return name ? `${t}.${name}` : null;
      },
    },
    type_spec: {
      kind: (n) => {
        const t = n.childForFieldName('type')?.type;
        return t === 'struct_type' ? 'struct' : t === 'interface_type' ? 'interface' : 'type';
      },
    },
  },
  rust: {
    function_item: { kind: 'function' },
    function_signature_item: { kind: 'function' },
    struct_item: { kind: 'struct' },
    enum_item: { kind: 'enum' },
    union_item: { kind: 'struct' },
    trait_item: { kind: 'trait' },
    mod_item: { kind: 'module' },
    macro_definition: { kind: 'function' },
    impl_item: {
      kind: 'impl',
      name: (n) => {
        const ty = T(n.childForFieldName('type'));
        const tr = T(n.childForFieldName('trait'));
        return ty ? squash(tr ? `${tr} for ${ty}` : ty) : null;
      },
    },
  },
  java: {
    class_declaration: { kind: 'class' },
    interface_declaration: { kind: 'interface' },
    enum_declaration: { kind: 'enum' },
    record_declaration: { kind: 'class' },
    annotation_type_declaration: { kind: 'interface' },
    method_declaration: { kind: 'method' },
    constructor_declaration: { kind: 'method' },
  },
  c: C,
  cpp: {
    ...C,
    class_specifier: { kind: (n) => (n.childForFieldName('body') && n.childForFieldName('name') ? 'class' : null) },
    namespace_definition: { kind: (n) => (n.childForFieldName('name') ? 'module' : null) },
  },
  csharp: {
    class_declaration: { kind: 'class' },
    struct_declaration: { kind: 'struct' },
    interface_declaration: { kind: 'interface' },
    enum_declaration: { kind: 'enum' },
    record_declaration: { kind: 'class' },
    method_declaration: { kind: 'method' },
    constructor_declaration: { kind: 'method' },
    // A method shown without its class parses as a top-level local function.
    local_function_statement: { kind: 'function' },
    property_declaration: { kind: 'property' },
    namespace_declaration: { kind: 'module' },
  },
  ruby: {
    method: { kind: 'method' },
    singleton_method: { kind: 'method', name: (n) => { const nm = byName(n); return nm ? `self.${nm}` : null; } },
    class: { kind: 'class' },
    module: { kind: 'module' },
  },
  php: {
    function_definition: { kind: 'function' },
    method_declaration: { kind: 'method' },
    class_declaration: { kind: 'class' },
    interface_declaration: { kind: 'interface' },
    trait_declaration: { kind: 'trait' },
    enum_declaration: { kind: 'enum' },
  },
  kotlin: {
    class_declaration: {
      kind: (n) => (/^[^{(]*\binterface\b/.test(T(n)) ? 'interface' : /^[^{(]*\benum\s+class\b/.test(T(n)) ? 'enum' : 'class'),
    },
    object_declaration: { kind: 'class' },
    function_declaration: { kind: 'function' },
  },
  swift: {
    class_declaration: {
      kind: (n) => {
        const k = T(n.childForFieldName('declaration_kind')) ?? /^\s*(?:\w+\s+)*?(class|struct|enum|extension|actor)\b/.exec(T(n))?.[1];
        return k === 'struct' ? 'struct' : k === 'enum' ? 'enum' : k === 'extension' ? 'impl' : 'class';
      },
      name: (n) => T(n.childForFieldName('name')) ?? null,
    },
    protocol_declaration: { kind: 'interface' },
    function_declaration: { kind: 'function' },
    protocol_function_declaration: { kind: 'function' },
    init_declaration: { kind: 'method', name: (n) => `init${squash(T(n).slice(T(n).indexOf('('), T(n).indexOf(')') + 1)).replace(/:[^,)]*/g, ':')}` },
  },
  css: {
    rule_set: { kind: 'rule', name: (n) => { const s = n.namedChildren.find((c) => c?.type === 'selectors'); return s ? squash(T(s)) : null; } },
    media_statement: { kind: 'at-rule', name: (n) => squash(T(n).slice(0, T(n).indexOf('{'))) },
    supports_statement: { kind: 'at-rule', name: (n) => squash(T(n).slice(0, T(n).indexOf('{'))) },
    keyframes_statement: { kind: 'at-rule', name: (n) => squash(T(n).slice(0, T(n).indexOf('{'))) },
  },
  bash: {
    function_definition: { kind: 'function' },
  },
  yaml: {
    block_mapping_pair: { kind: 'key', name: (n) => T(n.childForFieldName('key')) ?? null },
  },
};

/** Nodes that wrap one definition and belong to its lines (`export`, decorators, `template<…>`). */
const WRAPPERS = new Set(['export_statement', 'decorated_definition', 'template_declaration', 'ambient_declaration']);

function wholeLines(source: string, lineStarts: number[], start: number, end: number, startRow: number, endRow: number): boolean {
  const before = source.slice(lineStarts[startRow]!, start);
  if (before.trim() !== '') return false;
  const lineEnd = endRow + 1 < lineStarts.length ? lineStarts[endRow + 1]! : source.length;
  return /^[\s;,]*$/.test(source.slice(end, lineEnd));
}

export function lineStartsOf(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/**
 * A YAML pair's last row before the comments the parser hung on its end: a comment no deeper than
 * the key, after its value, heads the next key (`# -- Name of …` over `existingSecret:`), not this one.
 */
function withoutOutdentedComments(source: string, lineStarts: number[], startRow: number, endRow: number, firstLine: string): number {
  const col = /^[ \t]*/.exec(firstLine)![0].length;
  const row = (r: number) => source.slice(lineStarts[r]!, lineStarts[r + 1] ?? source.length);
  let r = endRow;
  let comments = 0;
  for (; r > startRow; r--) {
    const line = row(r);
    if (line.trim() === '') continue;
    if (!/^[ \t]*#/.test(line) || /^[ \t]*/.exec(line)![0].length > col) break;
    comments++;
  }
  return comments > 0 ? r : endRow;
}

/**
 * Every definition in `tree`, in document order, parents before children. Node offsets are in
 * UTF-16 code units (web-tree-sitter's JS API), rows count '\n'.
 */
export function extractDefinitions(tree: Tree, lang: LanguageId, source: string): Definition[] {
  const spec = SPECS[lang];
  SRC = source;
  const lineStarts = lineStartsOf(source);
  const defs: Definition[] = [];
  const consider = (n: Node, parent: number): number => {
    const s = spec[n.type]!;
    const kind = typeof s.kind === 'function' ? s.kind(n) : s.kind;
    const name = kind ? (s.name ?? byName)(n) : null;
    if (!kind || !name) return parent;
    let outer = n;
    while (outer.parent && WRAPPERS.has(outer.parent.type) && outer.parent.namedChildren.filter((c) => c?.type !== 'decorator' && c?.type !== 'comment' && c?.type !== 'template_parameter_list').length === 1) outer = outer.parent;
    const startRow = outer.startPosition.row;
    // A node ending at column 0 of the next row (YAML pairs end after the newline) ends on the row before.
    let endRow = outer.endPosition.column === 0 && outer.endPosition.row > startRow ? outer.endPosition.row - 1 : outer.endPosition.row;
    const firstLine = source.slice(lineStarts[startRow]!, lineStarts[startRow + 1] ?? source.length);
    if (lang === 'yaml') endRow = withoutOutdentedComments(source, lineStarts, startRow, endRow, firstLine);
    defs.push({
      kind: kind === 'function' && parent >= 0 && (kindGroup(defs[parent]!.kind) === 'type' || defs[parent]!.kind === 'impl') ? 'method' : kind,
      name,
      start: startRow,
      end: endRow,
      parent,
      wholeLines: wholeLines(source, lineStarts, outer.startIndex, outer.endIndex, startRow, endRow),
      header: squash(firstLine),
      clean: !outer.hasError,
    });
    return defs.length - 1;
  };
  // A cursor walk: only nodes of a definition type are materialised (a Node per tree node costs
  // a WASM round trip and an allocation, which dominated on 10,000-line files).
  const cursor = tree.walk();
  const parents: Array<[depth: number, def: number]> = [];
  let depth = 0;
  for (;;) {
    while (parents.length > 0 && parents[parents.length - 1]![0] >= depth) parents.pop();
    const parent = parents.length > 0 ? parents[parents.length - 1]![1] : -1;
    let descend = true;
    if (cursor.nodeIsNamed && spec[cursor.nodeType]) {
      const here = consider(cursor.currentNode, parent);
      if (here !== parent) parents.push([depth, here]);
      // Function bodies are not walked: what matters for placement are definitions at file and
      // container level, and a body is most of a file's nodes (a nested function is swapped with
      // the function around it).
      if (here !== parent && kindGroup(defs[here]!.kind) === 'callable') descend = false;
    }
    if (descend && cursor.gotoFirstChild()) { depth++; continue; }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) { cursor.delete(); return defs; }
      depth--;
    }
  }
}

/** Member definitions need a class around them to parse in these languages (a method shown without its class). */
export const MEMBER_WRAPPER: Partial<Record<LanguageId, [string, string]>> = {
  java: ['class __Apply__ {', '}'],
  csharp: ['class __Apply__ {', '}'],
  kotlin: ['class __Apply__ {', '}'],
  swift: ['class __Apply__ {', '}'],
  typescript: ['class __Apply__ {', '}'],
  tsx: ['class __Apply__ {', '}'],
  javascript: ['class __Apply__ {', '}'],
  cpp: ['class __Apply__ {', '};'],
  php: ['class __Apply__ {', '}'],
};

/** Text every parse of this language starts with (PHP code is outside `<?php` otherwise). */
export function parsePrefix(lang: LanguageId, text: string): string {
  return lang === 'php' && !/^\s*<\?php/.test(text) ? '<?php\n' : '';
}
