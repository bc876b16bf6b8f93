// SSE and streamed bodies through the real uWS server: framing, flush per event, backpressure
// with a client that stops reading, producers cancelled on disconnect, streamed downloads/uploads.
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../src/http/types.js';
import { auth, sleep, startTestServer, TEST_KEY, type TestServer } from './helpers.js';

const MiB = 1024 * 1024;

/** What the flood producer managed to hand to the server, per run. */
const flood = { accepted: 0, events: 0, closedSeen: false, signalAborted: false, done: Promise.resolve() };
const ticker = { sent: 0, closedSeen: false, signalAborted: false, done: Promise.resolve() };

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const PAD = 'p'.repeat(64 * 1024);
const gate = deferred();

const routes: Route[] = [
  { method: 'GET', path: '/open', auth: false, handler: (ctx) => ctx.json(200, { ok: true }) },
  {
    method: 'GET',
    path: '/v1/events',
    handler: async (ctx) => {
      const sse = ctx.sse();
      await sse.send({ n: 1 });
      await gate.promise; // the test opens the gate only after it has read event 1
      await sse.send('line one\nline two', 'multi');
      await sse.comment('keep-alive');
      await sse.send('[DONE]');
      sse.end();
    },
  },
  {
    method: 'GET',
    path: '/v1/flood',
    handler: async (ctx) => {
      const d = deferred();
      Object.assign(flood, { accepted: 0, events: 0, closedSeen: false, signalAborted: false, done: d.promise });
      const sse = ctx.sse();
      // Would push 2 GiB without backpressure; the writer must hold it to what the client takes.
      while (!sse.closed && flood.accepted < 2048 * MiB) {
        const ev = `{"seq":${flood.events},"pad":"${PAD}"}`;
        await sse.send(ev);
        if (sse.closed) break;
        flood.accepted += ev.length + 8;
        flood.events++;
      }
      flood.closedSeen = sse.closed;
      flood.signalAborted = ctx.signal.aborted;
      d.resolve();
    },
  },
  {
    method: 'GET',
    path: '/v1/ticker',
    handler: async (ctx) => {
      const d = deferred();
      Object.assign(ticker, { sent: 0, closedSeen: false, signalAborted: false, done: d.promise });
      const sse = ctx.sse();
      const aborted = new Promise<void>((r) => ctx.signal.addEventListener('abort', () => r()));
      while (!sse.closed && ticker.sent < 10_000) {
        await sse.send({ tick: ticker.sent++ });
        await Promise.race([sleep(10), aborted]);
      }
      ticker.closedSeen = sse.closed;
      ticker.signalAborted = ctx.signal.aborted;
      d.resolve();
    },
  },
  {
    method: 'GET',
    path: '/v1/download/:mode',
    handler: async (ctx) => {
      const total = 8 * MiB;
      const fixed = ctx.params.mode === 'fixed';
      const s = ctx.stream(200, 'application/octet-stream', fixed ? total : undefined);
      const piece = Buffer.alloc(256 * 1024);
      for (let off = 0; off < total && !s.closed; off += piece.length) {
        piece.fill(((off / piece.length) % 251) + 1);
        await s.write(Buffer.from(piece));
      }
      s.end();
    },
  },
  {
    method: 'GET',
    path: '/v1/short/:n',
    handler: async (ctx) => {
      // Promises 10 bytes, delivers n: short delivery must cut the connection, not end cleanly.
      const s = ctx.stream(200, 'text/plain', Number(ctx.params.n) === 0 ? 0 : 10);
      if (Number(ctx.params.n) > 0) await s.write('x'.repeat(Number(ctx.params.n)));
      s.end();
    },
  },
  {
    method: 'POST',
    path: '/v1/upload',
    maxBody: 16 * MiB,
    handler: async (ctx) => {
      let bytes = 0;
      const hash = createHash('sha256');
      for await (const c of ctx.bodyChunks()) {
        bytes += c.byteLength;
        hash.update(c);
        await sleep(2); // a slow consumer: the reader must pause the socket, not queue it all
      }
      ctx.json(200, { bytes, sha256: hash.digest('hex') });
    },
  },
];

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer(routes);
});
afterAll(() => t.close());

