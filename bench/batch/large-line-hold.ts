// How long one large batch line holds the event loop on its way from the input file to the
// executor's answer: read back by the input worker (request-reader.ts), then executeChatCompletion
// on the real engine. "before": the line's parsed body is posted to the loop (a structured clone)
// and prepared there, its template input and text crossing to the text pool and back (main's path;
// here: unparsedLineChars out of reach). "after": the line's bytes are moved to the loop and on to
// the chat prepare pool, which parses, validates, renders and tokenizes it (src/api/chat-prepare-pool.ts).
// A 1 ms timer chain runs beside; each turn's lateness (gap - 1 ms) is recorded. The lines are over
// the test model's 32k context, so each ends in the 400 its prompt length gives: the whole prepare
// runs, no generation. Modes alternate within one run; medians over the reps.
//   node --expose-gc dist/bench/batch/large-line-hold.js [--reps 3] [--only before|after]
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadModel } from '../../src/engine/index.js';
import { makeModel, resolveSpec } from '../../src/model-maker/index.js';
import { executeChatCompletion } from '../../src/api/chat-executor.js';
import { chatPrepareCounts, closeChatPreparePool } from '../../src/api/chat-prepare-pool.js';
import { closeTextPool } from '../../src/engine/text-pool.js';
import { readRequests } from '../../src/batch/request-reader.js';
import { closeValidationWorker } from '../../src/batch/input-worker.js';
import { DEFAULT_BATCH_LIMITS } from '../../src/batch/types.js';
import { median } from '../../src/bench/stats.js';
import { chunksOf } from './input-file.js';
import { mainThreadCpuMs } from '../chat/bench-run.js';

const MODEL_ID = 'bench-chat';

async function modelPath(): Promise<string> {
  const dir = join(tmpdir(), 'svc-chat-tests');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'bench-large-line-chat.gguf');
  if (!existsSync(path)) await makeModel(resolveSpec('builtin', { vocabLimit: 4096, ctx: 32768 }), path);
  return path;
}

function line(messages: Array<Record<string, unknown>>): string {
  return JSON.stringify({ custom_id: 'big', method: 'POST', url: '/v1/chat/completions', body: { model: MODEL_ID, max_tokens: 8, temperature: 0, messages } });
}

const WORDS = 'the harbour lights flicker while ships return slowly across a grey and patient sea '.split(' ');
function text(chars: number): string {
  let s = '';
  for (let i = 0; s.length < chars; i++) s += WORDS[i % WORDS.length] + ' ';
  return s.slice(0, chars);
}

/** Gaps between turns of a 1 ms timer chain while `work` runs: lateness in wall time, and the
 *  main thread's CPU between turns (on a loaded machine the wall gaps include time the OS gave
 *  other processes; the CPU gaps are what the loop itself spent). */
async function lateTurns(work: () => Promise<void>): Promise<{ lates: number[]; cpuGaps: number[]; totalMs: number }> {
  const lates: number[] = [];
  const cpuGaps: number[] = [];
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  let running = true;
  const tick = (): void => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    lates.push(Math.max(0, now - last - 1));
    cpuGaps.push(cpu - lastCpu);
    last = now;
    lastCpu = cpu;
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const t0 = performance.now();
  await work();
  const totalMs = performance.now() - t0;
  running = false;
  return { lates, cpuGaps, totalMs };
}

