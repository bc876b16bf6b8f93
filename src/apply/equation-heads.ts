// Definitions written as equations, in languages without a definition keyword: Haskell, Elm,
// PureScript (`completeTodo store i = atomically $ do`), OCaml/F# (`let rec walk acc = function`;
// F# names in double backticks, ``let ``total is the sum`` () =``, as its tests are written).
// Only a head whose body goes on below it counts (nothing after the `=`, or a line ending in `do`,
// `where`, `of`, `function`, `->`): a binding finished on its own line (`x = 5`) names nothing here.
const LHS = /^(?:let\s+(?:rec\s+)?|and\s+)?([a-z_][\w']*|``[^`]+``)(?:\s+(?:[\w']+|\([^()]*\)|\{[^{}]*\}|\[[^[\]]*\]))*\s*$/;
const BODY_FOLLOWS = /(?:^|\s)(?:do|where|of|function|->)$/;
const KEYWORDS = new Set(['if', 'then', 'else', 'case', 'of', 'let', 'in', 'where', 'do', 'module', 'import', 'data', 'type', 'newtype', 'instance', 'class', 'deriving', 'return', 'val', 'var', 'const', 'match', 'with', 'when', 'unless', 'while', 'for']);

/** The name an equation-style definition head defines, or null. */
export function equationHeadName(norm: string): string | null {
  const eq = /(?<![=<>!/:+\-*|&^%])=(?![=>])/.exec(norm);
  if (!eq) return null;
  const m = LHS.exec(norm.slice(0, eq.index));
  if (!m || KEYWORDS.has(m[1]!)) return null;
  const rhs = norm.slice(eq.index + 1).trim();
  return rhs === '' || BODY_FOLLOWS.test(rhs) ? m[1]! : null;
}
