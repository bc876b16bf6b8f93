// Deletions a named service stands for (docs/apply.md, branch delx).
// "drop the flower service" names the compose service `flower` ('service' is a kind word, removals.ts),
// and the matcher deletes across the rows the instruction removes without calling it a block
// crossing (merge-context.ts crossesBlock): the update's next service (`db:`) anchors where it
// stands instead of being written a second time. Revealed by 27bh yaml03.
// Control: "remove the healthcheck from the cache service" names `cache` as well, but the update
// shows `cache:`, so the service stays (only its healthcheck may go).
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const probe = (name: string, set = 'probes-delx'): void => mergedCase(`${set}/${name}`);

describe('delx: a service the instruction removes, shown by adjacency', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('a compose service named by the instruction goes; the next service is not written twice (27bh yaml03)', () => probe('yaml03-compose-remove-service-by-adjacency', 'external-2026-11-27bh'));
  it('a compose service removed by the instruction only (probe)', () => probe('yaml03-compose-remove-adminer-instruction-only'));
  it('the same with the next service head shown and a trailing marker (probe)', () => probe('yaml04-compose-drop-pgadmin-service-next-head-shown'));
  it('control: the service named only as the owner of a removed key stays', () => {
    const c = readCase('probes-delx/yaml02-compose-healthcheck-from-cache-service');
    for (const mode of ['fast', 'large'] as const) {
      const out = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode).content;
      expect(checkLoss(c.code, c.update, c.instruction, out).lost, mode).toEqual([]);
      expect(out, mode).toContain('  cache:\n    image: redis:7\n');
      expect(out, mode).toContain('    restart: always\n\n  worker:');
    }
  });
});
