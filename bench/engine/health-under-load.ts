// /health latency on the main API while the engine runs flat out: a real `svc serve` on the
// built-in model, N streaming chat requests generating continuously, and /health polled
// back to back from this process. Reports /health p50/p99 and the engine's token rate.
//   node dist/bench/engine/health-under-load.js [--streams 16] [--seconds 20]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSvc } from '../../src/bench/svc-process.js';
import { summarize } from '../../src/bench/stats.js';

const KEY = 'bench-health-key-0123';

async function streamForever(url: string, stop: () => boolean, counter: { tokens: number }): Promise<void> {
  while (!stop()) {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ model: 'builtin', stream: true, max_tokens: 256, temperature: 1, messages: [{ role: 'user', content: `load ${Math.random()}` }] }),
    });
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      counter.tokens += (Buffer.from(chunk).toString().match(/"content":"/g) ?? []).length;
      if (stop()) break;
    }
  }
}

const { values } = parseArgs({ options: { streams: { type: 'string', default: '16' }, seconds: { type: 'string', default: '20' } } });
const server = await startSvc(['serve', '--no-predict', '--port', '0', '--data-dir', mkdtempSync(join(tmpdir(), 'svc-health-load-')), '--api-key', KEY, '--rate-limit-rps', '0', '--log-level', 'info']);
const url = server.mainUrl as string;
try {
  const idle: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    await (await fetch(`${url}/health`)).text();
    idle.push(performance.now() - t0);
  }
  let stopped = false;
  const counter = { tokens: 0 };
  const streams = Array.from({ length: Number(values.streams) }, () => streamForever(url, () => stopped, counter).catch(() => {}));
  await new Promise((r) => setTimeout(r, 2000)); // let the engine reach steady state
  const loaded: number[] = [];
  const t0 = performance.now();
  const tokens0 = counter.tokens;
  while (performance.now() - t0 < Number(values.seconds) * 1000) {
    const s = performance.now();
    await (await fetch(`${url}/health`)).text();
    loaded.push(performance.now() - s);
  }
  const tokS = (counter.tokens - tokens0) / ((performance.now() - t0) / 1000);
  stopped = true;
  await Promise.all(streams);
  const fmt = (x: ReturnType<typeof summarize>) => `p50 ${x.p50.toFixed(2)} ms, p99 ${x.p99.toFixed(2)} ms, max ${x.max.toFixed(1)} ms (n=${x.count})`;
  console.log(`/health idle:            ${fmt(summarize(idle))}`);
  console.log(`/health, ${values.streams} streams:   ${fmt(summarize(loaded))}; engine ${tokS.toFixed(0)} tok/s meanwhile`);
} finally {
  await server.stop('SIGKILL');
}