/** Raw HTTP/1.1 GET over a socket, so the test controls exactly when bytes are read. */
function rawGet(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(t.port, '127.0.0.1', () => {
      s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\n\r\n`);
      resolve(s);
    });
    s.on('error', reject);
  });
}

describe('SSE writer', () => {
  it('sends text/event-stream, event/data lines, and flushes each event at once', async () => {
    const r = await fetch(`${t.url}/v1/events`, { headers: auth });
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(r.headers.get('x-request-id')).toMatch(/^req_/);
    const reader = r.body!.getReader();
    let text = '';
    // Event 1 must reach the client while the producer is still waiting: nothing is held back.
    const first = (async () => {
      while (!text.includes('data: {"n":1}')) {
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended early');
        text += Buffer.from(value).toString();
      }
    })();
    await Promise.race([first, sleep(10_000).then(() => { throw new Error('event 1 was not flushed'); })]);
    gate.resolve();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
    }
    expect(text).toContain('data: {"n":1}\n\n');
    expect(text).toContain('event: multi\ndata: line one\ndata: line two\n\n');
    expect(text).toContain(': keep-alive\n\n');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('holds a client that stops reading to a bounded amount, while other clients are served', async () => {
    const s = await rawGet('/v1/flood');
    s.pause(); // read nothing: the kernel buffers fill, then uWS reports backpressure
    await sleep(1000);
    const stalledAt = flood.accepted;
    // Other clients are unaffected while that stream is stuck.
    const lat: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const r = await fetch(`${t.url}/open`);
      expect(r.status).toBe(200);
      await r.text();
      lat.push(performance.now() - t0);
    }
    await sleep(300);
    // Server-side bytes accepted for the stalled client: kernel socket buffers plus at most one
    // event in uWS. Without backpressure the producer would have queued up to 2 GiB by now.
    expect(flood.accepted).toBeLessThan(32 * MiB);
    expect(flood.accepted - stalledAt).toBeLessThan(2 * 66 * 1024); // no progress while stalled
    expect(Math.max(...lat)).toBeLessThan(2000); // generous: the test machine is shared
    console.log(`slow client: server accepted ${(flood.accepted / MiB).toFixed(1)} MiB while the client read nothing; /open max ${Math.max(...lat).toFixed(1)} ms`);

    // Reading again resumes the stream, in order and intact.
    let received = '';
    s.on('data', (d: Buffer) => (received += d.toString('latin1')));
    s.resume();
    while (received.length < 48 * MiB) await sleep(20);
    s.destroy(); // disconnect mid-stream: the producer must stop
    await flood.done;
    expect(flood.closedSeen).toBe(true);
    expect(flood.signalAborted).toBe(true);
    const seqs = [...received.matchAll(/"seq":(\d+)/g)].map((m) => Number(m[1]));
    expect(seqs.length).toBeGreaterThan(100);
    seqs.forEach((n, i) => expect(n).toBe(i));
  });

  it('a client that disconnects mid-stream cancels the producer (closed + signal)', async () => {
    const ac = new AbortController();
    const r = await fetch(`${t.url}/v1/ticker`, { headers: auth, signal: ac.signal });
    const reader = r.body!.getReader();
    let text = '';
    while ((text.match(/tick/g) ?? []).length < 3) text += Buffer.from((await reader.read()).value!).toString();
    ac.abort();
    const t0 = performance.now();
    await ticker.done;
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(ticker.closedSeen).toBe(true);
    expect(ticker.signalAborted).toBe(true);
    expect(ticker.sent).toBeLessThan(1000);
    await sleep(20);
    const line = t.logs.find((l) => l.path === '/v1/ticker' && l.aborted === true);
    expect(line).toBeDefined();
  });
});

describe('streamed bodies', () => {
  for (const mode of ['fixed', 'chunked']) {
    it(`downloads 8 MiB (${mode}) to a slow reader intact`, async () => {
      const r = await fetch(`${t.url}/v1/download/${mode}`, { headers: auth });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-length')).toBe(mode === 'fixed' ? String(8 * MiB) : null);
      const reader = r.body!.getReader();
      const parts: Buffer[] = [];
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parts.push(Buffer.from(value));
        if (parts.length % 16 === 0) await sleep(5);
      }
      const all = Buffer.concat(parts);
      expect(all.length).toBe(8 * MiB);
      for (let i = 0; i < 32; i++) expect(all[i * 256 * 1024 + 7]).toBe((i % 251) + 1);
    });
  }

  it('an empty fixed-length body ends cleanly; a short one cuts the connection', async () => {
    const empty = await fetch(`${t.url}/v1/short/0`, { headers: auth });
    expect(empty.headers.get('content-length')).toBe('0');
    expect(await empty.text()).toBe('');
    const full = await fetch(`${t.url}/v1/short/10`, { headers: auth });
    expect(await full.text()).toBe('x'.repeat(10));
    // Headers may or may not arrive before the cut; either way the client sees a failure.
    await expect(fetch(`${t.url}/v1/short/4`, { headers: auth }).then((r) => r.text())).rejects.toThrow();
    await sleep(20);
    expect(t.logs.some((l) => l.msg === 'connection cut' && l.path === '/v1/short/4')).toBe(true);
  });

  it('streams a 12 MiB upload to a slow consumer', async () => {
    const body = Buffer.alloc(12 * MiB);
    for (let i = 0; i < body.length; i += 4093) body[i] = (i / 4093) % 256;
    const r = await fetch(`${t.url}/v1/upload`, { method: 'POST', headers: auth, body });
    expect(await r.json()).toEqual({ bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') });
  });
});
