// Rate limiting (per key, Retry-After) and graceful shutdown (drain, refuse, cut at timeout).
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Route } from '../../src/http/types.js';
import { auth, sleep, startTestServer, TEST_KEY, type TestServer } from './helpers.js';

const OTHER_KEY = 'sk-test-other-key-000000';

/** A raw keep-alive connection: send a request, collect what comes back until quiet or closed. */
async function rawKeepAlive(port: number): Promise<{ request(raw: string): Promise<{ text: string; closed: boolean }> }> {
  const s = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  let text = '';
  let closed = false;
  s.on('data', (d: Buffer) => (text += d.toString()));
  s.on('close', () => (closed = true));
  return {
    async request(raw: string) {
      text = '';
      s.write(raw);
      for (let i = 0; i < 100 && !closed; i++) await sleep(20);
      return { text, closed };
    },
  };
}

describe('rate limiting', () => {
  let t: TestServer;
  afterEach(() => t.close());

  it('429 rate_limited with Retry-After once a key spends its burst; other keys unaffected; refills', async () => {
    let now = 0;
    const routes: Route[] = [{ method: 'GET', path: '/v1/x', handler: (ctx) => ctx.json(200, {}) }];
    t = await startTestServer(routes, { apiKeys: [TEST_KEY, OTHER_KEY], rateLimit: { rps: 0.5, burst: 3 }, clock: () => now });
    for (let i = 0; i < 3; i++) expect((await fetch(`${t.url}/v1/x`, { headers: auth })).status).toBe(200);
    const r = await fetch(`${t.url}/v1/x`, { headers: auth });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('2'); // one token at 0.5/s
    const body = (await r.json()) as { error: { code: string; type: string } };
    expect(body.error.code).toBe('rate_limited');
    expect(body.error.type).toBe('rate_limit_error');
    // the x-api-key form is the same key, same bucket
    expect((await fetch(`${t.url}/v1/x`, { headers: { 'x-api-key': TEST_KEY } })).status).toBe(429);
    // another key has its own bucket
    expect((await fetch(`${t.url}/v1/x`, { headers: { authorization: `Bearer ${OTHER_KEY}` } })).status).toBe(200);
    now += 2000; // one token back
    expect((await fetch(`${t.url}/v1/x`, { headers: auth })).status).toBe(200);
    expect((await fetch(`${t.url}/v1/x`, { headers: auth })).status).toBe(429);
  });

  it('unauthenticated requests are refused before they can spend tokens', async () => {
    const routes: Route[] = [{ method: 'GET', path: '/v1/x', handler: (ctx) => ctx.json(200, {}) }];
    t = await startTestServer(routes, { rateLimit: { rps: 1, burst: 1 }, clock: () => 0 });
    expect((await fetch(`${t.url}/v1/x`)).status).toBe(401);
    expect((await fetch(`${t.url}/v1/x`, { headers: auth })).status).toBe(200);
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight stream finish, refuses new connections, then resolves', async () => {
    let produced = 0;
    const routes: Route[] = [
      {
        method: 'GET',
        path: '/v1/stream',
        handler: async (ctx) => {
          const sse = ctx.sse();
          for (let i = 0; i < 10 && !sse.closed; i++) {
            await sse.send({ i });
            produced++;
            await sleep(40);
          }
          await sse.send('[DONE]');
          sse.end();
        },
      },
    ];
    const t = await startTestServer(routes);
    // An idle keep-alive connection opened before the shutdown.
    const keepAlive = await rawKeepAlive(t.port);
    const r = await fetch(`${t.url}/v1/stream`, { headers: auth });
    const reader = r.body!.getReader();
    let text = Buffer.from((await reader.read()).value!).toString();

    const shutdown = t.server.shutdown(5000);
    await sleep(20);
    expect(t.server.draining).toBe(true);
    await expect(fetch(`${t.url}/v1/stream`, { headers: auth })).rejects.toThrow(); // listen socket closed
    // A new request on the old keep-alive connection: 503, and the server closes that connection.
    const late = await keepAlive.request(`GET /v1/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`);
    expect(late.text).toMatch(/^HTTP\/1\.1 503 /);
    expect(late.text.toLowerCase()).toContain('connection: close');
    expect(late.closed).toBe(true);

    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    expect(text).toContain('data: {"i":9}');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(await shutdown).toEqual({ aborted: 0 });
    expect(produced).toBe(10);
  });

  it('ends streams still running at the timeout with an error event, and aborts their signal', async () => {
    let signalAborted = false;
    let stopped!: () => void;
    const stoppedP = new Promise<void>((r) => (stopped = r));
    const routes: Route[] = [
      {
        method: 'GET',
        path: '/v1/forever',
        handler: async (ctx) => {
          const sse = ctx.sse();
          while (!sse.closed) {
            await sse.send({ t: Date.now() });
            await sleep(20);
          }
          signalAborted = ctx.signal.aborted;
          stopped();
        },
      },
    ];
    const t = await startTestServer(routes);
    const r = await fetch(`${t.url}/v1/forever`, { headers: auth });
    const reader = r.body!.getReader();
    await reader.read();
    const t0 = performance.now();
    const result = await t.server.shutdown(300);
    const took = performance.now() - t0;
    expect(result).toEqual({ aborted: 1 });
    expect(took).toBeGreaterThanOrEqual(290);
    expect(took).toBeLessThan(2000);
    await stoppedP;
    expect(signalAborted).toBe(true);
    // The client learns why: the stream's last event is the error (it used to be a cut connection).
    let rest = '';
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
    }
    const last = rest.trim().split('\n\n').pop()!;
    expect(JSON.parse(last.replace(/^data: /, ''))).toMatchObject({ error: { code: 'overloaded', message: expect.stringContaining('shutting down') } });
    expect(t.logs.some((l) => l.msg === 'connection cut' && String(l.reason).includes('error event'))).toBe(true);
  });

  it('resolves at once when idle', async () => {
    const t = await startTestServer([{ method: 'GET', path: '/x', auth: false, handler: (ctx) => ctx.json(200, {}) }]);
    await (await fetch(`${t.url}/x`)).text(); // leaves an idle keep-alive connection
    const t0 = performance.now();
    expect(await t.server.shutdown(5000)).toEqual({ aborted: 0 });
    expect(performance.now() - t0).toBeLessThan(200);
  });
});
