// A line rewritten in place whose new text another original line already has at another depth
// (docs/apply.md, branch `lowconf`): `Expires = erlang:system_time(second) + Ttl,` written over the
// touch clause's `… + 1800,` (the put clause above sets `Expires` the same way, four columns in),
// `return errMismatch` over a function's last `return nil` (the `if` it replaced returned it one level
// deeper). The loss check read the new line as that other line moved and refused the rewrite, so the
// merge kept the old line beside the new one at low confidence. Set at j's depth, with text no original
// line has there, and setting j's key or returning as j did, it is j's edit (rule (a)).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { lines } from './judged.js';

describe('a line rewritten in place as the text of an original line at another depth (lowconf)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('merges exactly in every mode (Erlang of an external writer; Python, Lua and Go probes)', () => {
    mergedCase(caseDir('external-2026-11-29ck', 'erl01-'));
    mergedCase(caseDir('probes-lowconf', 'py01-'));
    mergedCase(caseDir('probes-lowconf', 'lua01-'));
    mergedCase(caseDir('probes-lowconf', 'go01-'));
  });

  it('the loss check licenses the expected files (a rewritten assignment; a lone weak return)', () => {
    for (const prefix of ['erl01-', 'go01-']) {
      const c = readCase(caseDir('external-2026-11-29ck', prefix));
      expect(checkLoss(c.code, c.update, c.instruction, c.expected).lost, prefix).toEqual([]);
    }
  });

  it('control: a new assignment of another key beside the old one keeps the old one', () => {
    const code = lines(['function load(path)', '  local data = read(path)', '  local n = 0', '  for _ in pairs(data) do', '    n = n + 1', '  end', '  return n', 'end']);
    const update = lines(['function load(path)', '  local data = read(path)', '  local seen = {}', '  -- ... existing code ...']);
    const out = mergeApply({ code, update, instruction: null }, 'fast').content;
    expect(checkLoss(code, update, null, out).lost).toEqual([]);
    expect(out).toContain('  local n = 0\n');
  });
});
