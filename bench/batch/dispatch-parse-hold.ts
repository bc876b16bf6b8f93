// How long reading a batch's lines back at dispatch (and for the error file) holds the event loop:
// every line of a file is split and parsed as the runner does, lines of OFFLOAD_LINE_BYTES and
// more in the batch line worker (line-pool.ts, the server's path) against all of them here (the
// path before: decode and JSON.parse on the loop), with the 1 ms slices the runner yields at.
// A 1 ms timer chain beside it records the longest gap (bench/common/loop-hold.ts).
//   node dist/bench/batch/dispatch-parse-hold.js [--reps 3]
import { parseArgs } from 'node:util';
import { decodeLine, isBlank, splitRawLines } from '../../src/batch/lines.js';
import { closeLinePool, parseRawLine } from '../../src/batch/line-pool.js';
import { parseRequestLine, SLICE_MS } from '../../src/batch/validate.js';
import { DEFAULT_BATCH_LIMITS } from '../../src/batch/types.js';
import { median } from '../../src/bench/stats.js';
import { holdOf, type Hold } from '../common/loop-hold.js';
import { chunksOf, requestLine } from './input-file.js';

const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));


/** Parses every line as the runner's dispatch loop does; returns how many requests it found. */
async function readBack(chunks: Buffer[], offload: boolean): Promise<number> {
  let n = 0;
  let sliceStart = performance.now();
  for (const raw of splitRawLines(chunks, DEFAULT_BATCH_LIMITS.maxLineBytes)) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await pause();
      sliceStart = performance.now();
    }
    if (raw.bytes === null) continue;
    const line = { line: raw.line, bytes: raw.bytes };
    let parsed;
    if (offload) {
      parsed = parseRawLine(line);
      if (parsed instanceof Promise) parsed = await parsed;
    } else {
      const text = decodeLine(line);
      parsed = isBlank(text) ? { ok: false } : parseRequestLine(text, raw.line);
    }
    if (parsed.ok) n++;
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
  console.log('| file | long lines parsed | max loop hold, CPU ms | max loop hold, wall ms | loop CPU ms | total wall ms |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, chunks] of Object.entries(files)) {
    for (const offload of [true, false]) {
      const runs: Hold[] = [];
      for (let r = 0; r < Number(values.reps); r++) {
        const h = await holdOf(() => readBack(chunks, offload));
        if (h.result !== 1000) throw new Error(`${name}: ${h.result} requests read back, not 1000`);
        runs.push(h);
      }
      const m = (f: (x: Hold) => number): number => median(runs.map(f));
      console.log(`| ${name} | ${offload ? 'in the line worker' : 'on the loop'} | ${m((x) => x.maxHoldCpuMs).toFixed(2)} | ${m((x) => x.maxHoldMs).toFixed(2)} | ${m((x) => x.loopCpuMs).toFixed(0)} | ${m((x) => x.totalMs).toFixed(0)} |`);
    }
  }
  await closeLinePool();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
