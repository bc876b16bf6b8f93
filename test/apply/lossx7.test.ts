// Losses main still made on the held-out round bt (docs/apply.md, branch `lossx7`).
// - toml36: a new `[[redirects]]` entry written after a shown entry, then a marker, was read as an edit
//   of the next entry (`/app/*`): its `from` / `to` lines were lost. Key = value items of a list whose
//   shared keys all hold other values are a new sibling (sibling-items.ts `anotherItem`), in the merge
//   and in the no-loss check; one value kept is an entry edited in place.
// - go04: a new `if err := durationEnv("HTTP_READ_HEADER_TIMEOUT", …) {` block (a field threaded through
//   five functions) took the place of the next check's head, its `return err` / `}` standing for the old
//   body. A body of weak lines up to the hunk's end confirms no place (merge-finish.ts `edgeMatch`), and
//   the no-loss check no longer reads such a weak anchor as pinned (coincident-anchors.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('a new list item or sibling check beside the next one (lossx7)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('inserts a new [[redirects]] entry before the next entry (28bt toml36)', () => {
    mergedCase(caseDir('external-2026-11-28bt', 'toml36-'));
  });

  it('checkLoss refuses the /app/* entry read as the new entry edited', () => {
    const p = readCase(caseDir('external-2026-11-28bt', 'toml36-'));
    // Main's output: the new entry's `from` / `to` in place of the /app/* entry's, its `status = 302` kept.
    const lossy = p.expected.replace('  status = 301\n\n[[redirects]]\n  from = "/app/*"\n  to = "https://app.fieldbook.io/:splat"\n  status = 302\n', '  status = 302\n  status = 301\n');
    expect(lossy).not.toBe(p.expected);
    expect(checkLoss(p.code, p.update, p.instruction, lossy).lost.length).toBeGreaterThan(0);
  });

  it('inserts new list entries in TOML (probes)', () => {
    mergedCase('probes-lossx7/toml01-new-array-table-entry-before-next-entry');
    mergedCase('probes-lossx7/toml02-new-redirect-entry-unindented');
  });

  it('still edits an entry in place when one value is kept, and a uniquely headed section wholly (controls)', () => {
    mergedCase('probes-lossx7/toml03-control-entry-edited-in-place');
    mergedCase('probes-lossx7/toml04-control-section-all-values-changed');
  });

  it('keeps the next check when a new one for a threaded field is written before it (28bt go04)', () => {
    mergedCase(caseDir('external-2026-11-28bt', 'go04-'));
  });

  it('checkLoss refuses the next check replaced by the new one', () => {
    const p = readCase(caseDir('external-2026-11-28bt', 'go04-'));
    // Main's output: the HTTP_WRITE_TIMEOUT check's head gone, its `return err` / `}` read as the new check's.
    const lossy = p.expected.replace('\tif err := durationEnv("HTTP_WRITE_TIMEOUT", &c.WriteTimeout); err != nil {\n\t\treturn err\n\t}\n', '');
    expect(lossy).not.toBe(p.expected);
    expect(checkLoss(p.code, p.update, p.instruction, lossy).lost.length).toBeGreaterThan(0);
  });

  it('inserts a new sibling line before a marker (probes go01, ts01)', () => {
    mergedCase('probes-lossx7/go01-new-env-check-before-next-check-weak-body');
    mergedCase('probes-lossx7/ts01-new-cli-option-before-marker');
  });

  it('still edits a check in place at a hunk end, and a shown strong anchor still licenses its replaced line (controls)', () => {
    mergedCase('probes-lossx7/go02-control-check-edited-in-place-weak-body');
    const p = readCase(caseDir('external-2026-11-27aj', 'html01-'));
    expect(checkLoss(p.code, p.update, p.instruction, p.expected).lost).toEqual([]);
  });
});

describe('an item edited in place keeps its place however many values change (lossx7 follow-up)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  // Held-out bz js10: a webpack rule whose `test` changes and whose `use` list grows through an inline
  // marker read as a new rule beside the old one (sibling-items.ts anotherItem) until a value that
  // keeps the old one whole (extendedInPlace) counted as that value's edit.
  it('edits a rule object whose list value is extended (bz js10)', () => {
    mergedCase(caseDir('external-2026-11-28bz', 'js10-'));
  });
});
