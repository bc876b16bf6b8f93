// Silent misses at confidence 1 (docs/apply.md, branch `conf1x`): the merge was wrong and said it was
// sure. A weak `else` above new lines that wrap the anchor in a block now keeps its place (it was
// written a second time, edge-edits.ts contextAboveWrapper); a new block first in a hunk is parted
// from the line above by the blank the update shows; blank lines after a marker do not open the file;
// and an original line kept beside a new line that restates it lowers confidence (kept-beside-edit.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('silent misses at confidence 1 (conf1x)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('a weak else above a new wrapper around the anchor is the original else (Lua, Python, Ruby, Go)', () => {
    mergedCase(caseDir('external-2026-11-28by', 'lua01-'));
    mergedCase(caseDir('probes-conf1x', 'py01-'));
    mergedCase(caseDir('probes-conf1x', 'rb01-'));
    mergedCase(caseDir('probes-conf1x', 'go01-'));
  });

  it('a new block own end above a new wrapper is not the original end (control)', () => {
    mergedCase(caseDir('probes-conf1x', 'lua02-'));
  });

  it('a new block first in a hunk is parted from the line above by the blank the update shows (TS, Go, Rust)', () => {
    mergedCase(caseDir('external-2026-11-28by', 'ts02-'));
    mergedCase(caseDir('probes-conf1x', 'go05-'));
    mergedCase(caseDir('probes-conf1x', 'rs01-'));
  });

  it('a new one-line constant stays with the constants above (control)', () => {
    mergedCase(caseDir('probes-conf1x', 'ts02-'));
  });

  it('blank lines after a marker do not open the file when the hunk goes first (JS, Python)', () => {
    mergedCase(caseDir('external-2026-11-28bz', 'js09-'));
    mergedCase(caseDir('probes-conf1x', 'py04-'));
  });

  it('an original call kept beside the new retry loop that restates it is not claimed at confidence 1 (Go)', () => {
    const c = readCase(caseDir('external-2026-11-28bx', 'go27-'));
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
      expect(r.confidence, mode).toBeLessThan(0.9);
      expect(r.report.keptBesideEdit, mode).toEqual([94]);
    }
  });

  it('a new check or method that copies a hidden line with other names keeps confidence 1 (controls)', () => {
    for (const prefix of ['go03-', 'ts01-']) {
      const c = readCase(caseDir('probes-conf1x', prefix));
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
      expect(r.content, prefix).toBe(c.expected);
      expect(r.confidence, prefix).toBe(1);
    }
  });
});
