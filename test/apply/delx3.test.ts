// An import a replacement left dead goes with the uses it replaced (docs/apply.md, branch delx3).
// "replace body-parser with express's built-in parsers" takes `bodyParser`'s last use; its
// `require` stands under a marker, which alone says it stays, so only the instruction can license
// it (rule (c)): the replaced part of "replace X with Y" / "switch from X to Y" / "Y instead of X"
// names it, as a removal verb does (dead-imports.ts namingWords). A syntax merge judges the uses
// against the request's original, not the swapped one (merge.ts withoutDeadImportsOf).
// Controls: an import the replacement left dead that the instruction does not name stays, and one
// still used elsewhere stays.
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const probe = (name: string, set = 'probes-delx3'): void => mergedCase(`${set}/${name}`);

describe('delx3: an import the replacement left dead', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('the replaced require under a marker goes (28bq js01)', () => probe('js01-replace-body-parser-drop-require', 'external-2026-11-28bq'));
  it('the no-loss oracle licenses it: the expected output loses nothing (28bq js01)', () => {
    const c = readCase('external-2026-11-28bq/js01-replace-body-parser-drop-require');
    expect(checkLoss(c.code, c.update, c.instruction, c.expected).lost).toEqual([]);
  });
  it('a require whose uses the swapped definitions took (probe js01, syntax merge)', () => probe('js01-replace-moment-with-dayjs-require-under-marker'));
  it('a Python import under the marker after the new one (probe py01)', () => probe('py01-replace-requests-with-httpx-import-under-marker'));
  it('"Y instead of X" names X (probe rb02)', () => probe('rb02-net-http-instead-of-httparty-require-under-marker'));
  it('control: an import the replacement left dead but the instruction does not name stays (probe ts02)', () => {
    const c = readCase('probes-delx3/ts02-replace-retry-loop-helper-import-not-named');
    for (const mode of ['fast', 'large'] as const) {
      const out = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode).content;
      expect(out, mode).toContain('import { sleep } from "./sleep";\n');
    }
  });
  it('control: an import the rest of the file still uses stays (probe ts01)', () => probe('ts01-switch-from-axios-to-fetch-import-still-used'));
});
