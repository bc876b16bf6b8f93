// The serving benchmark against real HTTP servers: statistics on known inputs, the arrival
// rate of rate mode, and servers that fail (errors and dropped connections are reported).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadDataset } from '../../src/bench/datasets.js';
import { benchServe, command as benchCommand } from '../../src/cli/bench.js';
import { markdownTable, svgChart } from '../../src/bench/report.js';
import { runServeLoad, summarizeSamples, machineInfo, type ServeResult } from '../../src/bench/serve-load.js';
import { percentileSorted, poissonArrivals, seededRandom, summarize } from '../../src/bench/stats.js';

function chunk(content: string | null, extra: Record<string, unknown> = {}): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: content === null ? [] : [{ index: 0, delta: { content }, finish_reason: null }], ...extra })}\n\n`;
}

/** A small OpenAI-style streaming server whose behaviour depends on the request number. */
function startServer(behaviour: (n: number) => 'ok' | 'error' | 'drop'): Promise<{ server: Server; url: string }> {
  let n = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'chat-m', object: 'model', kind: 'chat' }, { id: 'apply-m', object: 'model', kind: 'apply' }] }));
      return;
    }
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const mode = behaviour(n++);
      if (mode === 'error') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'internal_error', message: 'boom' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk(''));
      res.write(chunk('hello'));
      if (mode === 'drop') {
        res.socket?.destroy();
        return;
      }
      setTimeout(() => {
        res.write(chunk(' world'));
        res.write(chunk(null, { usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, prompt_tokens_details: { cached_tokens: 4 } } }));
        res.end('data: [DONE]\n\n');
      }, 5);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })));
}

describe('statistics', () => {
  it('percentiles interpolate between closest ranks (numpy linear)', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    const s = summarize(v.slice().reverse());
    expect(s.p50).toBeCloseTo(50.5, 10);
    expect(s.p90).toBeCloseTo(90.1, 10);
    expect(s.p99).toBeCloseTo(99.01, 10);
    expect(s.mean).toBeCloseTo(50.5, 10);
    expect([s.min, s.max, s.count]).toEqual([1, 100, 100]);
    expect(percentileSorted([7], 0.99)).toBe(7);
    expect(percentileSorted([1, 3], 0.25)).toBeCloseTo(1.5, 10);
    expect(Number.isNaN(summarize([]).p50)).toBe(true);
  });

  it('poisson arrivals have the requested mean rate', () => {
    const t = poissonArrivals(20, 5000, seededRandom(3));
    const rate = (t.length - 1) / (t[t.length - 1] as number);
    expect(rate).toBeGreaterThan(19);
    expect(rate).toBeLessThan(21);
  });

  it('datasets are deterministic for a seed', () => {
    const a = loadDataset({ kind: 'shared-prefix', prefixes: 2, suffixesPerPrefix: 3, prefixTokens: 50, suffixTokens: 5, outputTokens: 8 }, 'm', 6, 9);
    const b = loadDataset({ kind: 'shared-prefix', prefixes: 2, suffixesPerPrefix: 3, prefixTokens: 50, suffixTokens: 5, outputTokens: 8 }, 'm', 6, 9);
    expect(a).toEqual(b);
    expect(a[0]?.messages[0]?.content).toBe(a[2]?.messages[0]?.content);
  });
});

describe('against a streaming server', () => {
  let ok: { server: Server; url: string };
  let flaky: { server: Server; url: string };
  beforeAll(async () => {
    ok = await startServer(() => 'ok');
    flaky = await startServer((n) => (n % 3 === 0 ? 'error' : n % 3 === 1 ? 'drop' : 'ok'));
  });
  afterAll(() => {
    ok.server.close();
    flaky.server.close();
  });

  it('rate mode issues requests at the requested arrival rate', async () => {
    const requests = loadDataset({ kind: 'synthetic', inputTokens: 8, outputTokens: 4, spread: 0 }, 'm', 60, 1);
    const { samples, wallS } = await runServeLoad({ client: { baseUrl: ok.url, timeoutMs: 10_000 }, requests, warmup: [], load: { kind: 'rate', ratePerSecond: 40, maxInFlight: 64 }, seed: 5 });
    const summary = summarizeSamples(samples, wallS);
    expect(summary.requests.completed).toBe(60);
    // The schedule itself is Poisson with mean 40/s; the achieved rate tracks the schedule.
    const scheduled = poissonArrivals(40, 60, seededRandom(5));
    const scheduledRate = 59 / (scheduled[59] as number);
    expect(summary.achievedArrivalRate).toBeGreaterThan(scheduledRate * 0.8);
    expect(summary.achievedArrivalRate).toBeLessThan(scheduledRate * 1.2);
    expect(summary.ttftMs.count).toBe(60);
    expect(summary.cachedTokenShare).toBeCloseTo(0.4, 5);
    expect(summary.throughput.outputTokensPerS).toBeGreaterThan(0);
  });

  it('svc bench serve picks the listed model of the dataset\'s kind when --model is not given', async () => {
    const run = (dataset: string) => benchServe(['--base-url', ok.url, '--dataset', dataset, '--requests', '2', '--warmup', '0']);
    expect((await run('apply:20')).model).toBe('apply-m');
    expect((await run('synthetic:8:4')).model).toBe('chat-m');
  });

  it('svc bench serve exits 1 when every request failed, 3 past --max-failed, and 2 naming the cause when the server cannot be reached', async () => {
    const failing = await startServer(() => 'error');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const logs = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const common = ['--dataset', 'synthetic:8:4', '--requests', '2', '--warmup', '0'];
      expect(await benchCommand.run(['serve', '--base-url', failing.url, ...common])).toBe(1);
      expect(errors.mock.calls.flat().join('\n')).toContain('all 2 requests failed');
      expect(await benchCommand.run(['serve', '--base-url', ok.url, ...common])).toBe(0);
      // Some failed: 3 unless --max-failed tolerates them.
      errors.mockClear();
      const six = ['--dataset', 'synthetic:8:4', '--requests', '6', '--warmup', '0'];
      expect(await benchCommand.run(['serve', '--base-url', flaky.url, ...six])).toBe(3);
      expect(errors.mock.calls.flat().join('\n')).toMatch(/svc bench serve: [1-6] of 6 requests failed \(more than --max-failed 0\)/);
      expect(await benchCommand.run(['serve', '--base-url', flaky.url, ...six, '--max-failed', '6'])).toBe(0);
      expect(await benchCommand.run(['serve', '--base-url', flaky.url, ...six, '--max-failed', '-1'])).toBe(2);
      // A port nothing listens on (and no client holds a connection to).
      const probe = createServer();
      await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
      const closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/v1`;
      await new Promise((r) => probe.close(r));
      errors.mockClear();
      expect(await benchCommand.run(['serve', '--base-url', closedUrl, ...common])).toBe(2);
      expect(errors.mock.calls.flat().join('\n')).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/models: .*ECONNREFUSED/);
      errors.mockClear();
      expect(await benchCommand.run(['serve', '--base-url', ok.url, '--rate', '5', '--concurrency', '2'])).toBe(2);
      expect(errors.mock.calls.flat().join('\n')).toContain('exclude each other');
      errors.mockClear();
      expect(await benchCommand.run(['serve', '--base-url', 'not a url'])).toBe(2);
      expect(errors.mock.calls.flat().join('\n')).toContain('--base-url: ');
    } finally {
      errors.mockRestore();
      logs.mockRestore();
      failing.server.close();
    }
  });

  it('stops issuing requests once stopped, counting those in flight (Ctrl-C in svc bench serve)', async () => {
    const requests = loadDataset({ kind: 'synthetic', inputTokens: 8, outputTokens: 4, spread: 0 }, 'm', 500, 1);
    for (const load of [{ kind: 'concurrency', concurrency: 3 } as const, { kind: 'rate', ratePerSecond: 200, maxInFlight: 8 } as const]) {
      const stop = new AbortController();
      const { samples } = await runServeLoad({
        client: { baseUrl: ok.url, timeoutMs: 10_000 },
        requests,
        warmup: [],
        load,
        seed: 1,
        stop: stop.signal,
        onProgress: (done) => {
          if (done === 5) stop.abort();
        },
      });
      expect(samples.length).toBeGreaterThanOrEqual(5);
      expect(samples.length).toBeLessThan(500);
      expect(samples.every((x) => x.ok)).toBe(true);
    }
  });

  it('reports errors and dropped connections without crashing', async () => {
    const requests = loadDataset({ kind: 'synthetic', inputTokens: 8, outputTokens: 4, spread: 0 }, 'm', 9, 1);
    const { samples, wallS } = await runServeLoad({ client: { baseUrl: flaky.url, timeoutMs: 10_000 }, requests, warmup: [], load: { kind: 'concurrency', concurrency: 3 }, seed: 1 });
    const summary = summarizeSamples(samples, wallS);
    expect(summary.requests.sent).toBe(9);
    expect(summary.requests.completed).toBe(3);
    expect(summary.requests.failed).toBe(6);
    const errors = Object.keys(summary.requests.errors).join('\n');
    expect(errors).toMatch(/HTTP 500/);
    expect(errors).toMatch(/without \[DONE\]|fetch failed|terminated|socket|other side closed/i);
    const result: ServeResult = { tool: 'svc-bench', kind: 'serve', label: 'flaky', baseUrl: flaky.url, model: 'm', dataset: 'synthetic', load: { kind: 'concurrency', concurrency: 3 }, startedAt: '', machine: machineInfo(), ...summary };
    expect(markdownTable([result])).toContain('| flaky | c=3 | 3/9 |');
    expect(svgChart([result])).toMatch(/^<svg[\s\S]*<\/svg>$/);
  });
});
