// The HTTP layer against a real uWS server: routing, auth, limits, envelopes, request ids, logs.
import { request } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError } from '../../src/errors.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import type { Route } from '../../src/http/types.js';
import { auth, sleep, startTestServer, TEST_KEY, type TestServer } from './helpers.js';

const routes: Route[] = [
  { method: 'GET', path: '/open', auth: false, handler: (ctx) => ctx.json(200, { ok: true }) },
  { method: 'GET', path: '/v1/things/:id', handler: (ctx) => ctx.json(200, { id: ctx.params.id, q: ctx.query.get('q') }) },
  { method: 'DELETE', path: '/v1/things/:id', handler: (ctx) => ctx.json(200, { deleted: ctx.params.id }) },
  {
    method: 'POST',
    path: '/v1/echo',
    handler: async (ctx) => {
      const body = await ctx.readJson();
      ctx.json(200, { body, header: ctx.header('X-Custom') ?? null });
    },
  },
  {
    method: 'POST',
    path: '/v1/small',
    maxBody: 1024,
    handler: async (ctx) => {
      const buf = await ctx.readBody();
      ctx.json(200, { bytes: buf.byteLength });
    },
  },
  {
    method: 'POST',
    path: '/v1/messages-like',
    errorFormat: 'anthropic',
    handler: async (ctx) => {
      await ctx.readJson();
      throw apiError('invalid_field', { field: 'messages', problem: 'required' }, 'messages');
    },
  },
  {
    method: 'POST',
    path: '/v1/messages-like/busy',
    errorFormat: 'anthropic',
    handler: () => {
      throw apiError('queue_full', { waiting: 1 });
    },
  },
  {
    method: 'POST',
    path: '/v1/openai-busy',
    handler: () => {
      throw apiError('queue_full', { waiting: 1 });
    },
  },
  { method: 'POST', path: '/predict-like', auth: false, errorFormat: 'predict', handler: async (ctx) => void (await ctx.readJson(), ctx.json(200, {})) },
  {
    method: 'GET',
    path: '/v1/boom',
    handler: async () => {
      await sleep(1);
      throw new Error('secret internal detail');
    },
  },
  { method: 'GET', path: '/v1/boom-sync', handler: () => { throw new TypeError('sync failure'); } },
  { method: 'GET', path: '/v1/silent', handler: () => {} },
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer(routes);
});
afterAll(() => t.close());

describe('routing', () => {
  it('matches path parameters and query', async () => {
    const r = await fetch(`${t.url}/v1/things/a%20b?q=1`, { headers: auth });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ id: 'a b', q: '1' });
  });

  it('404 not_found in the envelope for unknown paths', async () => {
    const r = await fetch(`${t.url}/v1/nope`, { headers: auth });
    expect(r.status).toBe(404);
    const body = (await r.json()) as { error: { code: string; message: string; type: string } };
    expect(body.error.code).toBe('not_found');
    expect(body.error.type).toBe('not_found_error');
    expect(typeof body.error.message).toBe('string');
  });

  it('405 with Allow for a known path and a wrong method', async () => {
    const r = await fetch(`${t.url}/v1/things/x`, { method: 'PUT', headers: auth });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, DELETE, HEAD');
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('method_not_allowed');
  });

  it('answers HEAD on GET routes with the head alone, Content-Length as GET would send', async () => {
    const get = await fetch(`${t.url}/v1/things/abc`, { headers: auth });
    const getBody = await get.text();
    const head = await fetch(`${t.url}/v1/things/abc`, { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getBody)));
    expect(head.headers.get('x-request-id')).toBeTruthy();
    expect(await head.text()).toBe('');
    // errors too: no key is 401 with no body; the connection stays usable
    const unauthorized = await fetch(`${t.url}/v1/things/abc`, { method: 'HEAD' });
    expect(unauthorized.status).toBe(401);
    expect(await unauthorized.text()).toBe('');
    expect((await fetch(`${t.url}/open`, { method: 'HEAD' })).status).toBe(200);
    // a POST-only path does not take HEAD
    const post = await fetch(`${t.url}/v1/echo`, { method: 'HEAD', headers: auth });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('POST');
  });
});

describe('listen', () => {
  it('refuses a port another server already listens on, instead of sharing it', async () => {
    // A port picked by the caller (uWS's SO_REUSEPORT would let two servers share such a port;
    // ephemeral port 0 never shows it).
    const port = await freePort();
    const make = (name: string) => createHttpServer({ name, routes, logger: createLogger({ level: 'silent' }), apiKeys: [TEST_KEY], maxBody: 1024 });
    const first = make('first');
    const second = make('second');
    try {
      expect(await first.listen('127.0.0.1', port)).toBe(port);
      await expect(second.listen('127.0.0.1', port)).rejects.toThrow(/address in use/);
    } finally {
      await first.shutdown(1000);
      await second.shutdown(1000);
    }
  });
});

