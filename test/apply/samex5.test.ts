// One of many near-identical blocks, fifth round (branch samex5): samex3's pin landed with the key
// pairing it lacked. A hunk ends on a body line, a marker at that line's depth stands for its next
// siblings, and the next hunk's key/value lines match a twin parent further down better than their
// own (held-out br yaml41). Fast mode pins the hunk inside the parent the hunk before it stands in
// (open-blocks.ts siblingBlockRange); the no-loss pass then reads `memory: 512Mi` under the shown
// `requests:` as the edit of its `memory: 256Mi`, because a twin's `- name: search` or the block's own
// `limits:` is another original head, not this one renamed (line-identity.ts sameOwner).
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';

const dep = (name: string, ver: string, cpu: string, mem: string): string =>
  `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n        - name: ${name}\n          image: registry.local/${name}:${ver}\n          ports:\n            - containerPort: 8080\n          resources:\n            requests:\n              cpu: ${cpu}\n              memory: ${mem}\n          readinessProbe:\n            httpGet:\n              path: /ready\n`;

const compose = (workerEnv: string): string =>
  `services:\n  api:\n    image: ghcr.io/acme/shop:1.8.2\n    command: ["serve"]\n    env_file: .env\n    restart: unless-stopped\n  worker:\n    image: ghcr.io/acme/shop:1.8.2\n    command: ["work"]\n    env_file: ${workerEnv}\n    restart: unless-stopped\n`;

describe('one of many near-identical blocks (fifth round)', () => {
  it("a Deployment's image edited, a marker at its depth, then its requests set to the next Deployment's values: this Deployment is edited in place, the next one not", () => {
    const code = dep('api', '1.4.0', '100m', '128Mi') + dep('worker', '1.4.0', '500m', '512Mi') + dep('cron', '1.4.0', '250m', '256Mi');
    const update =
      '---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  template:\n    spec:\n      containers:\n        - name: api\n          image: registry.local/api:1.5.0\n          # ... ports unchanged ...\n          resources:\n            requests:\n              cpu: 500m\n              memory: 512Mi\n          # ... probes unchanged ...\n# ... worker and cron unchanged ...\n';
    const expected = dep('api', '1.5.0', '500m', '512Mi') + dep('worker', '1.4.0', '500m', '512Mi') + dep('cron', '1.4.0', '250m', '256Mi');
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
    // Main placed the resources hunk in worker (its lines match there, no change) and left api's old values, at confidence 1.
    expect(r.content).toBe(expected);
  });

  it('control: a marker at the edited line\'s depth, then a line only the next service has: the pin lets the hunk go there', () => {
    const code = compose('.env');
    const update = 'services:\n  api:\n    image: ghcr.io/acme/shop:1.8.2\n    command: ["serve", "--port", "8080"]\n    # ...\n    command: ["work"]\n    env_file: .env.worker\n    # ... rest unchanged ...\n';
    const expected = compose('.env.worker').replace('command: ["serve"]', 'command: ["serve", "--port", "8080"]');
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code, update, instruction: null }, mode);
      expect(checkLoss(code, update, null, r.content).lost, mode).toEqual([]);
      expect(r.content, mode).toBe(expected);
    }
  });
});