/** The chunks, each copied as it is taken (FileStore.chunks() reads one at a time from LMDB). */
function* copiedOneByOne(chunks: Buffer[]): Generator<Buffer> {
  for (const c of chunks) yield Buffer.from(c);
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { reps: { type: 'string', default: '3' }, only: { type: 'string' } } });
  const modes = (['before', 'after'] as const).filter((m) => values.only === undefined || values.only === m);
  const reps = Number(values.reps);
  const model = await loadModel(await modelPath(), { id: MODEL_ID, threads: 2, kvCacheMb: 64, prefixCache: false });
  const services = { models: new Map([[MODEL_ID, model]]) };
  const MAX = DEFAULT_BATCH_LIMITS.maxLineBytes;
  // About 200 bytes each: 40,000 of them fill a line to just under 8 MiB.
  const shortMsgs = (n: number): Array<Record<string, unknown>> => Array.from({ length: n }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: text(165) }));
  // Each file is kept as its chunks only (off the heap), so the bench's own strings do not add to
  // the collections the runs pay for.
  const file = (l: string): Buffer[] => {
    if (Buffer.byteLength(l) > MAX) throw new Error(`${Buffer.byteLength(l)} bytes, over the line limit`);
    return chunksOf(l + '\n');
  };
  const lines: Record<string, Buffer[]> = {
    '8 MiB, one message': file(line([{ role: 'user', content: text(MAX - 300) }])),
    '8 MiB, 40,000 short messages': file(line(shortMsgs(40_000))),
    '1 MiB, one message': file(line([{ role: 'user', content: text((1 << 20) - 300) }])),
  };
  const gc = (globalThis as { gc?: () => void }).gc;

  const runOnce = async (chunks: Buffer[], after: boolean): Promise<{ worst: number; p99: number; worstCpu: number; totalMs: number; status: number; prepared: number }> => {
    gc?.(); // each run starts from a collected heap (run with --expose-gc)
    const before = chatPrepareCounts.offLoop;
    let status = 0;
    const o = { maxLineBytes: MAX, bodies: true, unparsedLineChars: after ? DEFAULT_BATCH_LIMITS.unparsedLineChars : Number.MAX_SAFE_INTEGER };
    const { lates, cpuGaps, totalMs } = await lateTurns(async () => {
      for await (const r of readRequests(() => copiedOneByOne(chunks), o)) {
        const res = await executeChatCompletion(services, r.body, { requestId: 'req_bench', priority: 'batch' });
        status = res.statusCode;
      }
    });
    return { worst: Math.max(...lates), p99: pct(lates, 0.99), worstCpu: Math.max(...cpuGaps), totalMs, status, prepared: chatPrepareCounts.offLoop - before };
  };

  // Warm the input worker, the text pool and the prepare pool (threads, tokenizers) for both paths.
  const warm = file(line([{ role: 'user', content: text(300 * 1024) }]));
  for (const after of [false, true]) await runOnce(warm, after);

  console.log(`large-line-hold: ${reps} reps per mode, modes alternating; late turn = gap of a 1 ms timer chain - 1 ms (medians over reps); gc before each run: ${gc ? 'yes' : 'no (--expose-gc)'}`);
  console.log('| line | path | worst late turn, ms (each rep) | p99 late turn, ms | worst loop CPU between turns, ms | total wall ms | status | prepared off the loop |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const [name, l] of Object.entries(lines)) {
    const runs: Record<'before' | 'after', Array<Awaited<ReturnType<typeof runOnce>>>> = { before: [], after: [] };
    for (let r = 0; r < reps; r++) {
      for (const mode of modes) runs[mode].push(await runOnce(l, mode === 'after'));
    }
    for (const mode of modes) {
      const rs = runs[mode];
      const m = (f: (x: (typeof rs)[number]) => number): string => median(rs.map(f)).toFixed(1);
      console.log(
        `| ${name} | ${mode === 'before' ? "before (main's: parsed body cloned to the loop)" : 'after (bytes moved, prepared in the pool)'} | ${m((x) => x.worst)} (${rs.map((x) => x.worst.toFixed(1)).join(' / ')}) | ${m((x) => x.p99)} | ${m((x) => x.worstCpu)} | ${m((x) => x.totalMs)} | ${rs.map((x) => x.status).join(',')} | ${rs.map((x) => x.prepared).join(',')} |`,
      );
    }
  }
  await closeChatPreparePool();
  await closeTextPool();
  await closeValidationWorker();
  model.unload();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
