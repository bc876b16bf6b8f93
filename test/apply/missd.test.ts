// Deletions asked for only by the instruction, named the way the file writes the thing (branch missd,
// docs/apply.md): a hyphenated name on one whole-statement line (`X-XSS-Protection`), a path in a
// block's head before a kind word ("the /v1 redirect location"), a bare mapping key heading a block
// ("drop mailhog", "the lint job"), X's words joined into one name ("replace call logging with …" →
// `ktor-server-call-logging-jvm`), and a definition named by all of its words ("the legacy uploads
// backup" → `backup_legacy_uploads`). Each only when it is the one match in the file (rule (c)).
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { mergeApply } from '../../src/apply/merge.js';

const probe = (name: string): void => mergedCase(`probes-missd/${name}`);

describe('missd: instruction-only removals named the way the file writes them', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('"Replace the obsolete X-XSS-Protection header with …, and remove the /v1 redirect location" (cl nginx02)', () => mergedCase('external-2026-11-29cl/nginx02-csp-header-and-drop-v1-redirect-by-instruction'));
  it('"Replace call logging with Micrometer metrics …": the call-logging dependency line (cl kt02)', () => mergedCase('external-2026-11-29cl/kt02-gradle-swap-call-logging-for-micrometer'));
  it('"remove the legacy uploads backup entirely": backup_legacy_uploads (cj sh01)', () => mergedCase('external-2026-11-29cj/sh01-backup-script-getopts-and-prune'));
  it('"Delete ticket.": the `"ticket": {` entry a marker kept (26m json03)', () => mergedCase('external-2026-11-26m/json03-delete-function-instruction'));
  it('probe py01: the X-Frame-Options header line replaced', () => probe('py01-replace-hyphenated-header-line'));
  it('probe caddy01: the /v0 route block and its comment removed', () => probe('caddy01-remove-path-route-block'));
  it('probe yaml01: "drop lint — …" removes the lint job', () => probe('yaml01-workflow-job-dropped-by-instruction'));
  it('probe toml01: env logger replaced (`env_logger = …`)', () => probe('toml01-replace-joined-name-dependency'));
  it('probe go01: the legacy CSV export (exportLegacyCSV) deleted', () => probe('go01-function-named-by-its-words-removed'));

  it('a hyphenated name two lines carry removes neither, and the merge says so (ck sh02: usage line and case branch)', () => {
    const code = 'usage() {\n  cat <<EOF\n  seed        load fixtures\n  reset-db    recreate the database\nEOF\n}\n\nmain() {\n  case "$1" in\n    seed) cmd_seed ;;\n    reset-db) cmd_reset_db ;;\n  esac\n}\n';
    const update = 'main() {\n  case "$1" in\n    seed) cmd_seed --fast ;;\n    # ... existing code ...\n  esac\n}\n';
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code, update, instruction: 'Remove the reset-db command and pass --fast to seed.' }, mode);
      expect(r.content, mode).toContain('  reset-db    recreate the database\n');
      expect(r.confidence, mode).toBeLessThan(1);
    }
  });

  it('control: a path with no kind word after it ("the /v1 prefix") removes no block', () => {
    const code = 'server {\n    location /v1/ {\n        proxy_pass http://api;\n    }\n\n    location / {\n        root /srv/www;\n    }\n}\n';
    const update = 'server {\n    # ... existing code ...\n    location / {\n        root /srv/site;\n    }\n}\n';
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code, update, instruction: 'Serve the new site root and drop the /v1 prefix later.' }, mode);
      expect(r.content, mode).toContain('    location /v1/ {\n');
    }
  });

  it('control: a key the phrase does not open with stays ("drop the unused volumes" keeps `volumes:`)', () => {
    const code = 'services:\n  web:\n    image: web:1\n    volumes:\n      - data:/data\n\nvolumes:\n  data:\n';
    const update = 'services:\n  web:\n    image: web:2\n    # ... existing code ...\n';
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code, update, instruction: 'Bump web to 2 and drop the unused volumes.' }, mode);
      expect(r.content, mode).toContain('volumes:\n  data:\n');
    }
  });
});
