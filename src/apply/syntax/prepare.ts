// Loads the grammars an apply request may need before its (synchronous) merge runs: the worker
// awaits this per task; after the first request in a language it resolves at once.
import { parseApplyContent } from '../parse.js';
import { detectLanguages } from './detect.js';
import { withoutByteOrderMark } from '../byte-order-mark.js';
import { ensureGrammar } from './grammars.js';

export async function prepareSyntax(content: string): Promise<void> {
  const parsed = parseApplyContent(content);
  if (!parsed.ok) return;
  const code = parsed.input.code;
  for (const lang of detectLanguages(withoutByteOrderMark(code))) {
    if (lang !== 'sql') await ensureGrammar(lang);
  }
}
