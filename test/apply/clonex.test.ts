// One of many look-alike blocks (branch clonex): a hunk ends on a body line of one clone (a
// Deployment's `image:`, a compose service's `image:`), a marker at that line's depth stands for its
// next siblings, and the next hunk's key/value lines are a later clone's values. Fast mode pins the
// hunk inside the parent the hunk before it stands in (open-blocks.ts siblingBlockRange) only where
// it would otherwise land in a clone of that parent (inCloneOf: heads at one depth whose blocks set
// the same keys in the same shape); a hunk that fits an unlike block goes there as before (samex5's
// unguarded pin broke 16 generated edits that way).
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { mergedEverywhere } from './judged.js';

const dep = (name: string, ver: string, cpu: string, mem: string): string =>
  `---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  template:\n    spec:\n      containers:\n        - name: ${name}\n          image: registry.local/${name}:${ver}\n          ports:\n            - containerPort: 8080\n          resources:\n            requests:\n              cpu: ${cpu}\n              memory: ${mem}\n          readinessProbe:\n            httpGet:\n              path: /ready\n`;

const svc = (name: string, tag: string, cpus: string, mem: string): string =>
  `  ${name}:\n    image: registry.example.com/${name}:${tag}\n    restart: unless-stopped\n    deploy:\n      resources:\n        limits:\n          cpus: "${cpus}"\n          memory: ${mem}\n    networks:\n      - backend\n`;

function fastExact(code: string, update: string, expected: string): void {
  mergedEverywhere(code, update, expected, null, ['fast']);
}

describe('one of many look-alike blocks (clonex)', () => {
  it("a Deployment's image edited, a marker at its depth, then its requests set to the next clone's values: this Deployment is edited, the next one not", () => {
    const code = dep('api', '1.4.0', '100m', '128Mi') + dep('worker', '1.4.0', '500m', '512Mi') + dep('cron', '1.4.0', '250m', '256Mi');
    const update =
      '---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  template:\n    spec:\n      containers:\n        - name: api\n          image: registry.local/api:1.5.0\n          # ... ports unchanged ...\n          resources:\n            requests:\n              cpu: 500m\n              memory: 512Mi\n          # ... probes unchanged ...\n# ... worker and cron unchanged ...\n';
    // Main placed the resources hunk in worker (its lines match there, no change) at confidence 1. Here
    // the new values land in api; its old ones may stay beside them (sameOwner's pairing is not landed).
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
    const api = r.content.split('---\n')[1]!;
    expect(api).toContain('registry.local/api:1.5.0');
    expect(api).toContain('cpu: 500m');
    expect(api).toContain('memory: 512Mi');
    expect(r.content.endsWith(dep('worker', '1.4.0', '500m', '512Mi') + dep('cron', '1.4.0', '250m', '256Mi'))).toBe(true);
  });

  it("a compose service's image edited, a marker, then its limits set to the next service's: the first service is edited", () => {
    const code = 'services:\n' + svc('api', '4.1', '0.50', '256M') + svc('worker', '4.1', '1.00', '512M') + svc('mailer', '4.1', '0.25', '128M');
    const update =
      'services:\n  api:\n    image: registry.example.com/api:4.2\n    # ...\n    deploy:\n      resources:\n        limits:\n          cpus: "1.00"\n          memory: 512M\n    # ...\n# ... worker and mailer unchanged ...\n';
    fastExact(code, update, 'services:\n' + svc('api', '4.2', '1.00', '512M') + svc('worker', '4.1', '1.00', '512M') + svc('mailer', '4.1', '0.25', '128M'));
  });

  it("control: a marker at the edited line's depth, then a line only the next service has: the pin lets the hunk go there", () => {
    const compose = (workerEnv: string): string =>
      `services:\n  api:\n    image: ghcr.io/acme/shop:1.8.2\n    command: ["serve"]\n    env_file: .env\n    restart: unless-stopped\n  worker:\n    image: ghcr.io/acme/shop:1.8.2\n    command: ["work"]\n    env_file: ${workerEnv}\n    restart: unless-stopped\n`;
    const code = compose('.env');
    const update = 'services:\n  api:\n    image: ghcr.io/acme/shop:1.8.2\n    command: ["serve", "--port", "8080"]\n    # ...\n    command: ["work"]\n    env_file: .env.worker\n    # ... rest unchanged ...\n';
    mergedEverywhere(code, update, compose('.env.worker').replace('command: ["serve"]', 'command: ["serve", "--port", "8080"]'));
  });
});
