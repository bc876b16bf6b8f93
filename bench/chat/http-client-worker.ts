// The HTTP side of the chat overhead benchmark, on its own thread so that client-side SSE parsing
// does not run on the server's event loop. One message: run `concurrency` streams at once, with
// the lean socket client (keep-alive connections reused across jobs) or with fetch.
import { parentPort } from 'node:worker_threads';
import { sendStreamingChat, type ChatRequestBody } from '../../src/bench/client.js';
import { SseConnection, chatRequest, type StreamSample } from './sse-socket-client.js';

export interface ClientJob {
  host: string;
  port: number;
  apiKey: string;
  body: ChatRequestBody;
  concurrency: number;
  client: 'socket' | 'fetch';
}

export interface ClientResult {
  samples: StreamSample[];
  wallMs: number;
}

/** Keep-alive connections per server (host:port), reused across jobs. */
const pools = new Map<string, SseConnection[]>();

async function viaSocket(job: ClientJob): Promise<StreamSample[]> {
  const key = `${job.host}:${job.port}`;
  let connections = pools.get(key);
  if (!connections) pools.set(key, (connections = []));
  while (connections.length < job.concurrency) connections.push(new SseConnection(job.host, job.port));
  const request = chatRequest(job.host, job.port, job.apiKey, { ...job.body, stream: true, stream_options: { include_usage: true } });
  return Promise.all(connections.slice(0, job.concurrency).map((c) => c.stream(request)));
}

async function viaFetch(job: ClientJob): Promise<StreamSample[]> {
  const t0 = performance.now();
  const opts = { baseUrl: `http://${job.host}:${job.port}`, apiKey: job.apiKey, timeoutMs: 600_000 };
  const samples = await Promise.all(Array.from({ length: job.concurrency }, () => sendStreamingChat(opts, job.body, t0)));
  return samples.map((s) => ({
    ok: s.ok,
    ...(s.error !== undefined ? { error: s.error } : {}),
    ...(s.ttftMs !== undefined ? { ttftMs: s.ttftMs } : {}),
    chunkTimesMs: s.chunkTimesMs,
    outputTokens: s.outputTokens,
  }));
}

parentPort?.on('message', async (job: ClientJob) => {
  const t0 = performance.now();
  const samples = job.client === 'fetch' ? await viaFetch(job) : await viaSocket(job);
  const result: ClientResult = { samples, wallMs: performance.now() - t0 };
  parentPort?.postMessage(result);
});
