// Pure pieces of the HTTP layer: router, SSE framing, token bucket, metrics text, auth parsing.
import { describe, expect, it } from 'vitest';
import { Router } from '../../src/http/router.js';
import { formatSseEvent } from '../../src/http/sse-writer.js';
import { RateLimiter } from '../../src/http/rate-limiter.js';
import { ApiKeyAuth, presentedKeys } from '../../src/http/auth.js';
import { Metrics } from '../../src/metrics.js';
import { createLogger } from '../../src/log.js';
import type { Route } from '../../src/http/types.js';

const h = (): void => {};
const r = (method: Route['method'], path: string): Route => ({ method, path, handler: h });

describe('Router', () => {
  const router = new Router([r('GET', '/v1/batches'), r('POST', '/v1/batches'), r('GET', '/v1/batches/:id'), r('POST', '/v1/batches/:id/cancel'), r('DELETE', '/v1/files/:file_id')]);

  it('exact paths, params, 404, 405 with every allowed method', () => {
    expect(router.match('GET', '/v1/batches')).toMatchObject({ kind: 'found', params: {} });
    expect(router.match('POST', '/v1/batches/batch_1/cancel')).toMatchObject({ kind: 'found', params: { id: 'batch_1' } });
    expect(router.match('GET', '/v1/batches/a%2Fb')).toMatchObject({ params: { id: 'a/b' } });
    expect(router.match('GET', '/v1/batches/%E0%A4%A')).toMatchObject({ params: { id: '%E0%A4%A' } });
    expect(router.match('GET', '/v1/batches//cancel').kind).toBe('not_found');
    expect(router.match('GET', '/v1/nothing').kind).toBe('not_found');
    expect(router.match('PUT', '/v1/batches')).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'POST', 'HEAD'] });
    expect(router.match('GET', '/v1/files/f1')).toEqual({ kind: 'method_not_allowed', allow: ['DELETE'] });
    // HEAD runs the GET route; not where there is no GET
    expect(router.match('HEAD', '/v1/batches/batch_1')).toMatchObject({ kind: 'found', route: { method: 'GET' }, params: { id: 'batch_1' } });
    expect(router.match('HEAD', '/v1/files/f1')).toEqual({ kind: 'method_not_allowed', allow: ['DELETE'] });
  });

  it('refuses a route registered twice', () => {
    expect(() => new Router([r('GET', '/a/:x'), r('GET', '/a/:y')])).toThrow(/registered twice/);
    expect(() => new Router([r('GET', 'nope')])).toThrow(/must start with/);
  });
});

describe('SSE framing', () => {
  it('JSON data, named events, multi-line strings', () => {
    expect(formatSseEvent({ a: 1 })).toBe('data: {"a":1}\n\n');
    expect(formatSseEvent('[DONE]')).toBe('data: [DONE]\n\n');
    expect(formatSseEvent({ type: 'ping' }, 'ping')).toBe('event: ping\ndata: {"type":"ping"}\n\n');
    expect(formatSseEvent('a\nb\r\nc')).toBe('data: a\ndata: b\ndata: c\n\n');
    // an object's line breaks are JSON escapes: one data line
    expect(formatSseEvent({ t: 'a\nb\rc\u2028' })).toBe('data: {"t":"a\\nb\\rc\u2028"}\n\n');
    expect(formatSseEvent('x', 'bad\nname')).toBe('event: badname\ndata: x\n\n');
  });
});

