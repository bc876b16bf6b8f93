// Can request intake leave the one event loop? uWS apps in several threads listening on one port
// (SO_REUSEPORT: the kernel hands each new connection to one listener) share a burst's connections.
// This measures, with no engine, how a 64-request burst of requests that each cost `--work-us` of CPU
// to prepare (the chat intake is ~120 µs of loop CPU per request: docs/serving-under-load.md)
// completes with 1, 2, ... listening threads (all worker threads; the main thread is the client): per-thread connection counts and each request's time
// from its send to its answer. It bounds what moving the preparation into uWS worker threads could
// give T1 on this machine; it does not move anything itself.
// Usage: node dist/bench/http/port-sharing.js [--threads 1,2,3] [--burst 64] [--work-us 120] [--rounds 20]
import { Worker, isMainThread, parentPort, threadId, workerData } from 'node:worker_threads';
import { connect, createServer } from 'node:net';
import { parseArgs } from 'node:util';
import uWS from 'uWebSockets.js';

interface ListenerData {
  port: number;
  workUs: number;
}

/** Spins for `us` microseconds: stands for a request's preparation on its thread. */
function spin(us: number): void {
  const end = performance.now() + us / 1000;
  while (performance.now() < end) {
    // busy: the CPU cost is the point
  }
}

/** Listens on `port` and answers every request after `workUs` of CPU; resolves to the port and a closer. */
function listen(port: number, workUs: number, tag: string): Promise<{ port: number; close: () => void }> {
  return new Promise((resolve, reject) => {
    const app = uWS.App().any('/*', (res) => {
      spin(workUs);
      res.end(tag);
    });
    app.listen('127.0.0.1', port, (socket) => {
      if (!socket) return reject(new Error(`${tag}: listen on ${port} failed`));
      resolve({ port: uWS.us_socket_local_port(socket), close: () => uWS.us_listen_socket_close(socket) });
    });
  });
}

if (!isMainThread) {
  const { port, workUs } = workerData as ListenerData;
  const l = await listen(port, workUs, `t${threadId}`);
  parentPort!.postMessage('listening');
  parentPort!.once('message', () => {
    // Closing the listen socket lets the thread's loop end.
    l.close();
    parentPort!.close();
  });
}

/** One burst: `n` connections opened at once, one request each; per request ms from send to answer, and who answered. */
function burst(port: number, n: number): Promise<Array<{ ms: number; by: string }>> {
  return Promise.all(
    Array.from({ length: n }, () =>
      new Promise<{ ms: number; by: string }>((resolve, reject) => {
        const s = connect(port, '127.0.0.1');
        s.setNoDelay(true);
        let t0 = 0;
        let buf = '';
        s.on('connect', () => {
          t0 = performance.now();
          s.write('GET /x HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
        });
        s.on('data', (d) => (buf += d.toString()));
        s.on('end', () => resolve({ ms: performance.now() - t0, by: buf.slice(buf.lastIndexOf('\r\n\r\n') + 4) }));
        s.on('error', reject);
      }),
    ),
  );
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor(s.length / 2)]!;
}

/** A port free right now: uWS sets SO_REUSEPORT only when it is given a port, not for port 0. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function run(threads: number, n: number, workUs: number, rounds: number): Promise<void> {
  // Every listener is a worker thread; this thread is only the client, so its own work does not sit
  // on a listener's loop.
  const port = await freePort();
  const workers: Worker[] = [];
  for (let i = 0; i < threads; i++) {
    const w = new Worker(new URL(import.meta.url), { workerData: { port, workUs } satisfies ListenerData });
    await new Promise<void>((r, j) => {
      w.once('message', () => r());
      w.once('error', j);
    });
    workers.push(w);
  }
  const p50s: number[] = [];
  const maxes: number[] = [];
  const by = new Map<string, number>();
  for (let r = 0; r < rounds; r++) {
    const out = await burst(port, n);
    p50s.push(median(out.map((o) => o.ms)));
    maxes.push(Math.max(...out.map((o) => o.ms)));
    for (const o of out) by.set(o.by, (by.get(o.by) ?? 0) + 1);
  }
  for (const w of workers) {
    w.postMessage('close');
    await new Promise((r) => w.once('exit', r));
  }
  const share = [...by.values()].sort((a, b) => b - a).join(' / ');
  console.log(`| ${threads} | ${n} | ${workUs} | ${median(p50s).toFixed(2)} | ${median(maxes).toFixed(2)} | ${share} |`);
}

if (isMainThread) {
  const { values } = parseArgs({
    options: {
      threads: { type: 'string', default: '1,2,3' },
      burst: { type: 'string', default: '64' },
      'work-us': { type: 'string', default: '120' },
      rounds: { type: 'string', default: '20' },
    },
  });
  console.log('| listening threads | burst | work µs per request | send → answer p50, ms (median over rounds) | slowest, ms (median) | requests answered per thread |');
  console.log('|---|---|---|---|---|---|');
  for (const t of values.threads.split(',').map(Number)) await run(t, Number(values.burst), Number(values['work-us']), Number(values.rounds));
}
