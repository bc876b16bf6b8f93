// The SPEC's client library (packages/client) against a whole server with --rate-limit-rps 1:
// results instead of exceptions, 429s waited out by Retry-After, network failures and timeouts
// retried within the retry count and the deadline, client errors not retried.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatModelPath } from '../chat/harness.js';
import { SvcClient } from '../../packages/client/src/index.js';
import { backoffMs, DEFAULT_RETRY, retryAfterMs } from '../../packages/client/src/retry.js';
import { KEY, startOpsServer, type OpsServer } from './helpers.js';

let s: OpsServer;
let model: string;

beforeAll(async () => {
  s = await startOpsServer([await chatModelPath()], ['--rate-limit-rps', '1', '--rate-limit-burst', '1'], { predict: true });
  model = [...s.services.models.keys()][0]!;
}, 300_000);

afterAll(async () => {
  await s?.close();
});

const CODE = 'function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n';
const UPDATE = '// ... existing code ...\nfunction sub(a, b) {\n  console.log("sub");\n  return a - b;\n}\n';

describe('client library against a rate-limited server', () => {
  it('waits out 429s by Retry-After and succeeds; apply returns the merged code', async () => {
    const svc = new SvcClient({ baseUrl: s.url, apiKey: KEY });
    const first = await svc.apply({ instruction: 'I log in sub', code: CODE, update: UPDATE });
    expect(first.success).toBe(true);
    // Two at once: the bucket holds one token, so one of them gets a 429 first.
    const t0 = Date.now();
    const both = await Promise.all([svc.apply({ code: CODE, update: UPDATE }), svc.apply({ code: CODE, update: UPDATE })]);
    const ms = Date.now() - t0;
    for (const r of both) expect(r.success).toBe(true);
    expect(Math.max(...both.map((r) => r.attempts))).toBeGreaterThan(1);
    expect(ms).toBeGreaterThanOrEqual(900); // Retry-After: 1
    for (const r of both) if (r.success) expect(r.data.code).toBe('function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  console.log("sub");\n  return a - b;\n}\n');
  }, 60_000);

  it('reports a 429 as a result, without throwing, when retries are off', async () => {
    const svc = new SvcClient({ baseUrl: s.url, apiKey: KEY, retry: { maxRetries: 0 } });
    const results = [await svc.ask(model, 'hi', { max_tokens: 2 }), await svc.ask(model, 'hi', { max_tokens: 2 })];
    const limited = results.find((r) => !r.success);
    expect(limited).toMatchObject({ success: false, status: 429, code: 'rate_limited', attempts: 1 });
  });

  it('does not retry client errors', async () => {
    const svc = new SvcClient({ baseUrl: s.url, apiKey: 'sk-wrong-key-000000' });
    expect(await svc.ask(model, 'hi')).toMatchObject({ success: false, status: 401, code: 'unauthorized', attempts: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    const good = new SvcClient({ baseUrl: s.url, apiKey: KEY });
    expect(await good.ask('no-such-model', 'hi')).toMatchObject({ success: false, status: 404, attempts: 1 });
  });

  it('predicts on the prediction service', async () => {
    const svc = new SvcClient({ baseUrl: s.url, apiKey: KEY, predictUrl: s.predictUrl! });
    const r = await svc.predict({ prompt: '{"type":3,"data":{"source":2,"type":1,"id":5}}', max_tokens: 16 });
    expect(r.success).toBe(true);
    if (r.success) expect(typeof r.data.text).toBe('string');
    const bad = await svc.predict({ prompt: 'x', temperature: 9 });
    expect(bad).toMatchObject({ success: false, status: 400, attempts: 1 });
  }, 60_000);

  it('the prediction port serves /ready and the process\'s /metrics without a key', async () => {
    expect((await fetch(`${s.predictUrl}/ready`)).status).toBe(200);
    const m = await fetch(`${s.predictUrl}/metrics`);
    expect(m.status).toBe(200);
    const text = await m.text();
    expect(text).toContain(`vllm:num_requests_running{model_name="${model}"} 0`);
    expect(text).toMatch(/svc_http_requests_total\{server="predict",route="\/v1\/predict",method="POST",status="200"\} \d+/);
  });

  it('retries refused connections with backoff, up to the retry count', async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (srv.address() as net.AddressInfo).port;
        srv.close(() => resolve(p));
      });
    });
    const svc = new SvcClient({ baseUrl: `http://127.0.0.1:${port}`, retry: { maxRetries: 3, baseDelayMs: 20 }, random: () => 0 });
    const t0 = Date.now();
    const r = await svc.ask('m', 'hi');
    expect(r).toMatchObject({ success: false, attempts: 4 });
    if (!r.success) expect(r.error).toMatch(/network error: ECONNREFUSED/);
    // Waits of 10, 20, 40 ms (equal jitter with random() = 0).
    expect(Date.now() - t0).toBeGreaterThanOrEqual(70);
  });

  it('times out a silent server per attempt and stops at the deadline', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((sock) => sockets.push(sock)); // accepts, never answers
    const port = await new Promise<number>((resolve) => silent.listen(0, '127.0.0.1', () => resolve((silent.address() as net.AddressInfo).port)));
    const svc = new SvcClient({ baseUrl: `http://127.0.0.1:${port}`, retry: { maxRetries: 10, timeoutMs: 200, deadlineMs: 700, baseDelayMs: 50 } });
    const t0 = Date.now();
    const r = await svc.ask('m', 'hi');
    const ms = Date.now() - t0;
    for (const so of sockets) so.destroy();
    silent.close();
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error).toMatch(/no response within|deadline/);
    expect(r.attempts).toBeGreaterThanOrEqual(2);
    expect(r.attempts).toBeLessThan(11);
    expect(ms).toBeLessThan(1200);
  });
});

describe('retry policy', () => {
  it('backs off exponentially with equal jitter, capped', () => {
    const p = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 5].map((i) => backoffMs(p, i, () => 0))).toEqual([50, 100, 200, 400, 500, 500]);
    expect(backoffMs(p, 2, () => 1)).toBe(400);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2', 0)).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs(null, 0)).toBeNull();
    expect(retryAfterMs('soon', 0)).toBeNull();
  });
});