describe('RateLimiter', () => {
  it('burst, refill at rps, Retry-After rounded up, off at rps 0', () => {
    let now = 0;
    const l = new RateLimiter({ rps: 4, burst: 2 }, () => now);
    expect(l.take('k').ok).toBe(true);
    expect(l.take('k').ok).toBe(true);
    expect(l.take('k')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 250;
    expect(l.take('k').ok).toBe(true);
    expect(l.take('other').ok).toBe(true);
    now += 10_000;
    expect(l.take('k').ok && l.take('k').ok).toBe(true); // refill capped at burst
    expect(l.take('k').ok).toBe(false);
    const slow = new RateLimiter({ rps: 0.1, burst: 1 }, () => 0);
    slow.take('k');
    expect(slow.take('k')).toEqual({ ok: false, retryAfterSeconds: 10 });
    const off = new RateLimiter({ rps: 0, burst: 1 });
    for (let i = 0; i < 1000; i++) expect(off.take('k').ok).toBe(true);
  });
});

describe('auth', () => {
  it('parses both header forms and matches configured keys only', () => {
    expect(presentedKeys('Bearer abc', undefined)).toEqual(['abc']);
    expect(presentedKeys('  bearer   abc  ', ' xyz ')).toEqual(['abc', 'xyz']);
    expect(presentedKeys('Basic abc', undefined)).toEqual([]);
    expect(presentedKeys('Bearer a b', undefined)).toEqual([]);
    const a = new ApiKeyAuth(['sk-one-aaaaaaaa', 'sk-two-bbbbbbbb']);
    expect(a.check(['sk-two-bbbbbbbb'])).toBe(1);
    expect(a.check(['sk-one-aaaaaaa'])).toBe(-1);
    expect(a.check(['nope', 'sk-one-aaaaaaaa'])).toBe(0);
    expect(new ApiKeyAuth([]).check(['anything'])).toBe(-1);
  });

  it('remembers a key that passed, and hashes every wrong one', () => {
    const a = new ApiKeyAuth(['sk-one-aaaaaaaa', 'sk-two-bbbbbbbb']);
    expect(a.check(['sk-two-bbbbbbbb'])).toBe(1);
    expect(a.hashes).toBe(1);
    expect(a.check(['sk-two-bbbbbbbb'])).toBe(1);
    expect(a.hashes).toBe(1);
    expect(a.check(['wrong', 'sk-two-bbbbbbbb'])).toBe(1); // either header may carry it
    expect(a.hashes).toBe(3);
    for (let i = 0; i < 3; i++) expect(a.check(['sk-two-bbbbbbbX'])).toBe(-1);
    expect(a.hashes).toBe(6);
    expect(a.check(['sk-one-aaaaaaaa', 'sk-two-bbbbbbbb'])).toBe(0); // the first that matches
    expect(a.check(['sk-one-aaaaaaaa'])).toBe(0);
    expect(a.hashes).toBe(8);
  });
});

describe('metrics text', () => {
  it('counters by label set and cumulative histogram buckets', () => {
    const m = new Metrics();
    m.recordRequest('main', '/v1/x', 'GET', 200, 0.003);
    m.recordRequest('main', '/v1/x', 'GET', 200, 0.2);
    m.recordRequest('main', '/v1/x', 'GET', 500, 100);
    m.gauge('svc_queue_depth', 'Queued sequences.', () => [{ labels: { model: 'a"b' }, value: 3 }]);
    const text = m.render();
    expect(text).toContain('svc_http_requests_total{server="main",route="/v1/x",method="GET",status="200"} 2\n');
    expect(text).toContain('svc_http_requests_total{server="main",route="/v1/x",method="GET",status="500"} 1\n');
    expect(text).toContain('svc_http_request_duration_seconds_bucket{server="main",route="/v1/x",le="0.0025"} 0\n');
    expect(text).toContain('svc_http_request_duration_seconds_bucket{server="main",route="/v1/x",le="0.005"} 1\n');
    expect(text).toContain('svc_http_request_duration_seconds_bucket{server="main",route="/v1/x",le="0.25"} 2\n');
    expect(text).toContain('svc_http_request_duration_seconds_bucket{server="main",route="/v1/x",le="60"} 2\n');
    expect(text).toContain('svc_http_request_duration_seconds_bucket{server="main",route="/v1/x",le="+Inf"} 3\n');
    expect(text).toContain('svc_http_request_duration_seconds_count{server="main",route="/v1/x"} 3\n');
    expect(text).toContain('# TYPE svc_queue_depth gauge\nsvc_queue_depth{model="a\\"b"} 3\n');
    expect(() => m.counter('svc_queue_depth', 'dup')).toThrow(/twice/);
  });
});

describe('logger', () => {
  it('one JSON object per line with ts/level/msg, bound fields, errors without stacks, level filter', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', sink: (l) => lines.push(l), now: () => 0 }).child({ service: 'predict' });
    log.debug('hidden');
    log.info('hello', { n: 1, s: 'a"b' });
    log.error('failed', { error: new TypeError('boom') });
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toEqual({ ts: '1970-01-01T00:00:00.000Z', level: 'info', msg: 'hello', service: 'predict', n: 1, s: 'a"b' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'error', error: { name: 'TypeError', message: 'boom' } });
    expect(lines[1]).not.toContain('stack');
  });
});
