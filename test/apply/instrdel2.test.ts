// Deletions asked for only by the instruction, part 2 (branch instrdel2, docs/apply.md): "replace X
// with Y" removes X when X names or describes one definition the update does not mention (a SQL
// index or view, a bound command, an ML function under its `(* … *)` comment), and a test block
// titled by the name a removal phrase gives ("the legacy-token tests") is one removal unit. Each only
// when it is the one match (rule (c)); two matches remove nothing and lower the confidence.
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';

const probe = (name: string): void => mergedCase(`probes-instrdel2/${name}`);

describe('instrdel2: deletions asked for only by the instruction, part 2', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('"replace the status index with …": the described index a marker kept (cf sql01)', () => mergedCase('external-2026-11-29cf/sql01-migration-paused-status-and-index-replacements'));
  it('"Replace the legacy v_order_totals view with …": the named view (by sql01)', () => mergedCase('external-2026-11-28by/sql01-replace-legacy-view-by-instruction'));
  it('"Replace the legacy HTML view with …": legacy_html and its (* *) comment (26p ocaml02)', () => mergedCase('external-2026-11-26p/ocaml02-delete-by-anchors-long'));
  it('"remove the restore subcommand": a bound `var restoreCmd = &cobra.Command{` (ch go02)', () => mergedCase('external-2026-11-29ch/go02-cobra-retention-flag-drop-restore'));
  it('"delete the legacy-token tests": the describe block titled by the route (ci js02)', () => mergedCase('external-2026-11-29ci/js02-jest-add-case-and-drop-legacy-suite'));
  it('"delete the legacy block": describe("legacy") (probe instrx ts01)', () => mergedCase('probes-instrx/ts01-describe-block-removed-by-instruction'));
  it('probe sql01: the region index replaced', () => probe('sql01-replace-described-index-marker-after'));
  it('probe ml01: the table view replaced', () => probe('ml01-replace-described-view-with-comment'));
  it('probe ts01: the import-csv tests deleted', () => probe('ts01-test-suite-titled-by-route-deleted'));
  it('probe rb01: the legacy_pdf specs deleted', () => probe('rb01-rspec-describe-titled-removed'));

  it('control: "replace calls to X with Y" removes no definition of X', () => {
    const code = 'export function oldFetch(url: string) {\n  return fetch(url).then((r) => r.json());\n}\n\nexport async function load() {\n  const a = await oldFetch("/a");\n  return a;\n}\n';
    const update = '// ... existing code ...\n\nexport async function load() {\n  const a = await getJson("/a");\n  return a;\n}\n';
    const instruction = 'Replace calls to oldFetch with getJson.';
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code, update, instruction }, mode);
      expect(r.content, mode).toContain('export function oldFetch(url: string) {');
    }
  });

  it('control: two test blocks titled by the name are both kept, and the merge says so', () => {
    const code = 'describe("legacy parser", () => {\n  it("reads v1", () => {\n    expect(parse("v1")).toBe(1);\n  });\n});\n\ndescribe("legacy lexer", () => {\n  it("splits v1", () => {\n    expect(lex("v1")).toEqual(["v1"]);\n  });\n});\n\ndescribe("parser", () => {\n  it("reads v2", () => {\n    expect(parse("v2")).toBe(2);\n  });\n});\n';
    const update = '// ... existing code ...\n\ndescribe("parser", () => {\n  it("reads v2", () => {\n    expect(parse("v2")).toBe(2);\n  });\n\n  it("reads v3", () => {\n    expect(parse("v3")).toBe(3);\n  });\n});\n';
    const instruction = 'Add a v3 test and delete the legacy tests.';
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code, update, instruction }, mode);
      expect(r.content, mode).toContain('describe("legacy parser"');
      expect(r.content, mode).toContain('describe("legacy lexer"');
      expect(r.confidence, mode).toBeLessThan(1);
      expect(checkLoss(code, update, instruction, r.content).lost, mode).toEqual([]);
    }
  });
});
