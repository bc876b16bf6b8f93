// Posts `n` tick messages spaced `intervalMs` apart (busy-waiting in short Atomics.wait naps), so
// that the receiving thread sleeps between ticks and is woken for each one, as the engine wakes
// the event loop for each token.
import { parentPort } from 'node:worker_threads';

const nap = new Int32Array(new SharedArrayBuffer(4));
parentPort?.on('message', ({ n, intervalMs }: { n: number; intervalMs: number }) => {
  let next = performance.now();
  for (let i = 0; i < n; i++) {
    next += intervalMs;
    while (performance.now() < next) Atomics.wait(nap, 0, 0, 0.05);
    parentPort?.postMessage(i);
  }
});
