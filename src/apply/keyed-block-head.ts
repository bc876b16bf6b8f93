// The name a brace block head of a declarative text gives its block: a style rule's selector
// (`.btn--ghost {`, `&.is-active {`), a directive with its arguments (`location /imports/ {`,
// `handle /static/* {`), an attribute path or key set to a block (`programs.fzf = {`,
// `"staging": {`). Such blocks are siblings told apart only by that head; their bodies are written
// alike (the same proxy lines, the same colours). new-members.ts reads a head the original has
// nowhere as a new definition, so the lines it copies from a sibling do not anchor on that sibling.
// Control statements (`if err != nil {`, `} else {`), calls and literals are no such heads.
import { CONTROL } from './block-names.js';

/** Words that open a statement, not a named block: declarations of variables, blocks of code. */
const STATEMENT_WORDS = new Set(['const', 'let', 'var', 'val', 'my', 'local', 'export', 'default', 'unsafe', 'finally', 'else']);

/** Head text before its ` {`: words with no brackets or separators, then an optional `=` or `:`. */
const HEAD = String.raw`^([^\s{}()=;,]+(?:\s+[^\s{}()=;,]+)*?)\s*(?:=|:)?\s+\{`;
/** A head whose ` {` ends the line: no brackets, quotes only around a key, no operators of code. */
const KEYED_HEAD = new RegExp(`${HEAD}$`);
/** Operators of code that a selector, directive or key never holds. */
const CODE_OPERATOR = /=>|->|:=|==|!=|&&|\|\||<-|\+\+|--\s/;

/** The name the head gives its block, or null when the line is no keyed block head. */
export function keyedBlockHeadName(norm: string): string | null {
  return headName(KEYED_HEAD.exec(norm), norm);
}

/** The same block written whole on one line (`analysis = { typeCheckingMode = "basic" },`): the update
 *  may lay it out over several, under the same head, as that block's edit. */
const ONE_LINE_BLOCK = new RegExp(String.raw`${HEAD}.*\}[,;]?$`);

/** The name a keyed block head gives its block, whether its body goes on below or closes on the line. */
export function keyedBlockName(norm: string): string | null {
  return keyedBlockHeadName(norm) ?? headName(ONE_LINE_BLOCK.exec(norm), norm);
}

function headName(m: RegExpExecArray | null, norm: string): string | null {
  if (!m || CODE_OPERATOR.test(norm)) return null;
  const head = m[1]!;
  // A control word anywhere makes it a statement (`msg match {`, `for x in xs {`).
  const words = head.split(/\s+/);
  if (STATEMENT_WORDS.has(words[0]!) || words.some((w) => CONTROL.has(w)) || /^[}\])]/.test(head)) return null;
  return `block ${head}`;
}
