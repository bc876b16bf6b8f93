// Wrong outputs at confidence 1 (branch conf1): an original block the merge keeps beside a new block of
// the update that restates its whole body in its place — a Terraform variable renamed with no marker
// (the old one kept above the renamed one), pytest tests folded into one parametrized test (the old
// ones kept above it). The content stays (no loss: the old heads are not shown), the confidence drops
// to 0.6 so `auto` escalates (superseded-blocks.ts). Controls: a new test copying a sibling the update
// shows, a rename the instruction names (placed exactly), and every expected file of the probes.
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { supersededBlocks } from '../../src/apply/superseded-blocks.js';
import { readCase, type BenchCase } from './bench-case.js';

const probe = (id: string): BenchCase => readCase(`probes-conf1/${id}`);

const lowered = ['hcl01-variable-renamed-in-place-no-markers', 'py01-pytest-tests-folded-into-parametrize'];
const controls = ['go01-control-new-test-after-shown-sibling', 'rb01-method-renamed-in-place-no-markers'];

describe('an original block kept beside a new block restating its body (conf1)', () => {
  for (const id of lowered) {
    for (const mode of ['fast', 'large'] as const) {
      it(`${id} (${mode}): the old block stays, the merge reports it below 0.9`, () => {
        const p = probe(id);
        const r = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode);
        expect(checkLoss(p.code, p.update, p.instruction, r.content).lost).toEqual([]);
        expect(r.confidence).toBeLessThan(0.9);
        expect(r.report.supersededBlocks?.length ?? 0).toBeGreaterThan(0);
      });
    }
  }

  for (const id of controls) {
    it(`${id}: exact at confidence 1, nothing reported`, () => {
      const p = probe(id);
      const r = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, 'fast');
      expect(r.content).toBe(p.expected);
      expect(r.confidence).toBe(1);
      expect(r.report.supersededBlocks).toBeUndefined();
    });
  }

  it('never fires on the expected file of any probe', () => {
    for (const id of [...lowered, ...controls]) {
      const p = probe(id);
      expect(supersededBlocks(p.code, p.update, p.expected)).toEqual([]);
    }
  });

  it('a renamed block: only the one block whose body the new block restates, not a clone of many', () => {
    const block = (name: string, body: string): string => `resource "aws_sqs_queue" "${name}" {\n${body}}\n\n`;
    const body = '  visibility_timeout_seconds = 60\n  message_retention_seconds  = 86400\n';
    const code = block('orders', body) + block('refunds', body) + 'output "x" {\n  value = 1\n}\n';
    // Two queues share the body: the new one may copy either, nothing says which is replaced.
    const update = block('payments', body) + 'output "x" {\n';
    expect(supersededBlocks(code, update, block('orders', body) + block('refunds', body) + block('payments', body) + 'output "x" {\n  value = 1\n}\n')).toEqual([]);
  });

  it('a parametrized test restating tests that stay apart from where it stands is no fold', () => {
    const t = (name: string, n: number): string => `def test_${name}():\n    assert double(${n}) == ${2 * n}\n    assert double(${n}) > 0\n\n\n`;
    const code = t('one', 1) + t('two', 2) + 'def test_zero():\n    assert double(0) == 0\n';
    // Appended at the end, after test_zero: the old tests stay, as a new test beside them.
    const update = '# ... existing tests ...\n\n\n@pytest.mark.parametrize("n, want", [(3, 6), (4, 8)])\ndef test_many(n, want):\n    assert double(n) == want\n    assert double(n) > 0\n';
    const out = code + '\n\n@pytest.mark.parametrize("n, want", [(3, 6), (4, 8)])\ndef test_many(n, want):\n    assert double(n) == want\n    assert double(n) > 0\n';
    expect(supersededBlocks(code, update, out)).toEqual([]);
  });
});
