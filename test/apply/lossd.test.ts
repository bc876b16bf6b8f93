// Lossy outputs of external writers' cases (docs/apply.md, branch `lossd`):
// - A new list item whose only other setting equals the next item's (`- name: NEW_CHECKOUT_FLOW` /
//   `value: "true"` before `- name: ENABLE_CACHE` / `value: "true"`) was read as the next item renamed in
//   place, and the next item's name was lost at confidence 1. One kept setting says nothing about a
//   rename: the item is new (sibling-items.ts `otherIdentity`); two or more kept stay a rename.
// - A hunk that ends on a head (`resources:`), a marker under it, then lines at that head's own depth
//   (`readinessProbe:` …): the marker stands for the head's body, so the next lines stay under the heads
//   shown above it (`- name: envoy`), not at their copies under another parent (shown-heads.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { BOTH_MODES } from './judged.js';

describe('lossy outputs of external writers (lossd)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('inserts a new env var sharing its one value with the next one (probes-itemkey yaml01)', () => {
    mergedCase('probes-itemkey/yaml01-new-env-var-sharing-value-with-next');
  });

  it('inserts a new JSON env object and a new TOML redirect sharing their one value with the next item (probes)', () => {
    mergedCase('probes-lossd/json01-ecs-env-var-sharing-value-with-next', BOTH_MODES);
    mergedCase('probes-lossd/toml01-netlify-redirect-sharing-target-with-next', BOTH_MODES);
  });

  it("adds the probe to the sidecar after its resources' marker, not over the main container's (29cm yaml01)", () => {
    mergedCase(caseDir('external-2026-11-29cm', 'yaml01-k8s-probe-on-sidecar'), BOTH_MODES);
  });

  it('adds a block copied from another parent after a marker standing for a head body (compose, Actions, Python probes)', () => {
    mergedCase('probes-lossd/yaml01-compose-healthcheck-on-second-service', BOTH_MODES);
    mergedCase('probes-lossd/yaml02-actions-deploy-timeout-copied-from-test', BOTH_MODES);
    mergedCase('probes-lossd/py01-second-class-gets-close-method-copied', BOTH_MODES);
  });

  it('the no-loss check agrees with every output above', () => {
    for (const dir of [
      'probes-itemkey/yaml01-new-env-var-sharing-value-with-next',
      'probes-lossd/json01-ecs-env-var-sharing-value-with-next',
      'probes-lossd/toml01-netlify-redirect-sharing-target-with-next',
      caseDir('external-2026-11-29cm', 'yaml01-k8s-probe-on-sidecar'),
    ]) {
      const c = readCase(dir);
      for (const mode of BOTH_MODES) {
        const out = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode).content;
        expect(checkLoss(c.code, c.update, c.instruction, out).lost, `${dir} ${mode}`).toEqual([]);
      }
    }
  });

  it('still renames an item in place when two other settings are kept (control: probes-itemkey yaml03)', () => {
    mergedCase('probes-itemkey/yaml03-control-redirect-source-renamed-in-place');
  });
});
