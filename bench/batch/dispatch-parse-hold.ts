// How long reading a batch's requests back (runner.ts: at dispatch, and for the error file) holds
// the event loop: readRequests with the input worker (the server's path: the chunks move to the
// worker, which joins, decodes and parses the lines) against the same read on the loop (the path
// before, and the fallback: SVC_BATCH_VALIDATE_INLINE=1), with the 1 ms slices the runner yields
// at. The chunks are copied as they are read, as FileStore.chunks() does. A 1 ms timer chain
// beside it records the longest gap (bench/common/loop-hold.ts).
//   node dist/bench/batch/dispatch-parse-hold.js [--reps 3]
import { parseArgs } from 'node:util';
import { readRequests } from '../../src/batch/request-reader.js';
import { closeValidationWorker } from '../../src/batch/input-worker.js';
import { SLICE_MS, yieldToLoop } from '../../src/batch/validate.js';
import { DEFAULT_BATCH_LIMITS } from '../../src/batch/types.js';
import { median } from '../../src/bench/stats.js';
import { holdOf, type Hold } from '../common/loop-hold.js';
import { chunksOf, requestLine } from './input-file.js';



/** The chunks, each copied as it is taken (FileStore.chunks() reads one at a time from LMDB). */
function* copiedOneByOne(chunks: Buffer[]): Generator<Buffer> {
  for (const c of chunks) yield Buffer.from(c);
}

/** Reads every request as the runner's dispatch loop does; returns how many it read. */
async function readBack(chunks: Buffer[], inWorker: boolean): Promise<number> {
  if (inWorker) delete process.env.SVC_BATCH_VALIDATE_INLINE;
  else process.env.SVC_BATCH_VALIDATE_INLINE = '1';
  let n = 0;
  let sliceStart = performance.now();
  for await (const r of readRequests(() => copiedOneByOne(chunks), { maxLineBytes: DEFAULT_BATCH_LIMITS.maxLineBytes, bodies: true })) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    if (r.body) n++;
  }
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { reps: { type: 'string', default: '3' } } });
  const small: string[] = [];
  for (let i = 0; i < 1000; i++) small.push(requestLine(i, `Summarise item ${i}: the harbour lights flicker while ships return slowly.`));
  const files: Record<string, Buffer[]> = {
    '1,000 small lines': chunksOf(small.join('\n') + '\n'),
    '1,000 lines, 4 with 4 MiB': chunksOf(small.map((l, i) => (i % 250 === 0 ? requestLine(i, 'word '.repeat((4 << 20) / 5)) : l)).join('\n') + '\n'),
    '1,000 lines, 20 with 512 KiB': chunksOf(small.map((l, i) => (i % 50 === 0 ? requestLine(i, 'word '.repeat((512 << 10) / 5)) : l)).join('\n') + '\n'),
  };
  console.log('| file | lines read | max loop hold, CPU ms | max loop hold, wall ms | loop CPU ms | total wall ms |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, chunks] of Object.entries(files)) {
    for (const inWorker of [true, false]) {
      const runs: Hold[] = [];
      for (let r = 0; r < Number(values.reps); r++) {
        const h = await holdOf(() => readBack(chunks, inWorker));
        if (h.result !== 1000) throw new Error(`${name}: ${h.result} requests read back, not 1000`);
        runs.push(h);
      }
      const m = (f: (x: Hold) => number): number => median(runs.map(f));
      console.log(`| ${name} | ${inWorker ? 'in the input worker' : 'on the loop'} | ${m((x) => x.maxHoldCpuMs).toFixed(2)} | ${m((x) => x.maxHoldMs).toFixed(2)} | ${m((x) => x.loopCpuMs).toFixed(0)} | ${m((x) => x.totalMs).toFixed(0)} |`);
    }
  }
  await closeValidationWorker();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