describe('auth', () => {
  it('401 unauthorized without a key', async () => {
    const r = await fetch(`${t.url}/v1/things/1`);
    expect(r.status).toBe(401);
    const body = (await r.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('unauthorized');
    expect(body.error.message).toMatch(/missing/);
  });

  it('401 with a wrong key, in either header form', async () => {
    const forms: Array<Record<string, string>> = [{ authorization: 'Bearer sk-wrong' }, { 'x-api-key': 'sk-wrong' }, { authorization: TEST_KEY }];
    for (const headers of forms) {
      const r = await fetch(`${t.url}/v1/things/1`, { headers });
      expect(r.status).toBe(401);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    }
  });

  it('accepts Authorization: Bearer and x-api-key', async () => {
    expect((await fetch(`${t.url}/v1/things/1`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(200);
    expect((await fetch(`${t.url}/v1/things/1`, { headers: { authorization: `bearer ${TEST_KEY}` } })).status).toBe(200);
    expect((await fetch(`${t.url}/v1/things/1`, { headers: { 'x-api-key': TEST_KEY } })).status).toBe(200);
    // both sent, one wrong: the valid one authenticates
    expect((await fetch(`${t.url}/v1/things/1`, { headers: { authorization: 'Bearer sk-wrong', 'x-api-key': TEST_KEY } })).status).toBe(200);
  });

  it('routes with auth: false need no key', async () => {
    expect((await fetch(`${t.url}/open`)).status).toBe(200);
  });

  it('never logs the key', () => {
    expect(JSON.stringify(t.logs)).not.toContain(TEST_KEY);
  });
});

describe('bodies', () => {
  it('parses JSON and reads headers', async () => {
    const r = await fetch(`${t.url}/v1/echo`, { method: 'POST', headers: { ...auth, 'x-custom': 'v' }, body: JSON.stringify({ a: [1, 2] }) });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ body: { a: [1, 2] }, header: 'v' });
  });

  it('400 invalid_request_error on malformed JSON, and on an empty body', async () => {
    for (const body of ['{"a":', '']) {
      const r = await fetch(`${t.url}/v1/echo`, { method: 'POST', headers: auth, body });
      expect(r.status).toBe(400);
      const e = (await r.json()) as { error: { code: string; message: string } };
      expect(e.error.code).toBe('invalid_request_error');
    }
  });

  it('413 request_too_large from Content-Length, before reading', async () => {
    const r = await fetch(`${t.url}/v1/small`, { method: 'POST', headers: auth, body: 'x'.repeat(2000) });
    expect(r.status).toBe(413);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('request_too_large');
    // the keep-alive connection still works afterwards
    const ok = await fetch(`${t.url}/v1/small`, { method: 'POST', headers: auth, body: 'x'.repeat(1000) });
    expect(await ok.json()).toEqual({ bytes: 1000 });
  });

  it('413 while streaming a chunked body past the limit', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${t.url}/v1/small`, { method: 'POST', headers: { ...auth, 'transfer-encoding': 'chunked' } }, (res) => {
        let b = '';
        res.on('data', (d) => (b += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
      });
      req.on('error', reject);
      for (let i = 0; i < 8; i++) req.write('y'.repeat(512));
      req.end();
    });
    expect(status).toBe(413);
    expect((JSON.parse(body) as { error: { code: string } }).error.code).toBe('request_too_large');
  });

  it('a chunked body under the limit is read whole', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const req = request(`${t.url}/v1/small`, { method: 'POST', headers: { ...auth, 'transfer-encoding': 'chunked' } }, (res) => {
        let b = '';
        res.on('data', (d) => (b += d));
        res.on('end', () => resolve(b));
      });
      req.on('error', reject);
      req.write('a'.repeat(300));
      setTimeout(() => req.end('b'.repeat(300)), 20);
    });
    expect(JSON.parse(body)).toEqual({ bytes: 600 });
  });
});

describe('error envelopes', () => {
  it('anthropic routes: {type:"error", error:{type, code, message}, request_id}', async () => {
    const r = await fetch(`${t.url}/v1/messages-like`, { method: 'POST', headers: { 'x-api-key': TEST_KEY }, body: '{}' });
    expect(r.status).toBe(400);
    const body = (await r.json()) as { type: string; error: { type: string; code: string; message: string }; request_id: string };
    expect(body.type).toBe('error');
    expect(body.error).toEqual({ type: 'invalid_request_error', code: 'invalid_request_error', message: 'messages: required' });
    expect(body.request_id).toBe(r.headers.get('request-id'));
  });

  it('anthropic routes answer overloaded_error with 529 (503 elsewhere), and unrouted requests under them in their envelope', async () => {
    const busy = await fetch(`${t.url}/v1/messages-like/busy`, { method: 'POST', headers: { 'x-api-key': TEST_KEY }, body: '{}' });
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([529, '1']);
    expect(((await busy.json()) as { error: { type: string } }).error.type).toBe('overloaded_error');
    expect((await fetch(`${t.url}/v1/openai-busy`, { method: 'POST', headers: auth, body: '{}' })).status).toBe(503);
    // A wrong method, a trailing slash or a deeper path than the route: its envelope, not the default.
    for (const [method, path, status] of [['GET', '/v1/messages-like', 405], ['POST', '/v1/messages-like/', 404], ['POST', '/v1/messages-like/x/y', 404]] as const) {
      const r = await fetch(`${t.url}${path}`, { method, headers: { 'x-api-key': TEST_KEY }, ...(method === 'POST' ? { body: '{}' } : {}) });
      const body = (await r.json()) as { type?: string; error: { type: string } };
      expect([path, r.status, body.type]).toEqual([path, status, 'error']);
    }
    // Paths that only share a prefix of characters, not of segments, keep the default.
    const other = (await (await fetch(`${t.url}/v1/messages-likewise`, { headers: auth })).json()) as Record<string, unknown>;
    expect(other.type).toBeUndefined();
  });

  it('predict routes: {detail}', async () => {
    const r = await fetch(`${t.url}/predict-like`, { method: 'POST', body: 'nope' });
    expect(r.status).toBe(400);
    const body = (await r.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['detail']);
  });

  it('openai errors carry type and param', async () => {
    const r = await fetch(`${t.url}/v1/echo`, { method: 'POST', headers: auth, body: '[' });
    const body = (await r.json()) as { error: Record<string, unknown> };
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error).toHaveProperty('param', null);
  });

  it('a handler that throws gets 500 internal_error without internals, and an error log line', async () => {
    for (const path of ['/v1/boom', '/v1/boom-sync', '/v1/silent']) {
      const r = await fetch(`${t.url}${path}`, { headers: auth });
      expect(r.status).toBe(500);
      const text = await r.text();
      expect(text).not.toContain('secret');
      expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe('internal_error');
    }
    expect(t.logs.filter((l) => l.level === 'error' && l.msg === 'handler failed').length).toBeGreaterThanOrEqual(3);
    // and the server is still up
    expect((await fetch(`${t.url}/open`)).status).toBe(200);
  });
});

describe('request ids and access logs', () => {
  it('every response carries x-request-id and request-id; a sane incoming id is kept', async () => {
    const a = await fetch(`${t.url}/v1/nope`);
    expect(a.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(a.headers.get('request-id')).toBe(a.headers.get('x-request-id'));
    const b = await fetch(`${t.url}/open`, { headers: { 'x-request-id': 'client-id-1' } });
    expect(b.headers.get('x-request-id')).toBe('client-id-1');
    const c = await fetch(`${t.url}/open`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(c.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('one access line per request with the documented fields', async () => {
    const r = await fetch(`${t.url}/v1/things/42?secret=1`, { headers: auth });
    const id = r.headers.get('x-request-id');
    await r.text();
    const lines = t.logs.filter((l) => l.request_id === id);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({ level: 'info', method: 'GET', path: '/v1/things/42', status: 200 });
    expect(typeof line.ts).toBe('string');
    expect(typeof line.ms).toBe('number');
    expect(line.bytes).toBe(Buffer.byteLength(JSON.stringify({ id: '42', q: null })));
  });

  it('metrics count by route pattern and status', () => {
    const text = t.metrics.render();
    expect(text).toMatch(/svc_http_requests_total\{server="test",route="\/v1\/things\/:id",method="GET",status="200"\} \d+/);
    expect(text).toMatch(/svc_http_requests_total\{server="test",route="unmatched",method="GET",status="404"\} \d+/);
    expect(text).toMatch(/svc_http_request_duration_seconds_bucket\{server="test",route="\/v1\/things\/:id",le="\+Inf"\} \d+/);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
