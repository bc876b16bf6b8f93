// Blocks closed by a word line instead of a bracket (`end` in Ruby, Lua, Elixir, Crystal, Julia;
// `fi` / `done` / `esac` in shell): a head line, its deeper body, then the closer at the head's
// indentation. A snippet that stops inside such blocks leaves them open by indentation alone;
// unclosed-tail.ts closes them as it closes bracket blocks, with the closer the original writes for
// heads of that kind.
import { codeBracketDelta } from './brackets.js';
import { CLOSER_ONLY } from './closer-pins.js';
import { firstToken, indentBlockEnd, type Lines } from './lines.js';

/** A word closer: CLOSER_ONLY without brackets. */
const WORD_CLOSER = /^[a-z]/;

export interface KeywordBlock {
  /** The head line. */
  line: number;
  /** The closing line's text, without indentation. */
  closer: string;
}

/** Closer texts the original writes after the indentation blocks its heads open, keyed by the head's first and last tokens. */
function originalWordClosers(orig: Lines): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  const add = (key: string, closer: string): void => {
    let m = out.get(key);
    if (!m) out.set(key, (m = new Map()));
    m.set(closer, (m.get(closer) ?? 0) + 1);
  };
  for (let h = 0; h < orig.text.length; h++) {
    if (orig.blank[h]) continue;
    const end = indentBlockEnd(orig, h);
    if (end === h + 1) continue;
    let c = end;
    while (c < orig.text.length && orig.blank[c]) c++;
    if (c >= orig.text.length || orig.indent[c] !== orig.indent[h] || !CLOSER_ONLY.test(orig.norm[c]!) || !WORD_CLOSER.test(orig.norm[c]!)) continue;
    add('', orig.norm[c]!);
    add(`first ${firstToken(orig.norm[h]!)}`, orig.norm[c]!);
    add(`last ${lastToken(orig.norm[h]!)}`, orig.norm[c]!);
  }
  return out;
}

function lastToken(norm: string): string {
  const m = /[\w$]+\W*$/.exec(norm);
  return m ? m[0] : '';
}

function mostCommon(tally: Map<string, number> | undefined): string | null {
  let best: string | null = null;
  let n = 0;
  for (const [t, k] of tally ?? []) if (k > n) [best, n] = [t, k];
  return best;
}

/**
 * The heads over update line `last` (each line before it, back to `start`, less indented than every
 * line between, up to one that leaves a bracket open), outermost first, with the word closer the original writes for such heads; empty
 * when the original closes none of its blocks with a word line (Python, YAML, brace languages).
 */
export function openKeywordBlocks(u: Lines, start: number, last: number, orig: Lines): KeywordBlock[] {
  const closers = originalWordClosers(orig);
  if (!closers.has('')) return [];
  const out: KeywordBlock[] = [];
  let level = u.indent[last]!;
  for (let x = last - 1; x >= start && level > 0; x--) {
    if (u.blank[x] || u.indent[x]! >= level) continue;
    level = u.indent[x]!;
    // A line that leaves a bracket open (`-export([a/1,`) heads a continued expression, not a block.
    if (codeBracketDelta(u.text[x]!) !== 0 || CLOSER_ONLY.test(u.norm[x]!)) break;
    const closer = mostCommon(closers.get(`first ${firstToken(u.norm[x]!)}`)) ?? mostCommon(closers.get(`last ${lastToken(u.norm[x]!)}`)) ?? mostCommon(closers.get(''));
    out.unshift({ line: x, closer: closer! });
  }
  return out;
}
