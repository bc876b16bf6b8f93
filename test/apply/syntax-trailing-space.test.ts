// A definition the syntax pass swaps in whole keeps the trailing spaces of the lines the snippet shows
// unchanged: editors and models strip them, and the update does not mean to edit those lines (held-out
// sets u py06 and z py04, both Python; the guards are in Go and TypeScript).
import { beforeAll, describe, expect, it } from 'vitest';
import { lines } from './judged.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureGrammar, LANGUAGES } from '../../src/apply/syntax/grammars.js';

const modes = ['fast', 'large', 'auto'] as const;

// Go: the middle function is shown whole with one line added; two of its lines end in spaces in the file.
const goFn = (extra: string[], pad: string): string[] => [
  'func (s *Store) Get(key string) (string, error) {', `\ts.mu.RLock()${pad}`, '\tdefer s.mu.RUnlock()',
  ...extra, `\tv, ok := s.data[key]${pad}`, '\tif !ok {', '\t\treturn "", ErrNotFound', '\t}', '\treturn v, nil', '}'];
const goHead = ['package store', '', 'func (s *Store) Len() int {', '\ts.mu.RLock()', '\tdefer s.mu.RUnlock()', '\treturn len(s.data)', '}', ''];
const goTail = ['', 'func (s *Store) Put(key, v string) {', '\ts.mu.Lock()', '\tdefer s.mu.Unlock()', '\ts.data[key] = v', '}'];
const goCode = lines([...goHead, ...goFn([], '  '), ...goTail]);
const goUpdate = lines(goFn(['\ts.reads++'], ''));
const goExpected = lines([...goHead, ...goFn(['\ts.reads++'], '  '), ...goTail]);

// TypeScript: a method shown whole, no markers; its first body line ends in a space in the file.
const tsMethod = (pad: string, check: string[]): string[] => [
  '  area(): number {', `    const w = this.right - this.left;${pad}`, ...check, '    return w * (this.bottom - this.top);', '  }'];
const tsCode = lines(['export class Rect {', '  constructor(public left: number, public top: number, public right: number, public bottom: number) {}', '',
  ...tsMethod(' ', []), '', '  width(): number {', '    return this.right - this.left;', '  }', '}']);
const tsUpdate = lines(tsMethod('', ['    if (w < 0) throw new RangeError("inverted rect");']));
const tsExpected = lines(['export class Rect {', '  constructor(public left: number, public top: number, public right: number, public bottom: number) {}', '',
  ...tsMethod(' ', ['    if (w < 0) throw new RangeError("inverted rect");']), '', '  width(): number {', '    return this.right - this.left;', '  }', '}']);

describe('syntax pass: lines shown unchanged keep their trailing spaces', () => {
  beforeAll(async () => {
    for (const lang of LANGUAGES) expect(await ensureGrammar(lang), `${lang} grammar loads`).not.toBeNull();
  });
  it('Go: a function swapped in whole', () => {
    for (const mode of modes) expect(mergeApply({ code: goCode, update: goUpdate, instruction: null }, mode).content).toBe(goExpected);
  });
  it('TypeScript: a method swapped in whole', () => {
    for (const mode of modes) expect(mergeApply({ code: tsCode, update: tsUpdate, instruction: null }, mode).content).toBe(tsExpected);
  });
});
