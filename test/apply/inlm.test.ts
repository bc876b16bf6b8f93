// Inline markers the fresh rounds wrote in forms the merge did not read (docs/apply.md, branch
// `inlm`): bare dots glued to an element with a space and no comma (`["plan", ... "channel"]`) are a
// marker, as a glued comment is; a block collapsed onto one line (`asyncHandler(async (req, res) => {
// ... }),`) among look-alike blocks stands for the one the update's nearest unique lines place it at;
// a marker outside brackets on a line whose head was edited (`.PHONY: … test-integration tidy ...
// clean tools`) stands for the original's words after the head's last word; a signature collapsed
// onto one line (`async def create(...):`, `fun void(...) {`) stands for the original's parameter
// rows and its closing row with the return type.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

function merged(code: string, update: string): string[] {
  return (['fast', 'large'] as const).map((mode) => {
    const r = mergeApply({ code, update, instruction: null }, mode);
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
    return r.content;
  });
}

describe('bare dots glued to an element, collapsed look-alike blocks (inlm)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('cn py03 (bare dots), cq js01 (a collapsed handler among six routes), cp make01 (an edited head)', () => {
    mergedCase(caseDir('external-2026-11-29cn', 'py03-'));
    mergedCase(caseDir('external-2026-11-29cq', 'js01-'));
    mergedCase(caseDir('external-2026-11-29cp', 'make01-'));
  });

  it('co py03 (collapsed Python signatures), probes: Kotlin / TypeScript collapsed signatures', () => {
    mergedCase(caseDir('external-2026-11-29co', 'py03-'));
    for (const p of ['kt01-', 'ts02-']) mergedCase(caseDir('probes-inlm', p));
  });

  it('probes: TypeScript / PHP bare dots, JavaScript / Rust collapsed look-alikes, Dockerfile / Makefile edited heads', () => {
    for (const p of ['ts01-', 'php01-', 'js01-', 'rs01-', 'docker01-', 'make01-']) mergedCase(caseDir('probes-inlm', p));
  });

  it('bare dots before the last element stand for the elements between', () => {
    const code = 'TAGS = ["a", "b", "c", "d"]\nprint(TAGS)\n';
    const update = 'TAGS = ["a", ... "d", "e"]\n# ...\n';
    for (const out of merged(code, update)) expect(out).toBe('TAGS = ["a", "b", "c", "d", "e"]\nprint(TAGS)\n');
  });

  it('a spread or a list without commas is not read as a glued marker', () => {
    const code = 'const all = [...base, extra];\nconst deps = [ openssl sqlite proj ];\n';
    const update = 'const all = [...base, extra, more];\n// ...\n';
    for (const out of merged(code, update)) expect(out).toBe('const all = [...base, extra, more];\nconst deps = [ openssl sqlite proj ];\n');
  });

  it('an edited head before bare dots keeps the original words after its last word', () => {
    const code = 'all: build\n\n.PHONY: all build test lint image push clean\n\nbuild:\n\tgo build ./...\n';
    const update = '.PHONY: all build test vet lint ... clean\n\n# ...\n';
    for (const out of merged(code, update)) expect(out).toBe(code.replace('test lint', 'test vet lint'));
  });
});
