// A worker thread's /health prober: one keep-alive socket, a request every `everyMs` (sooner when
// the last answer took longer), samples handed to the parent thread on each message it sends.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { parentPort } from 'node:worker_threads';

/** This thread's time runnable without a core so far, ms (schedstat's second field). */
function waitedMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Values per sample in what probeHealth posts. */
export const PROBE_STRIDE = 3;

/** Runs in a worker thread; posts [sentAt (timeOrigin-based ms), latency ms, ms this prober
 *  thread itself waited for a core during the probe, ...] when asked. */
export function probeHealth(port: number, everyMs: number): void {
  const samples: number[] = [];
  let waited0 = 0;
  const s = connect(port, '127.0.0.1');
  s.setNoDelay(true);
  let buf: Buffer = Buffer.alloc(0);
  let sentAt = 0;
  const send = (): void => {
    sentAt = performance.now();
    waited0 = waitedMs();
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
    samples.push(performance.timeOrigin + sentAt, now - sentAt, waitedMs() - waited0);
    setTimeout(send, Math.max(0, everyMs - (now - sentAt)));
  });
  parentPort!.on('message', () => parentPort!.postMessage(samples.splice(0)));
}
