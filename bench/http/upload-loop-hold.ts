// How long a large file upload (POST /v1/files, multipart, into LMDB) holds the event loop: a
// real uWS server with the file routes on this thread, the client in a worker thread, and a 1 ms
// timer chain beside them recording the longest gap between its turns in this thread's CPU time
// (what the loop itself spent; the machine's other load does not inflate it) and in wall time.
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
import { median } from '../../src/bench/stats.js';
import { mainThreadCpuMs } from '../chat/bench-run.js';

const KEY = 'sk-upload-loop-hold-0000';

async function client(port: number, lines: number): Promise<void> {
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

if (!isMainThread) {
  const d = workerData as { port: number; lines: number };
  void client(d.port, d.lines);
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { lines: { type: 'string', default: '100000' }, reps: { type: 'string', default: '3' } } });
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-upload-hold-'));
  const sys = new BatchSystem({ dataDir, executor: () => Promise.reject(new Error('no executor in this bench')) });
  const server = createHttpServer({ name: 'main', routes: fileRoutes(sys), logger: createLogger({ level: 'warn' }), apiKeys: [KEY], maxBody: 1 << 20 });
  const port = await server.listen('127.0.0.1', 0);
  const worker = new Worker(new URL(import.meta.url), { workerData: { port, lines: Number(values.lines) } });
  await new Promise((r) => worker.once('message', r));
  const runs: Array<{ maxHoldCpuMs: number; maxHoldMs: number; loopCpuMs: number; totalMs: number; bytes: number }> = [];
  for (let r = 0; r < Number(values.reps); r++) {
    let last = performance.now();
    let lastCpu = mainThreadCpuMs();
    let maxWall = 0;
    let maxCpu = 0;
    let running = true;
    const tick = (): void => {
      const now = performance.now();
      const cpu = mainThreadCpuMs();
      maxWall = Math.max(maxWall, now - last);
      maxCpu = Math.max(maxCpu, cpu - lastCpu);
      last = now;
      lastCpu = cpu;
      if (running) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const t0 = performance.now();
    const cpu0 = mainThreadCpuMs();
    const done = new Promise<{ status: number; bytes: number }>((res) => worker.once('message', res));
    worker.postMessage('go');
    const { status, bytes } = await done;
    running = false;
    if (status !== 200) throw new Error(`upload: ${status}`);
    runs.push({ maxHoldCpuMs: maxCpu, maxHoldMs: maxWall, loopCpuMs: mainThreadCpuMs() - cpu0, totalMs: performance.now() - t0, bytes });
  }
  const m = (f: (x: (typeof runs)[number]) => number): string => median(runs.map(f)).toFixed(2);
  console.log('| upload | longest loop hold, CPU ms | longest gap, wall ms | loop CPU ms | wall ms |');
  console.log('|---|---|---|---|---|');
  console.log(`| ${(runs[0]!.bytes / 2 ** 20).toFixed(1)} MiB, ${values.lines} lines | ${m((x) => x.maxHoldCpuMs)} | ${m((x) => x.maxHoldMs)} | ${m((x) => x.loopCpuMs)} | ${m((x) => x.totalMs)} |`);
  await worker.terminate();
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
