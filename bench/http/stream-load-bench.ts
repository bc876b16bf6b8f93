// Thousands of SSE streams against a real `svc serve` (its own process) on loopback: a third read
// normally, a third read one socket read per second, a third hang up after 3 events. Samples the
// server's RSS and the engine gauges (/metrics) over time, and checks what the load test checks at
// a smaller scale: no 5xx, every reading stream completes, every hung-up stream is cancelled, and
// the engine ends idle with its KV back at the baseline.
// Usage (after the build): node dist/bench/http/stream-load-bench.js [--streams 2000] [--tokens 32]
//   [--kv-cache-mb 256] [--threads N] [--model FILE] [--read-every-ms 1000] [--json out.json]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { startServe } from '../common/svc-serve.js';
import { runStream, type StreamMode, type StreamOutcome } from './sse-load-client.js';

const KEY = 'sk-stream-load-bench-0000';

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

interface Gauges {
  running: number;
  waiting: number;
  kv: number;
  aborts: number;
}

async function gauges(url: string): Promise<Gauges> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } })).text();
  const one = (name: string, extra = ''): number => {
    let sum = 0;
    for (const line of text.split('\n')) if (line.startsWith(name + '{') && line.includes(extra)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    return sum;
  };
  return {
    running: one('vllm:num_requests_running'),
    waiting: one('vllm:num_requests_waiting'),
    kv: one('vllm:kv_cache_usage_perc'),
    aborts: one('vllm:request_success_total', 'finished_reason="abort"'),
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      streams: { type: 'string', default: '2000' },
      tokens: { type: 'string', default: '32' },
      'kv-cache-mb': { type: 'string', default: '256' },
      threads: { type: 'string' },
      model: { type: 'string' },
      'read-every-ms': { type: 'string', default: '1000' },
      json: { type: 'string' },
    },
  });
  const streams = Number(values.streams);
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-stream-load-'));
  const model = values.model ? resolve(values.model) : await ensureBuiltinModel(join(tmpdir(), 'svc-bench-models'));
  const args = ['--model', model, '--no-predict', '--data-dir', dataDir];
  args.push('--api-key', KEY, '--rate-limit-rps', '0', '--max-queue', String(streams * 2), '--kv-cache-mb', values['kv-cache-mb']!, '--log-level', 'warn');
  if (values.threads) args.push('--threads', values.threads);
  const { proc: server, port, url } = await startServe(args);
  const pid = server.pid!;
  try {
    // Warm-up, then the baselines.
    await runStream({ port, apiKey: KEY, mode: 'normal', body: { model: 'builtin', stream: true, max_tokens: 4, messages: [{ role: 'user', content: 'hi' }] } });
    const before = await gauges(url);
    const rssIdle = rssMiB(pid);
    const series: Array<{ s: number; rssMiB: number } & Gauges> = [];
    const t0 = performance.now();
    let running = true;
    const sampler = (async () => {
      while (running) {
        const g = await gauges(url).catch(() => null);
        if (g) series.push({ s: Math.round((performance.now() - t0) / 100) / 10, rssMiB: Math.round(rssMiB(pid)), ...g });
        await sleep(500);
      }
    })();

    const modes: StreamMode[] = ['normal', 'slow', 'disconnect'];
    const outcomes: StreamOutcome[] = await Promise.all(
      Array.from({ length: streams }, (_, i) => {
        const mode = modes[i % 3]!;
        return runStream({
          port,
          apiKey: KEY,
          mode,
          readEveryMs: Number(values['read-every-ms']),
          disconnectAfter: 3,
          body: {
            model: 'builtin',
            stream: true,
            // Those that hang up ask for the whole context: only a cancel ends them early.
            ...(mode === 'disconnect' ? {} : { max_tokens: Number(values.tokens) }),
            messages: [{ role: 'user', content: `Write a long story about stream ${i}.` }],
          },
        });
      }),
    );
    const clientsDoneS = (performance.now() - t0) / 1000;
    let after = await gauges(url);
    while (after.running + after.waiting > 0 && performance.now() - t0 < clientsDoneS * 1000 + 60_000) {
      await sleep(100);
      after = await gauges(url);
    }
    running = false;
    await sampler;

    const of = (m: StreamMode): StreamOutcome[] => outcomes.filter((o) => o.mode === m);
    const reading = [...of('normal'), ...of('slow')];
    const cut = of('disconnect').filter((o) => o.hungUp && !o.done && o.finishReason === null).length;
    const summary = {
      streams,
      server5xx: outcomes.filter((o) => o.status >= 500).length,
      statuses: outcomes.reduce<Record<number, number>>((m, o) => ((m[o.status] = (m[o.status] ?? 0) + 1), m), {}),
      connectionErrors: outcomes.filter((o) => o.error !== null).length,
      readingCompleted: `${reading.filter((o) => o.done).length}/${reading.length}`,
      hungUp: of('disconnect').filter((o) => o.hungUp).length,
      cancelledInEngine: after.aborts - before.aborts,
      cutMidStream: cut,
      engineAfter: { running: after.running, waiting: after.waiting, kvUsage: after.kv, kvBaseline: before.kv },
      rssIdleMiB: Math.round(rssIdle),
      rssPeakMiB: Math.max(...series.map((p) => p.rssMiB)),
      kvCacheMb: Number(values['kv-cache-mb']),
      clientsDoneS: Math.round(clientsDoneS * 10) / 10,
    };
    console.log('   s   RSS MiB  running  waiting  kv');
    for (const p of series) console.log(`${p.s.toFixed(1).padStart(5)} ${String(p.rssMiB).padStart(8)} ${String(p.running).padStart(8)} ${String(p.waiting).padStart(8)}  ${p.kv.toFixed(3)}`);
    console.log(JSON.stringify(summary, null, 2));
    if (values.json) writeFileSync(values.json, JSON.stringify({ summary, series }, null, 2));
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
