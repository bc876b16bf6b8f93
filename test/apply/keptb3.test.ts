// An original line the update never shows, kept right beside the new line that rewrote it (docs/apply.md,
// branches `keptb2` and `keptb3`): `return initialCartState;` under the new `return {…}`,
// `this.started = Date.now();` under `this.started = clock.now();`, `tokio = {…}` of `[dev-dependencies]`
// beside `tokio = { workspace = true }`. Two lines at one indentation that set the same key, or that both
// return, cannot both stand: the update rewrote the old one there (rule (a)), so it goes — only where the
// no-loss check licenses its drop, and only where the new line sits in the section the update shows it
// under: a key edited under `[dependencies]` that placement put beside the same key of `[dev-dependencies]`
// rewrote nothing there, and both lines stay (keptb2 lost them; section-generated.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, keepsEveryLine, mergedCase, readCase } from './bench-case.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { withoutRows } from '../../src/apply/kept-beside-edit.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { lostLines } from '../../bench/apply/lost-lines.js';

/** A Cargo manifest of an external writer holding `tokio` in `[dependencies]` and in `[dev-dependencies]`. */
const CARGO = readCase(caseDir('external-2026-11-26k', 'toml02-')).code;
const DEPENDENCY = 'tokio = { version = "1", features = ["rt-multi-thread", "macros", "signal"] }';
const DEV_DEPENDENCY = 'tokio = { version = "1", features = ["test-util"] }';

/** The key-under-shown-section edit of section-shapes.ts: the header, a marker, the key replaced whole, a marker. */
function keyEdit(header: string): string {
  return `${header}\n# ... unchanged ...\ntokio = off\n# ... unchanged ...`;
}

describe('an original line kept beside its rewrite is replaced, inside its section (keptb3)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('merges exactly in every mode (TS, Go, Kotlin, TOML; an external writer and four probe sets)', () => {
    const cases: Array<[string, string]> = [
      ['external-2026-11-27as', 'ts03-'],
      ['probes-headz', 'ts01-'],
      ['probes-keptb', 'go01-'],
      ['probes-lossz', 'kt01-'],
      ['probes-keptb3', 'toml01-'],
    ];
    for (const [set, prefix] of cases) mergedCase(caseDir(set, prefix));
  });

  it('replaces a key of the section the update shows, where another section holds the same key', () => {
    const expected = CARGO.replace(DEV_DEPENDENCY, 'tokio = off');
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code: CARGO, update: keyEdit('[dev-dependencies]'), instruction: null }, mode);
      expect(r.content, mode).toBe(expected);
      expect(r.report.replacedBesideEdit, mode).toEqual([CARGO.split('\n').indexOf(DEV_DEPENDENCY)]);
    }
  });

  it('keeps the same key of another section that placement put the new line beside', () => {
    // The update edits `[dependencies]`; wherever placement puts the line, no original line is lost.
    const expected = CARGO.replace(DEPENDENCY, 'tokio = off');
    for (const mode of ['fast', 'large'] as const) {
      const out = mergeApply({ code: CARGO, update: keyEdit('[dependencies]'), instruction: null }, mode).content;
      expect(lostLines(CARGO, expected, out), mode).toEqual([]);
      expect(out, mode).toContain(DEV_DEPENDENCY);
    }
  });

  it('says what it replaced', () => {
    const c = readCase(caseDir('probes-keptb', 'go01-'));
    const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
    expect(r.report.replacedBesideEdit?.length).toBe(1);
    expect(r.confidence).toBe(1);
  });

  it('edits the merge already got right stay exact, and siblings stay (controls)', () => {
    for (const prefix of ['hcl01-', 'js01-', 'php01-']) mergedCase(caseDir('probes-keptb2', prefix));
    for (const prefix of ['toml03-', 'ini01-', 'ini02-', 'go01-']) mergedCase(caseDir('probes-keptb3', prefix));
    // A compound `total += 1` beside `total += x`: nothing is replaced.
    const code = 'def f(x):\n    total = 0\n    total += x\n    return total\n\n\ndef g():\n    pass\n';
    const update = 'def f(x):\n    total = 0\n    total += x\n    total += 1\n    # ...\n';
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(r.content).toBe('def f(x):\n    total = 0\n    total += x\n    total += 1\n    return total\n\n\ndef g():\n    pass\n');
    expect(r.report.replacedBesideEdit).toBeUndefined();
  });

  it('keeps the old line, and says it guessed, where the no-loss check refuses its drop (open cases)', () => {
    for (const prefix of ['cs01-', 'yaml01-']) {
      const c = readCase(caseDir('probes-keptb2', prefix));
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
      expect(checkLoss(c.code, c.update, c.instruction, r.content).lost, prefix).toEqual([]);
      expect(r.confidence, prefix).toBeLessThan(0.9);
      keepsEveryLine(caseDir('probes-keptb2', prefix));
    }
  });

  it('drops a line with its doubled blank, and keeps the end of a file without a final newline', () => {
    expect(withoutRows('a\n\nb\n\nc\n', [2])).toBe('a\n\nc\n');
    expect(withoutRows('a\nb\nc', [2])).toBe('a\nb');
  });
});
