// New members after a marker when the update leaves out the closer of their block (docs/apply.md,
// branch `tailin`): `// ... togglePin and delete unchanged ...` then a new `companion object {…}` at
// member depth, the class's `}` not shown. The lines went after the class's closer (or after the code
// following the class); they now go before the closer of the block the previous hunk stands in.
// And an inline marker standing for nothing right beside a new list element marks that element's place.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('new members after a marker, their block closer not shown (tailin)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('cc kt01 (a companion object) and bv ts01 (a method without its class)', () => {
    mergedCase(caseDir('external-2026-11-28cc', 'kt01-'));
    mergedCase(caseDir('external-2026-11-28bv', 'ts01-'));
  });

  it('Java, C# (two closers), Rust impl, TypeScript with a function after the class', () => {
    for (const p of ['java01-', 'cs01-', 'rs01-', 'ts01-']) mergedCase(caseDir('probes-tailin', p));
  });

  it('a new top-level function after a marker still goes after the class', () => {
    const code = 'export class Cache {\n  private readonly items = new Map<string, string>();\n\n  get(key: string): string | undefined {\n    return this.items.get(key);\n  }\n}\n';
    const update = 'export class Cache {\n  // ... existing code ...\n}\n\nexport function createCache(): Cache {\n  return new Cache();\n}\n';
    const expected = code + '\nexport function createCache(): Cache {\n  return new Cache();\n}\n';
    for (const mode of ['fast', 'large'] as const) {
      const out = mergeApply({ code, update, instruction: null }, mode).content;
      expect(checkLoss(code, update, null, out).lost, mode).toEqual([]);
      expect(out, mode).toBe(expected);
    }
  });

  it('an inline marker that stands for nothing, right beside a new element, goes with its separator (cc tsx01, bn json29, Rust)', () => {
    mergedCase(caseDir('external-2026-11-28cc', 'tsx01-'));
    mergedCase(caseDir('external-2026-11-28bn', 'json29-'));
    mergedCase(caseDir('probes-tailin', 'rs02-'));
  });

  it('not beside a shown element: the marker still tells a line from its look-alikes (inlinez ts01)', () => {
    mergedCase(caseDir('probes-inlinez', 'ts01-'));
  });

  it("a new CSS rule after a marker does not take the previous rule's closer as its own (four writers' Vue files)", () => {
    mergedCase(caseDir('external-2026-11-28cc', 'vue01-'));
    mergedCase(caseDir('external-2026-11-26p', 'vue01-'));
    mergedCase(caseDir('external-2026-11-27aj', 'vue01-'));
    mergedCase(caseDir('external-2026-11-28cb', 'vue04-'));
  });

  it('controls: a rule deleted by adjacency inside a media query; chained calls and Zig arms are no rules', () => {
    mergedCase(caseDir('external-2026-11-27as', 'css01-'));
    mergedCase(caseDir('external-2026-11-26h', 'zig02-'));
    mergedCase(caseDir('external-2026-11-26o', 'ts08-'));
  });
});
