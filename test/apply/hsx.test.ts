// A Haskell type synonym left out between two shown definitions while the update's own code still
// names it (`eval :: Int -> Env -> …`) is not deleted by adjacency (dangling-name.ts usedDefinitionRows:
// `type`/`data`/`newtype` heads name their type; uses on the rows left out with it do not count).
import { describe, expect, it } from 'vitest';
import { caseDir, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { lostLines } from '../../bench/apply/lost-lines.js';

describe('a type the shown code still uses is not deleted by adjacency', () => {
  it('keeps `type Env` and `emptyEnv` (28bx hs06), at lowered confidence', () => {
    const c = readCase(caseDir('external-2026-11-28bx', 'hs06'));
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
      expect(lostLines(c.code, c.expected, r.content)).toEqual([]);
      expect(r.confidence).toBeLessThan(1);
    }
  });
});
