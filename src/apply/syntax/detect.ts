// Which grammar an apply request's code is written in. The request carries no file name, so the
// language is guessed from the text (cheap regex evidence), best first; the syntax merge then
// accepts a guess only when the original parses without an error.
import type { LanguageId } from './grammars.js';

type Evidence = Array<[RegExp, number]>;

const EVIDENCE: Array<[LanguageId | 'sql', Evidence]> = [
  ['php', [[/^\s*<\?php/, 50], [/\$this->/, 8], [/\bfunction\s+\w+\s*\(.*\$\w+/, 6]]],
  ['go', [[/^package\s+\w+\s*$/m, 20], [/^func\s/m, 10], [/:=/, 3], [/\berr != nil\b/, 6]]],
  ['rust', [[/^\s*(?:pub(?:\([^)]*\))?\s+)?fn\s+\w+/m, 10], [/\blet\s+mut\b/, 6], [/^\s*impl\b/m, 8], [/^\s*use\s+[\w:]+::/m, 6], [/^\s*#\[derive/m, 8], [/&self\b/, 6]]],
  ['python', [[/^\s*def\s+\w+\s*\(.*\)\s*(?:->[^:]+)?:\s*$/m, 12], [/^\s*class\s+\w+.*:\s*$/m, 6], [/^(?:from\s+\S+\s+)?import\s+\w/m, 2], [/\bself\.\w/, 4], [/^\s*elif\b/m, 6], [/\bNone\b/, 3]]],
  ['ruby', [[/^\s*def\s+[\w.?!]+(?:\(.*\))?\s*$/m, 10], [/^\s*end\s*$/m, 6], [/^\s*require(?:_relative)?\s+['"]/m, 6], [/^\s*(?:module|class)\s+[A-Z]\w*(?:\s*<\s*[\w:]+)?\s*$/m, 6], [/\battr_(?:reader|accessor)\b/, 8], [/\bdo\s*\|/, 6]]],
  ['kotlin', [[/^\s*(?:(?:private|public|internal|override|suspend|inline)\s+)*fun\s+/m, 12], [/^\s*(?:val|var)\s+\w+/m, 3], [/^package\s+[\w.]+\s*$/m, 4], [/\bdata class\b/, 8], [/\bcompanion object\b/, 8]]],
  ['swift', [[/^\s*(?:(?:private|public|internal|static|override|mutating|@\w+)\s+)*func\s+\w+/m, 10], [/^import\s+(?:Foundation|SwiftUI|UIKit)\s*$/m, 12], [/\bguard\s+let\b/, 8], [/\bif\s+let\b/, 6], [/^\s*(?:let|var)\s+\w+\s*:/m, 2], [/\bprotocol\s+\w+/, 4]]],
  ['java', [[/^package\s+[\w.]+;\s*$/m, 12], [/^import\s+java\./m, 12], [/\bpublic\s+(?:final\s+)?class\b/, 8], [/\bSystem\.out\./, 8], [/@Override\b/, 6], [/\bprivate\s+final\s+\w+/, 4]]],
  ['csharp', [[/^using\s+System[\w.]*;\s*$/m, 14], [/^\s*namespace\s+[\w.]+/m, 6], [/\{\s*get;\s*(?:private\s+)?set;\s*\}/, 10], [/\bpublic\s+(?:async\s+)?Task\b/, 8], [/\bvar\s+\w+\s*=\s*new\b/, 2], [/\bstring\s+\w+/, 2]]],
  ['cpp', [[/^#include\s*[<"]/m, 6], [/\bstd::/, 10], [/^\s*(?:class|struct)\s+\w+[^;]*\{/m, 3], [/^\s*template\s*</m, 10], [/^\s*namespace\s+\w+/m, 8], [/\w::\w+\s*\(/, 4], [/^\s*public:\s*$/m, 8]]],
  ['c', [[/^#include\s*[<"]/m, 8], [/^\s*(?:static\s+)?(?:int|void|char|size_t|unsigned|double|float|bool|struct\s+\w+\s*\*?)\s+\**\w+\s*\([^)]*\)\s*\{?\s*$/m, 6], [/\bmalloc\s*\(|\bfree\s*\(|\bprintf\s*\(/, 4], [/^#define\b/m, 3], [/\btypedef\s+struct\b/, 6]]],
  // Character classes stop at line ends: spanning them made these quadratic on files without `{` or `;` (YAML).
  ['css', [[/^[ \t]*[.#:@]?[\w-][^{}();=\n]*\{[ \t]*$/m, 4], [/^[ \t]*[a-z-]+[ \t]*:[ \t]*[^;{}\n]+;[ \t]*$/m, 6], [/^\s*@media\b/m, 8], [/^\s*:root\s*\{/m, 10], [/\bvar\(--[\w-]+\)/, 6]]],
  ['bash', [[/^#!.*\b(?:ba|z)?sh\b/, 30], [/^\s*(?:function\s+)?\w+\s*\(\)\s*\{/m, 6], [/^\s*fi\s*$/m, 8], [/^\s*esac\s*$/m, 8], [/\$\{\w+[:}]/, 4], [/^\s*set -[euxo]/m, 8], [/^\s*(?:echo|export|local)\s/m, 4]]],
  ['yaml', [[/^[\w-]+:\s*$/m, 5], [/^\s+-\s+\w+:\s/m, 6], [/^\s+[\w-]+:\s+\S/m, 3], [/^---\s*$/m, 4]]],
  ['sql', [[/^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:TABLE|VIEW|FUNCTION|PROCEDURE|TRIGGER|INDEX|TYPE)\b/im, 20], [/^\s*(?:SELECT|INSERT\s+INTO|ALTER\s+TABLE)\b/im, 6]]],
  ['typescript', [[/^\s*(?:export\s+)?(?:interface|type)\s+\w+/m, 10], [/\w\??:\s*(?:string|number|boolean|void|unknown|any|Promise<|Record<|Array<)\b/, 10], [/^\s*import\s+.*\bfrom\s+['"]/m, 4], [/\bas\s+const\b/, 6], [/\b(?:private|readonly|public)\s+\w+\s*[:(]/, 4]]],
  ['javascript', [[/^\s*(?:export\s+)?(?:async\s+)?function\s+\w+/m, 8], [/\brequire\(\s*['"]/, 8], [/\bmodule\.exports\b/, 10], [/^\s*(?:const|let|var)\s+\w+\s*=/m, 3], [/=>\s*\{/, 3], [/^\s*import\s+.*\bfrom\s+['"]/m, 3]]],
];

/** JSX in a TypeScript or JavaScript file: the TSX grammar reads both. */
const JSX = /<[A-Z][\w.]*[\s/>]|<\/[a-z]+>|return\s*\(\s*$/m;

/**
 * Candidate languages for `code`, best first (at most three); `sql` has no grammar (see sql.ts).
 * Empty when nothing matched.
 */
export function detectLanguages(code: string): Array<LanguageId | 'sql'> {
  const sample = code.length > 200_000 ? code.slice(0, 200_000) : code;
  const scored: Array<[LanguageId | 'sql', number]> = [];
  for (const [lang, evidence] of EVIDENCE) {
    let score = 0;
    for (const [re, w] of evidence) if (re.test(sample)) score += w;
    if (score >= 8) scored.push([lang, score]);
  }
  scored.sort((a, b) => b[1] - a[1]);
  const out: Array<LanguageId | 'sql'> = [];
  for (const [lang] of scored) {
    // TypeScript and JavaScript files with JSX parse with TSX; TS is tried before JS (it reads plain JS too).
    if ((lang === 'typescript' || lang === 'javascript') && JSX.test(sample)) {
      if (!out.includes('tsx')) out.push('tsx');
    } else if (lang === 'javascript') {
      if (!out.includes('javascript')) out.push('javascript');
      if (!out.includes('typescript')) out.push('typescript');
    } else if (!out.includes(lang)) out.push(lang);
    if (lang === 'c' && !out.includes('cpp')) out.push('cpp');
  }
  return out.slice(0, 3);
}
