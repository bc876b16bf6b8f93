// A worker thread's /health prober: one keep-alive socket, a request every `everyMs` (sooner when
// the last answer took longer), samples handed to the parent thread on each message it sends.
import { connect } from 'node:net';
import { parentPort } from 'node:worker_threads';

/** Runs in a worker thread; posts [sentAt (timeOrigin-based ms), latency ms, ...] when asked. */
export function probeHealth(port: number, everyMs: number): void {
  const samples: number[] = [];
  const s = connect(port, '127.0.0.1');
  s.setNoDelay(true);
  let buf: Buffer = Buffer.alloc(0);
  let sentAt = 0;
  const send = (): void => {
    sentAt = performance.now();
    s.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  };
  s.on('connect', send);
  s.on('data', (d: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, d]) : d;
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const len = Number(/\r\ncontent-length:\s*(\d+)/i.exec(buf.subarray(0, end).toString('latin1'))?.[1] ?? 0);
    if (buf.length < end + 4 + len) return;
    buf = buf.subarray(end + 4 + len);
    const now = performance.now();
    samples.push(performance.timeOrigin + sentAt, now - sentAt);
    setTimeout(send, Math.max(0, everyMs - (now - sentAt)));
  });
  parentPort!.on('message', () => parentPort!.postMessage(samples.splice(0)));
}
