// Look-alike blocks (branch comiss): a hunk inside the second of two identical blocks (two nginx
// `server`s with the same `location`s, two compose services, two fieldsets) whose every line repeats
// in the first block, pinned only by a line the original has once in the hunk before a marker
// (`server_name admin…`, `container_name: api-us`). Walking the hunk's context never reached a
// once-line before the marker stopped it, so a deletion between two shown-adjacent anchors was not
// licensed (rule (b)) and the merge put the deleted line back at confidence 0.4. The loss check now
// pins a strong line that the stretch between the update's nearest pins holds once (pin-windows.ts).
// The pin-window rule (pin-windows.ts) was reverted at the merge (2026-11-29, twentieth session):
// it licensed the lossy output of test/apply/lossk.test.ts's new-item case. The tests that need it
// are skipped until a narrower rule lands; the controls stay.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const BENCH = path.resolve(__dirname, '../../bench/apply');

function load(dir: string): { code: string; update: string; expected: string; instruction: string | null } {
  const at = (f: string) => fs.readFileSync(path.join(BENCH, dir, f), 'utf8');
  return { code: at('original'), update: at('update'), expected: at('expected'), instruction: JSON.parse(at('meta.json')).instruction };
}

describe('a hunk in the second of two look-alike blocks (comiss)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it.skip('co nginx01: the limit dropped from the second server\'s /api/ location is dropped (fast and large)', () => {
    const c = load('external-2026-11-29co/nginx01-edit-location-in-second-of-two-servers');
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
      expect(r.content).toBe(c.expected);
    }
    expect(checkLoss(c.code, c.update, c.instruction, c.expected).lost).toEqual([]);
  });

  for (const probe of ['yaml01-compose-drop-env-in-second-of-twin-services', 'html01-drop-hint-in-second-of-twin-fieldsets']) {
    it.skip(`probe ${probe} is exact in fast`, () => {
      const c = load(`probes-comiss/${probe}`);
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
      expect(r.content).toBe(c.expected);
    });
  }

  it('without the pin the stretch holds both copies: the deletion stays unlicensed', () => {
    const c = load('probes-comiss/yaml01-compose-drop-env-in-second-of-twin-services');
    // The service's name and container name left out: nothing tells which service the hunk is in.
    const update = c.update.replace('  api-us:\n    image: registry.example.com/shop/api:2.14.0\n    container_name: api-us\n', '  # ...\n');
    expect(update).not.toContain('container_name: api-us');
    expect(checkLoss(c.code, update, c.instruction, c.expected).lost.length).toBeGreaterThan(0);
  });

  it('a pin after the hunk that stands before it in the file bounds no stretch: the deletion stays unlicensed', () => {
    const c = load('probes-comiss/yaml01-compose-drop-env-in-second-of-twin-services');
    // A hunk naming the first service's container written after the second's: the pins are out of file order.
    const update = `${c.update}\n  # ...\n    container_name: api-eu\n  # ...\n`;
    expect(checkLoss(c.code, update, c.instruction, c.expected).lost.length).toBeGreaterThan(0);
  });
});
