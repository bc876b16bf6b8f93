// Wrong outputs at confidence 1 (branch conf1c): a new paragraph of the anchor's kind — a Dockerfile
// stage, an unindented ssh `Host` block — written after a marker or at the snippet's start, then a
// blank line and the next stage. Main glued it to the last line of the stage above (the original's
// blank paired with the update's) at confidence 1; it takes a blank above it too (merge-finish.ts
// `newFlatParagraph`). Control: a new `ARG` line below the `ARG` lines stays glued to them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';

const probe = (set: string, id: string): { code: string; update: string; expected: string; instruction: string | null } => {
  const dir = join(__dirname, '../../bench/apply', set, id);
  const read = (f: string): string => readFileSync(join(dir, f), 'utf8');
  return { code: read('original'), update: read('update'), expected: read('expected'), instruction: JSON.parse(read('meta.json')).instruction };
};

const fixed: Array<[string, string]> = [
  ['probes-conf1c', 'docker01-test-stage-after-marker-before-runtime'],
  ['probes-conf1c', 'docker02-lint-stage-at-snippet-start-no-marker'],
  ['probes-conf1c', 'sshconfig01-new-host-block-after-marker'],
  ['external-2026-11-29cj', 'docker01-multistage-add-deps-stage'],
];

describe('a new paragraph of the anchor\'s kind keeps a blank above it (conf1c)', () => {
  for (const [set, id] of fixed) {
    for (const mode of ['fast', 'large'] as const) {
      it(`${set} ${id} (${mode}): exact, no loss`, () => {
        const p = probe(set, id);
        const r = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, mode);
        expect(checkLoss(p.code, p.update, p.instruction, r.content).lost).toEqual([]);
        expect(r.content).toBe(p.expected);
      });
    }
  }

  it('control: a new line of the paragraph above (an `ARG` below the `ARG` lines) stays glued to it, at confidence 1', () => {
    const p = probe('probes-conf1c', 'docker03-control-new-arg-glued-to-args');
    const r = mergeApply({ code: p.code, update: p.update, instruction: p.instruction }, 'fast');
    expect(r.content).toBe(p.expected);
    expect(r.confidence).toBe(1);
  });
});
