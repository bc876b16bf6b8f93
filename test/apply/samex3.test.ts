// One of many near-identical blocks, third round (branch samex3): a hunk ends on a body line, a marker
// at that line's depth stands for its next siblings, and the next hunk's key/value lines match a twin
// parent further down better than their own (held-out br yaml41). Fast mode pins the hunk inside the
// parent the hunk before it stands in (open-blocks.ts siblingBlockRange); where it cannot pair the
// lines there with the old ones it keeps both and lowers confidence rather than editing the twin.
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';

const dep = (name: string, ver: string, cpu: string, mem: string): string =>
  `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n        - name: ${name}\n          image: registry.local/${name}:${ver}\n          ports:\n            - containerPort: 8080\n          resources:\n            requests:\n              cpu: ${cpu}\n              memory: ${mem}\n          readinessProbe:\n            httpGet:\n              path: /ready\n`;

describe('one of many near-identical blocks (third round)', () => {
  it("a Deployment's image edited, a marker at its depth, then resources set to the next Deployment's values: the next Deployment is not edited", () => {
    const code = dep('api', '1.4.0', '100m', '128Mi') + dep('worker', '1.4.0', '500m', '512Mi') + dep('cron', '1.4.0', '250m', '256Mi');
    const update =
      '---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  template:\n    spec:\n      containers:\n        - name: api\n          image: registry.local/api:1.5.0\n          # ... ports unchanged ...\n          resources:\n            requests:\n              cpu: 500m\n              memory: 512Mi\n          # ... probes unchanged ...\n# ... worker and cron unchanged ...\n';
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
    // Main placed the resources hunk in worker (its `cpu: 500m` / `memory: 512Mi` match there, no change) at confidence 1.
    const api = r.content.slice(0, r.content.indexOf('name: worker'));
    expect(api).toContain('              cpu: 500m\n              memory: 512Mi\n');
    expect(r.content.slice(r.content.indexOf('name: worker'))).toBe(code.slice(code.indexOf('name: worker')));
    // The old values stay beside the new ones (which key is edited is not proved): confidence drops.
    expect(r.confidence).toBeLessThan(1);
  });
});
