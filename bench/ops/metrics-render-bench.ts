// The cost of a /metrics scrape while the engine is busy: a real main server on the built-in
// model with 64 streams decoding (and more waiting), `metrics.render()` timed in process and
// GET /metrics timed over HTTP, p50/p90/p99/max of each.
//   node dist/bench/ops/metrics-render-bench.js [--streams 80] [--scrapes 200]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import OpenAI from 'openai';
import { parseServeConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createServices } from '../../src/server/services.js';
import { startMainServer } from '../../src/server/main-server.js';
import { summarize } from '../../src/bench/stats.js';

const { values: args } = parseArgs({ options: { streams: { type: 'string', default: '80' }, scrapes: { type: 'string', default: '200' } } });
const KEY = 'sk-metrics-bench-0123456789';
const dataDir = mkdtempSync(join(tmpdir(), 'svc-metrics-bench-'));
const config = parseServeConfig(['--port', '0', '--no-predict', '--data-dir', dataDir, '--api-key', KEY, '--kv-cache-mb', '256'], {});
const services = await createServices(config, { logger: createLogger({ level: 'error', sink: () => {} }) });
const server = await startMainServer(services);
const url = `http://127.0.0.1:${server.port}`;
const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: KEY, maxRetries: 0 });
const model = [...services.models.keys()][0]!;

let running = true;
const streams = Array.from({ length: Number(args.streams) }, async (_, i) => {
  while (running) {
    const s = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: `stream ${i}` }], max_tokens: 256, stream: true });
    for await (const _chunk of s) if (!running) break;
  }
});

function runningNow(): number {
  const m = /vllm:num_requests_running\{[^}]*\} (\d+)/.exec(services.metrics.render());
  return m ? Number(m[1]) : 0;
}
while (runningNow() < 64) await new Promise((r) => setTimeout(r, 20));

const inProcess: number[] = [], overHttp: number[] = [];
let bytes = 0;
for (let i = 0; i < Number(args.scrapes); i++) {
  const t0 = performance.now();
  bytes = services.metrics.render().length;
  inProcess.push(performance.now() - t0);
  const t1 = performance.now();
  await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).text();
  overHttp.push(performance.now() - t1);
  await new Promise((r) => setTimeout(r, 10));
}
const row = (name: string, xs: number[]) => {
  const s = summarize(xs);
  return { name, p50_ms: +s.p50.toFixed(3), p90_ms: +s.p90.toFixed(3), p99_ms: +s.p99.toFixed(3), max_ms: +s.max.toFixed(3) };
};
console.log(JSON.stringify({ running_at_start: 64, text_bytes: bytes, render: row('render', inProcess), http: row('GET /metrics', overHttp) }));
running = false;
await Promise.allSettled(streams);
await server.shutdown(2000);
await services.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
