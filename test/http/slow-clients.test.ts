// Clients that hold a connection without making progress are cut: one that never reads a stream
// (our stall timeout, configurable, which aborts the handler's signal so its generation stops),
// and slowloris clients that trickle their headers or body (uWS's own timeout: about 10 s with
// a 4 s granularity, and a body must average 16 KiB/s over each such window).
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Route } from '../../src/http/types.js';
import { startTestServer, type TestServer } from './helpers.js';

let t: TestServer | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

const EVENT = 'x'.repeat(64 * 1024);

/** A socket that sends `request` and then never reads; resolves when the server closes it. */
function neverReads(port: number, request: string): { closed: Promise<void>; socket: net.Socket } {
  const socket = net.connect(port, '127.0.0.1', () => {
    socket.write(request);
    socket.pause();
  });
  socket.on('error', () => {});
  return { socket, closed: new Promise((r) => socket.once('close', () => r())) };
}

describe('slow clients', () => {
  it('a stream whose client never reads is cut after the stall timeout, and its signal aborts', async () => {
    let written = 0;
    let handlerDone!: (aborted: boolean) => void;
    const done = new Promise<boolean>((r) => (handlerDone = r));
    const route: Route = {
      method: 'GET',
      path: '/flood',
      auth: false,
      async handler(ctx) {
        const sse = ctx.sse();
        // An endless producer that awaits each write, as the chat routes do.
        while (!sse.closed) {
          await sse.send(EVENT);
          written += EVENT.length;
        }
        handlerDone(ctx.signal.aborted);
      },
    };
    t = await startTestServer([route], { streamStallTimeoutMs: 300 });
    const client = neverReads(t.port, 'GET /flood HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(await done).toBe(true);
    client.socket.resume(); // the close sits behind the unread bytes
    await client.closed;
    // It wrote until the kernel's buffers were full, then the client took nothing more.
    expect(written).toBeGreaterThan(256 * 1024);
    const cut = t.logs.find((l) => l.msg === 'connection cut');
    // Our timer cut it (uWS's own would have closed it without this reason, ~10 s later).
    expect(String(cut?.reason)).toMatch(/stall timeout 300 ms/);
  });

  it('a stream whose client reads slowly but steadily is not cut', async () => {
    const route: Route = {
      method: 'GET',
      path: '/drip',
      auth: false,
      async handler(ctx) {
        const sse = ctx.sse();
        for (let i = 0; i < 20 && !sse.closed; i++) {
          await sse.send(`event ${i}`);
          await new Promise((r) => setTimeout(r, 30));
        }
        sse.end([{ data: '[DONE]' }]);
      },
    };
    t = await startTestServer([route], { streamStallTimeoutMs: 100 });
    const res = await fetch(`${t.url}/drip`);
    const text = await res.text();
    expect(text).toContain('data: event 19');
    expect(text).toContain('data: [DONE]');
  });

  it('slowloris: trickled headers and a trickled body are cut by the server', async () => {
    let bodyFailure: unknown = null;
    const route: Route = {
      method: 'POST',
      path: '/upload',
      auth: false,
      async handler(ctx) {
        try {
          await ctx.readBody();
        } catch (e) {
          bodyFailure = e;
        }
      },
    };
    t = await startTestServer([route]);
    const port = t.port;
    const trickle = (first: string): { closed: Promise<void>; stop: () => void } => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write(first));
      socket.on('error', () => {});
      // One byte every 500 ms: each keeps the connection busy, none completes anything.
      const timer = setInterval(() => socket.writable && socket.write('a'), 500);
      const closed = new Promise<void>((r) => socket.once('close', () => r()));
      return { closed, stop: () => (clearInterval(timer), socket.destroy()) };
    };
    const headers = trickle('GET /upload HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const body = trickle('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n');
    try {
      // Both end by the server's hand (the test times out otherwise).
      await Promise.all([headers.closed, body.closed]);
    } finally {
      headers.stop();
      body.stop();
    }
    expect((bodyFailure as Error | null)?.name).toBe('ClientAbortedError');
  }, 30_000);
});
