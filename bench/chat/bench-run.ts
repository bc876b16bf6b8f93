// Pieces the chat benches share: the prompt they stream, a run of the HTTP client thread, and the
// main thread's CPU clock.
import { readFileSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import type { ClientJob, ClientResult } from './http-client-worker.js';

/** The chat every chat bench sends. */
export const BENCH_MESSAGES = [{ role: 'user', content: 'Write a short paragraph about the sea.' }];

/** CPU time of this (the main) thread in ms, from /proc (ns resolution); NaN where there is none. */
export function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** Runs one job on the client thread (http-client-worker.js); rejects if any stream failed. */
export function runClientJob(worker: Worker, job: ClientJob): Promise<ClientResult> {
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m: ClientResult) => {
      worker.off('error', reject);
      const bad = m.samples.find((s) => !s.ok);
      if (bad) return reject(new Error(`HTTP stream failed: ${bad.error}`));
      resolve(m);
    });
    worker.postMessage(job);
  });
}
