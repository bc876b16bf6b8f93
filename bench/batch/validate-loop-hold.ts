// How long batch input validation holds the event loop: a 1 ms timer chain runs beside it and
// records the longest gap between two of its turns (a turn waits for whatever holds the loop), in
// wall and in main-thread CPU time, plus the loop's total CPU and the total time. Validation runs in its worker (validate-offload.ts, the server's path) and
// inline in 1 ms slices (validate.ts, the fallback), on a 100,000-line file and on a file with a
// few 4 MiB lines among small ones, fed as 256 KiB chunks as FileStore.chunks() yields them.
//   node dist/bench/batch/validate-loop-hold.js [--lines 100000] [--reps 3]
import { parseArgs } from 'node:util';
import { validateInput, yieldToLoop } from '../../src/batch/validate.js';
import { validatesOffThread } from '../../src/batch/input-worker.js';
import { validateInputOffLoop } from '../../src/batch/validate-offload.js';
import { DEFAULT_BATCH_LIMITS } from '../../src/batch/types.js';
import { median } from '../../src/bench/stats.js';
import { holdOf, type Hold } from '../common/loop-hold.js';
import { chunksOf, requestLine } from './input-file.js';


async function main(): Promise<void> {
  const { values } = parseArgs({ options: { lines: { type: 'string', default: '100000' }, reps: { type: 'string', default: '3' } } });
  const n = Number(values.lines);
  const small: string[] = [];
  for (let i = 0; i < n; i++) small.push(requestLine(i, `Summarise item ${i}: the harbour lights flicker while ships return slowly.`));
  const files: Record<string, Buffer[]> = { [`${n} lines`]: chunksOf(small.join('\n') + '\n') };
  const big: string[] = [];
  for (let i = 0; i < 1000; i++) big.push(i % 250 === 0 ? requestLine(i, 'word '.repeat((4 << 20) / 5)) : small[i]!);
  files['1,000 lines, 4 with 4 MiB'] = chunksOf(big.join('\n') + '\n');
  const limits = { ...DEFAULT_BATCH_LIMITS, maxRequests: Math.max(n, DEFAULT_BATCH_LIMITS.maxRequests) };
  if (!validatesOffThread()) throw new Error('the validation worker is not built (run the build first)');
  console.log('| file | where | max loop hold, CPU ms | max loop hold, wall ms | loop CPU ms | total wall ms |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, chunks] of Object.entries(files)) {
    for (const where of ['worker', 'inline (1 ms slices)']) {
      const runs: Hold[] = [];
      for (let r = 0; r < Number(values.reps); r++) {
        // Fresh copies each run: the worker path moves the chunks it is given.
        const copies = chunks.map((c) => Buffer.from(c));
        // Resolves to nothing: no validation result stays alive into the next rep.
        runs.push(
          await holdOf(async () => {
            await (where === 'worker' ? validateInputOffLoop(() => copies, limits) : validateInput(copies, limits, yieldToLoop));
          }),
        );
      }
      const m = (f: (x: Hold) => number): number => median(runs.map(f));
      console.log(`| ${name} | ${where} | ${m((x) => x.maxHoldCpuMs).toFixed(2)} | ${m((x) => x.maxHoldMs).toFixed(2)} | ${m((x) => x.loopCpuMs).toFixed(0)} | ${m((x) => x.totalMs).toFixed(0)} |`);
    }
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
