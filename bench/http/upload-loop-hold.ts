// How long a large file upload (POST /v1/files, multipart, into LMDB) holds the event loop: a
// real uWS server with the file routes on this thread, the uploading client in one worker thread,
// a /health prober in another (one request every 2 ms while the upload runs), and a timer chain
// (setTimeout 0) beside them recording the longest gap between its turns in this thread's CPU
// time (what the loop itself spent; the machine's other load does not inflate it) and in wall
// time. Each rep also runs an idle phase as long (the floor of those columns: the chain and the
// prober cost the loop themselves) and one more upload with neither, whose loop CPU is the
// upload's own.
// Run with --cpu-prof to see where the loop's time goes.
//   node dist/bench/http/upload-loop-hold.js [--lines 100000] [--reps 3]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { BatchSystem } from '../../src/batch/system.js';
import { fileRoutes } from '../../src/api/files.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { median, summarize } from '../../src/bench/stats.js';
import { mainThreadCpuMs } from '../chat/bench-run.js';
import { holdOf } from '../common/loop-hold.js';

const KEY = 'sk-upload-loop-hold-0000';
const PROBE_INTERVAL_MS = 2;

interface ClientData {
  role: 'upload' | 'probe';
  port: number;
  lines: number;
}

async function uploader(port: number, lines: number): Promise<void> {
  const parts: string[] = [];
  for (let i = 0; i < lines; i++) {
    parts.push(JSON.stringify({ custom_id: `r-${i}`, method: 'POST', url: '/v1/chat/completions', body: { model: 'builtin', max_tokens: 8, messages: [{ role: 'user', content: `Summarise item ${i}: the harbour lights flicker while ships return slowly.` }] } }));
  }
  const file = Buffer.from(parts.join('\n') + '\n');
  parentPort!.on('message', async () => {
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([file]), 'big.jsonl');
    const res = await fetch(`http://127.0.0.1:${port}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${KEY}` }, body: form });
    await res.text();
    parentPort!.postMessage({ status: res.status, bytes: file.length });
  });
  parentPort!.postMessage('ready');
}

/** Sends /health one after another (PROBE_INTERVAL_MS apart) between 'start' and 'stop'; answers
 *  'stop' with the latencies. */
async function prober(port: number): Promise<void> {
  let running = false;
  let latencies: number[] = [];
  const url = `http://127.0.0.1:${port}/health`;
  const loop = async (): Promise<void> => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, PROBE_INTERVAL_MS));
    }
  };
  let done: Promise<void> = Promise.resolve();
  parentPort!.on('message', async (m: 'start' | 'stop') => {
    if (m === 'start') {
      latencies = [];
      running = true;
      done = loop();
    } else {
      running = false;
      await done;
      parentPort!.postMessage(latencies);
    }
  });
  // one warm-up request: the first fetch sets up undici's connection
  await (await fetch(url)).arrayBuffer();
  parentPort!.postMessage('ready');
}

if (!isMainThread) {
  const d = workerData as ClientData;
  void (d.role === 'upload' ? uploader(d.port, d.lines) : prober(d.port));
}

function startClient(data: ClientData): Promise<Worker> {
  const w = new Worker(new URL(import.meta.url), { workerData: data });
  return new Promise((resolve) => w.once('message', () => resolve(w)));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { lines: { type: 'string', default: '100000' }, reps: { type: 'string', default: '3' } } });
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-upload-hold-'));
  const sys = new BatchSystem({ dataDir, executor: () => Promise.reject(new Error('no executor in this bench')) });
  const health = { method: 'GET' as const, path: '/health', auth: false, handler: (ctx: { json(s: number, b: unknown): void }) => ctx.json(200, { status: 'ok' }) };
  const server = createHttpServer({ name: 'main', routes: [...fileRoutes(sys), health], logger: createLogger({ level: 'warn' }), apiKeys: [KEY], maxBody: 1 << 20 });
  const port = await server.listen('127.0.0.1', 0);
  const upload = await startClient({ role: 'upload', port, lines: Number(values.lines) });
  const probe = await startClient({ role: 'probe', port, lines: 0 });
  type Run = { maxHoldCpuMs: number; maxHoldMs: number; loopCpuMs: number; totalMs: number; bytes: number; p50: number; p99: number; max: number; probes: number };
  /** One measured phase: the timer chain and the prober run beside `work`. */
  const measure = async (work: () => Promise<number>): Promise<Run> => {
    probe.postMessage('start');
    const { result: bytes, ...hold } = await holdOf(work);
    const latencies = new Promise<number[]>((res) => probe.once('message', res));
    probe.postMessage('stop');
    const h = summarize(await latencies);
    return { ...hold, bytes, p50: h.p50, p99: h.p99, max: h.max, probes: h.count };
  };
  const uploadOnce = async (): Promise<number> => {
    const done = new Promise<{ status: number; bytes: number }>((res) => upload.once('message', res));
    upload.postMessage('go');
    const { status, bytes } = await done;
    if (status !== 200) throw new Error(`upload: ${status}`);
    return bytes;
  };
  const runs: Run[] = [];
  const idle: Run[] = [];
  /** Loop CPU of an upload alone: no timer chain, no prober (their own loop work would blur it). */
  const aloneCpuMs: number[] = [];
  for (let r = 0; r < Number(values.reps); r++) {
    runs.push(await measure(uploadOnce));
    // The same timer chain and prober for as long, with no upload: the floor of the other columns.
    const ms = runs.at(-1)!.totalMs;
    idle.push(await measure(() => new Promise((res) => setTimeout(() => res(0), ms))));
    const cpu0 = mainThreadCpuMs();
    await uploadOnce();
    aloneCpuMs.push(mainThreadCpuMs() - cpu0);
  }
  const m = (rows: Run[], f: (x: Run) => number): string => median(rows.map(f)).toFixed(2);
  const mib = runs[0]!.bytes / 2 ** 20;
  const row = (label: string, rows: Run[]): string =>
    `| ${label} | ${m(rows, (x) => x.maxHoldCpuMs)} | ${m(rows, (x) => x.maxHoldMs)} | ${m(rows, (x) => x.totalMs)} | ${m(rows, (x) => x.p50)} | ${m(rows, (x) => x.p99)} | ${m(rows, (x) => x.max)} | ${m(rows, (x) => x.probes)} |`;
  console.log(`medians of ${runs.length} uploads (${process.env.SVC_UPLOAD_PARSE_INLINE === '1' ? 'SVC_UPLOAD_PARSE_INLINE=1' : 'default'})`);
  console.log('| phase | longest loop hold, CPU ms | longest gap, wall ms | wall ms | /health p50 ms | p99 ms | max ms | probes |');
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(row(`upload ${mib.toFixed(1)} MiB, ${values.lines} lines`, runs));
  console.log(row('idle, as long', idle));
  console.log(`longest loop hold per upload, CPU ms, in order: ${runs.map((x) => x.maxHoldCpuMs.toFixed(2)).join(', ')} (idle: ${idle.map((x) => x.maxHoldCpuMs.toFixed(2)).join(', ')})`);
  const alone = median(aloneCpuMs);
  console.log(`loop CPU of the upload alone (no timer chain, no prober): ${alone.toFixed(1)} ms, ${(alone / mib).toFixed(2)} ms per MiB`);
  await upload.terminate();
  await probe.terminate();
  await server.shutdown(100);
  await sys.close();
  rmSync(dataDir, { recursive: true, force: true });
}

if (isMainThread) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
