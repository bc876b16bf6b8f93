// A one-line declaration with no anchor, shown between markers, goes after the last declaration of
// its kind in the block where its window starts (declaration-siblings.ts).
import { describe, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';

describe('a new field between markers goes after its siblings', () => {
  it('a Java builder field after the builder fields, not before build() (28bs java02)', () => {
    mergedCase(caseDir('external-2026-11-28bs', 'java02'));
  });
  it('a C# readonly field and a PHP property, each after its own kind', () => {
    mergedCase(caseDir('probes-kindx', 'cs01'));
    mergedCase(caseDir('probes-kindx', 'php01'));
  });
  it('leaves a new definition with a body to its neighbours (26l scala01, siby nim01)', () => {
    mergedCase(caseDir('external-2026-11-26l', 'scala01'));
    mergedCase(caseDir('probes-siby', 'nim01'));
  });
});
