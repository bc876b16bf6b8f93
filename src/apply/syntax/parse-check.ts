// Does the merged file still parse where its original did? No edit a user asks for breaks a
// file's syntax, so a merge whose result has tree-sitter error nodes while its original had none
// put the update together wrongly (a closer dropped or doubled, a hunk spliced into the wrong
// block). On the committed external sets no exact result ever tripped it (docs/apply.md, branch
// `verify`), so it can lower confidence without costing an exact result. Originals that already
// have error nodes (a grammar that does not read the file fully) give no signal.
import { withoutByteOrderMark } from '../byte-order-mark.js';
import { parsePrefix } from './definitions.js';
import { loadedParser, type LanguageId } from './grammars.js';
import { originalView, readsCleanly, syntaxLineLimit } from './place.js';
import type { Node, Parser, Tree } from 'web-tree-sitter';

/** Error lines reported per result (enough to find them; the header stays short). */
const MAX_REPORTED = 5;

function parse(parser: Parser, lang: LanguageId, source: string): Tree | null {
  return parser.parse(parsePrefix(lang, source) + source);
}

/** The first loaded grammar detect.ts proposes that parses `code` with no error node (the syntax pass's cached verdict). */
function cleanGrammar(code: string): LanguageId | null {
  const { source, orig, languages } = originalView(code);
  for (const lang of languages) {
    if (lang === 'sql' || orig.text.length > syntaxLineLimit(lang) || !loadedParser(lang)) continue;
    if (readsCleanly(lang, source)) return lang;
  }
  return null;
}

/** 1-based lines of the first error or missing nodes under `node` (descending only where errors are). */
function errorLines(node: Node, shift: number, out: number[]): void {
  for (const child of node.children) {
    if (!child || out.length >= MAX_REPORTED) return;
    if (child.isError || child.isMissing) {
      const line = child.startPosition.row + 1 - shift;
      if (!out.includes(line)) out.push(line);
    } else if (child.hasError) errorLines(child, shift, out);
  }
}

/**
 * Lines (1-based) where `merged` fails to parse, when its original parsed cleanly in a loaded
 * grammar; null when there is nothing to report (no such grammar, or the result parses).
 */
export function newSyntaxErrors(original: string, merged: string): number[] | null {
  const lang = cleanGrammar(original);
  if (!lang) return null;
  const parser = loadedParser(lang)!;
  const source = withoutByteOrderMark(merged);
  const tree = parse(parser, lang, source);
  if (!tree) return null;
  try {
    if (!tree.rootNode.hasError) return null;
    const out: number[] = [];
    errorLines(tree.rootNode, parsePrefix(lang, source) === '' ? 0 : 1, out);
    return out.length > 0 ? out.sort((a, b) => a - b) : [1];
  } finally {
    tree.delete();
  }
}
