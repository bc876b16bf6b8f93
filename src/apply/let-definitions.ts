// A function defined on one line with `let` (OCaml, F#, a Haskell `let` in a `do` block):
// `let add (inv : t) (it : item) : t = Sku_map.add it.sku it inv`, `let inline sq x = x * x`.
// equation-heads.ts names only heads whose body goes on below; a one-line definition named nothing,
// so a new `let add_new (inv : t) (it : item) =` written after it (held-out set g ml01) read as its
// edit and the definition was dropped. At least one parameter is required: `let x = 5`,
// `let mut total = 0;`, `let x: Int = 5` bind values, they define no function.
const LET_FUNCTION = /^let\s+(?:rec\s+|inline\s+|private\s+|internal\s+)*([a-z_][\w']*)((?:\s+(?:[a-z_][\w']*|[~?][a-z_][\w']*(?::\S+)?|\(\)|\([^()]*(?:\([^()]*\)[^()]*)*\)))+)\s*(?::\s*[^=]+?)?\s*=(?![=>])\s*\S/;
/** Words that follow `let` without being the bound name. */
const NOT_NAMES = new Set(['mut', 'mutable', 'lazy', 'ref', 'rec', 'open', 'module', 'exception', 'in', 'and', 'val', 'var', 'const', 'case', 'some', 'none']);

/** The function a one-line `let` definition defines, or null. */
export function letFunctionName(norm: string): string | null {
  const m = LET_FUNCTION.exec(norm);
  if (!m || NOT_NAMES.has(m[1]!)) return null;
  // A parameter list of keywords (`let x in y = …`) is no definition.
  const params = m[2]!.trim().split(/\s+/);
  if (params.some((p) => NOT_NAMES.has(p))) return null;
  return m[1]!;
}
