// Deletions asked for only by the instruction (branch instrdel, docs/apply.md): the removal's object
// read from more phrasings (a hyphenated or literal name, "stop running X", kind words variable /
// step / gem / policy, an -ing word for its stem: "clipping" → `clip_outliers`, an HCL block by its
// label), and removal units beyond named definitions (named-units.ts): a one-line statement holding
// the name as a literal or word, a block under a comment that holds every word of the description. Each is removed only when it is the one match (rule (c)).
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { namedUnit } from '../../src/apply/named-units.js';
import { splitLines } from '../../src/apply/lines.js';

const probe = (name: string): void => mergedCase(`probes-instrdel/${name}`);

describe('instrdel: deletions asked for only by the instruction', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('a gem named by its literal, hyphenated (cg rb04)', () => mergedCase('external-2026-11-29cg/rb04-gemfile-group-edits-and-removal'));
  it('a pod named by its literal (probe rb01)', () => probe('rb01-podfile-pod-removed-by-instruction'));
  it('"stop running" a hosted service: its one registration line (ce cs01)', () => mergedCase('external-2026-11-28ce/cs01-minimal-api-register-transfers-bom-crlf'));
  it('the same in another program (probe cs01)', () => probe('cs01-hosted-service-registration-stopped'));
  it('"the outlier clipping step" is clip_outliers (cg py04)', () => mergedCase('external-2026-11-29cg/py04-pandas-drop-step-by-instruction'));
  it('"the row deduplicating step" is deduplicate_rows (probe py01)', () => probe('py01-described-step-function-removed'));
  it('"the two bastion variables": two HCL variable blocks by their labels (cf tf02)', () => mergedCase('external-2026-11-29cf/tf02-variables-validations-new-var-and-bastion-vars-removed'));
  it('"the two jumpbox variables" (probe tf01)', () => probe('tf01-two-described-variables-removed'));
  it('"the legacy NAS mirror block": a shell if-block under its comment (cg sh02)', () => mergedCase('external-2026-11-29cg/sh02-bash-backup-instruction-only-deletion'));
  it('"the legacy FTP upload block": a Python if-block under its comment (probe py02)', () => probe('py02-commented-block-removed-by-instruction'));

  it('control: a gem listed in two groups is removed from neither, and the merge says so', () => {
    const code = 'source "https://rubygems.org"\n\ngem "rails", "~> 7.1"\ngem "puma"\n\ngroup :development do\n  gem "pry-rails"\n  gem "web-console"\nend\n\ngroup :test do\n  gem "pry-rails"\n  gem "capybara"\nend\n';
    const update = 'gem "rails", "~> 7.1"\ngem "puma", "~> 6.4"\n\n# ...\n';
    const instruction = 'Pin puma to 6.4 and remove pry-rails.';
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code, update, instruction }, mode);
      expect(r.content, mode).toBe(code.replace('gem "puma"\n', 'gem "puma", "~> 6.4"\n'));
      expect(r.confidence, mode).toBeLessThan(1);
      expect(checkLoss(code, update, instruction, r.content).lost, mode).toEqual([]);
    }
  });

  it('control: a name the file also uses elsewhere is no one-line unit', () => {
    const code = 'var builder = WebApplication.CreateBuilder(args);\nbuilder.Services.AddHostedService<SyncWorker>();\nbuilder.Services.Configure<SyncWorkerOptions>(o => o.Every = 5);\nvar app = builder.Build();\nSyncWorker.Warm(app);\napp.Run();\n';
    expect(namedUnit(splitLines(code), 'SyncWorker')).toBe(null);
  });
});
