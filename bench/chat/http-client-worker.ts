// The HTTP side of the chat overhead benchmark, on its own thread so that client-side SSE parsing
// does not run on the server's event loop. One message: run `concurrency` streams at once.
import { parentPort } from 'node:worker_threads';
import { sendStreamingChat, type ChatRequestBody } from '../../src/bench/client.js';

export interface ClientJob {
  baseUrl: string;
  apiKey: string;
  body: ChatRequestBody;
  concurrency: number;
}

parentPort?.on('message', async (job: ClientJob) => {
  const t0 = performance.now();
  const samples = await Promise.all(
    Array.from({ length: job.concurrency }, () => sendStreamingChat({ baseUrl: job.baseUrl, apiKey: job.apiKey, timeoutMs: 600_000 }, job.body, t0)),
  );
  parentPort?.postMessage({ samples, wallMs: performance.now() - t0 });
});
