// A new constructor threaded through every function's equations (docs/apply.md, branch `ctorx`).
// A Haskell type signature heads its function's equations (edited-definition-docs.ts): an equation
// head shown without it (`area = \case` to add an arm) or a signature shown with a marker at its
// column and a new equation after leaves the signature and the doc comment above it out, not
// deleted. bs hs01, bn hs04, lossx3 hs01; control: a rewritten signature shown above its head.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const merged = (set: string, prefix: string): void => mergedCase(caseDir(set, prefix));

describe('a new constructor threaded through equations (ctorx)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('keeps the signature and doc comment above an equation head shown without them', () => {
    merged('external-2026-11-28bs', 'hs01-');
    merged('probes-ctorx', 'hs01-');
  });

  it('keeps the doc comment above a signature followed by a marker and a new equation', () => {
    merged('probes-lossx3', 'hs01-');
    merged('probes-ctorx', 'hs02-');
    const p = readCase(caseDir('external-2026-11-28bn', 'hs04-'));
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const out = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode).content;
      expect(out, mode).toContain('  deriving (Show, Eq)\n\n-- | Surface area.\narea :: Shape -> Double\n');
    }
  });

  it('does not bring back a signature the update shows rewritten (control)', () => {
    merged('probes-ctorx', 'hs03-control-');
  });
});
