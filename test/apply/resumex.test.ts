// A segment after a marker that rewrites the open block's last lines before its closer
// (closer-resume.ts rewritesTail), and a block-bodied match arm that takes no comma when an arm is
// appended after it (member-separators.ts blockArm).
import { describe, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';

describe('a block resumed at its closer after its last lines were rewritten', () => {
  it('edits the location of the server the update shows, not a twin server below (28bo nginx01)', () => {
    mergedCase(caseDir('external-2026-11-28bo', 'nginx01'));
  });
  it('edits the location of the one server shown among four (28bu nginx01)', () => {
    mergedCase(caseDir('external-2026-11-28bu', 'nginx01'));
  });
  it('appends a method after a re-indented class tail (27aj cs01)', () => {
    mergedCase(caseDir('external-2026-11-27aj', 'cs01'));
  });
  it('keeps one of three twin functions edited at its tail', () => {
    mergedCase(caseDir('probes-resumex', 'go01'));
    mergedCase(caseDir('probes-resumex', 'go02'));
    mergedCase(caseDir('probes-resumex', 'ts01'));
  });
});

describe('separators after a block-bodied member', () => {
  it('adds no comma after a block-bodied match arm (Rust) when an arm is appended', () => {
    mergedCase(caseDir('external-2026-11-26f', 'rs02'));
    mergedCase(caseDir('probes-resumex', 'rs01'));
  });
  it('still adds one after a keyed arrow function (an object member)', () => {
    mergedCase(caseDir('probes-resumex', 'js01'));
  });
});
