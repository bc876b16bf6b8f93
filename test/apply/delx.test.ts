// Deletions a named service stands for (docs/apply.md, branch delx).
// "drop the flower service" names the compose service `flower` ('service' is a kind word, removals.ts),
// and the matcher deletes across the rows the instruction removes without calling it a block
// crossing (merge-context.ts crossesBlock): the update's next service (`db:`) anchors where it
// stands instead of being written a second time. Revealed by 27bh yaml03.
// Control: "remove the healthcheck from the cache service" names `cache` as well, but the update
// shows `cache:`, so the service stays (only its healthcheck may go).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { mergedEverywhere } from './judged.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const PROBES = join(__dirname, '../../bench/apply/probes-delx');
const BH = join(__dirname, '../../bench/apply/external-2026-11-27bh');

function read(name: string, f: string, dir = PROBES): string {
  return readFileSync(join(dir, name, f), 'utf8');
}

function probe(name: string, dir = PROBES): void {
  const meta = JSON.parse(read(name, 'meta.json', dir)) as { instruction: string | null };
  mergedEverywhere(read(name, 'original', dir), read(name, 'update', dir), read(name, 'expected', dir), meta.instruction);
}

describe('delx: a service the instruction removes, shown by adjacency', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('a compose service named by the instruction goes; the next service is not written twice (27bh yaml03)', () => probe('yaml03-compose-remove-service-by-adjacency', BH));
  it('a compose service removed by the instruction only (probe)', () => probe('yaml03-compose-remove-adminer-instruction-only'));
  it('the same with the next service head shown and a trailing marker (probe)', () => probe('yaml04-compose-drop-pgadmin-service-next-head-shown'));
  it('control: the service named only as the owner of a removed key stays', () => {
    const name = 'yaml02-compose-healthcheck-from-cache-service';
    const meta = JSON.parse(read(name, 'meta.json')) as { instruction: string | null };
    for (const mode of ['fast', 'large'] as const) {
      const out = mergeApply({ code: read(name, 'original'), update: read(name, 'update'), instruction: meta.instruction }, mode).content;
      expect(checkLoss(read(name, 'original'), read(name, 'update'), meta.instruction, out).lost, mode).toEqual([]);
      expect(out, mode).toContain('  cache:\n    image: redis:7\n');
      expect(out, mode).toContain('    restart: always\n\n  worker:');
    }
  });
});
