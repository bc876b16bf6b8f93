// The loop's share of validating and reading back a stored input file (real LMDB in a temp dir,
// 256 KiB chunks): the chunks read on the loop and posted to the input worker (before branch
// readback: `() => files.chunks(rec)`) against the worker reading them itself (FileStore.content()),
// alternating per rep. A 1 ms timer chain beside each run records the longest gap between its
// turns in main-thread CPU (loop-hold.ts) and the loop's total CPU.
//   node --expose-gc dist/bench/batch/stored-readback-hold.js [--lines 100000] [--reps 3]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { closeValidationWorker, validatesOffThread } from '../../src/batch/input-worker.js';
import { readRequests } from '../../src/batch/request-reader.js';
import { DEFAULT_BATCH_LIMITS } from '../../src/batch/types.js';
import { validateInputOffLoop } from '../../src/batch/validate-offload.js';
import { median } from '../../src/bench/stats.js';
import { DEFAULT_CHUNK_SIZE, FileStore } from '../../src/store/files.js';
import { openStore } from '../../src/store/store.js';
import { holdOf, type Hold } from '../common/loop-hold.js';
import { requestLine } from './input-file.js';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { lines: { type: 'string', default: '100000' }, reps: { type: 'string', default: '3' } } });
  const n = Number(values.lines);
  if (!validatesOffThread()) throw new Error('the input worker is not built (run the build first)');
  const dir = mkdtempSync(join(tmpdir(), 'svc-readback-bench-'));
  const store = openStore(dir);
  const files = new FileStore(store, { chunkSize: DEFAULT_CHUNK_SIZE, maxFileBytes: 1 << 30, chunksPerCommit: 8, nowSeconds: () => 1 });
  try {
    const small: string[] = [];
    for (let i = 0; i < n; i++) small.push(requestLine(i, `Summarise item ${i}: the harbour lights flicker while ships return slowly.`));
    const big: string[] = [];
    for (let i = 0; i < 100; i++) big.push(i % 25 === 0 ? requestLine(i, 'word '.repeat((8 << 20) / 5 - 100)) : small[i]!);
    const inputs: Record<string, string> = { [`${n} lines`]: small.join('\n') + '\n', '100 lines, 4 near 8 MiB': big.join('\n') + '\n' };
    const limits = { ...DEFAULT_BATCH_LIMITS, maxRequests: Math.max(n, DEFAULT_BATCH_LIMITS.maxRequests) };
    console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    console.log('| file | work | chunks read | max loop hold, CPU ms | loop CPU ms | total wall ms |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, text] of Object.entries(inputs)) {
      const w = await files.beginUpload('input.jsonl');
      await w.write(Buffer.from(text));
      const rec = files.record((await w.finish('batch')).id)!;
      for (const work of ['validation', 'read-back']) {
        const runs: Record<string, Hold[]> = { 'on the loop': [], 'in the worker': [] };
        for (let r = 0; r < Number(values.reps); r++) {
          for (const where of r % 2 === 0 ? ['on the loop', 'in the worker'] : ['in the worker', 'on the loop']) {
            const input = where === 'on the loop' ? () => files.chunks(rec) : files.content(rec);
            (globalThis as { gc?: () => void }).gc?.();
            runs[where]!.push(
              await holdOf(async () => {
                if (work === 'validation') await validateInputOffLoop(input, limits);
                else for await (const q of readRequests(input, { maxLineBytes: limits.maxLineBytes, bodies: true, unparsedLineChars: 1 << 20 })) void q;
              }),
            );
          }
        }
        for (const [where, hs] of Object.entries(runs)) {
          const m = (f: (x: Hold) => number): number => median(hs.map(f));
          console.log(`| ${name} | ${work} | ${where} | ${m((x) => x.maxHoldCpuMs).toFixed(2)} | ${m((x) => x.loopCpuMs).toFixed(0)} | ${m((x) => x.totalMs).toFixed(0)} |`);
        }
      }
    }
    console.log(`load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  } finally {
    await closeValidationWorker();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
