// Drives a chat endpoint by concurrency (N clients back to back) or by rate (Poisson
// arrivals), after a warm-up whose requests are not counted, and summarizes the samples.
import { cpus } from 'node:os';
import type { ChatRequestBody, ClientOptions, RequestSample } from './client.js';
import { sendStreamingChat } from './client.js';
import { poissonArrivals, seededRandom, summarize, type Summary } from './stats.js';

export type LoadShape = { kind: 'concurrency'; concurrency: number } | { kind: 'rate'; ratePerSecond: number; maxInFlight: number };

export interface ServeRunOptions {
  client: ClientOptions;
  requests: ChatRequestBody[];
  warmup: ChatRequestBody[];
  load: LoadShape;
  /** Stop issuing new requests after this many seconds (optional). */
  durationS?: number;
  /** Aborted: no more requests are issued; those in flight finish and are counted. */
  stop?: AbortSignal;
  seed: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ServeResult {
  tool: 'svc-bench';
  kind: 'serve';
  label: string;
  baseUrl: string;
  model: string;
  dataset: string;
  load: LoadShape;
  /** Failed requests the run tolerated (--max-failed; absent in results written before it). */
  maxFailed?: number;
  startedAt: string;
  machine: { cpus: number; cpuModel: string; node: string; platform: string };
  durationS: number;
  requests: { sent: number; completed: number; failed: number; errors: Record<string, number> };
  throughput: { requestsPerS: number; outputTokensPerS: number; promptTokensPerS: number };
  /** Requests actually started per second (rate mode checks against the target). */
  achievedArrivalRate: number;
  ttftMs: Summary;
  itlMs: Summary;
  tpotMs: Summary;
  e2eMs: Summary;
  /** Cached prompt tokens ÷ prompt tokens, when the server reports them; else null. */
  cachedTokenShare: number | null;
}

export function summarizeSamples(samples: RequestSample[], wallS: number): Omit<ServeResult, 'tool' | 'kind' | 'label' | 'baseUrl' | 'model' | 'dataset' | 'load' | 'startedAt' | 'machine'> {
  const ok = samples.filter((s) => s.ok);
  const errors: Record<string, number> = {};
  for (const s of samples) if (!s.ok) errors[s.error ?? 'unknown'] = (errors[s.error ?? 'unknown'] ?? 0) + 1;
  const itl: number[] = [];
  const tpot: number[] = [];
  let outTokens = 0;
  let promptTokens = 0;
  let cached = 0;
  let reportsCache = false;
  for (const s of ok) {
    for (let i = 1; i < s.chunkTimesMs.length; i++) itl.push((s.chunkTimesMs[i] as number) - (s.chunkTimesMs[i - 1] as number));
    if (s.ttftMs !== undefined && s.outputTokens > 1) tpot.push((s.e2eMs - s.ttftMs) / (s.outputTokens - 1));
    outTokens += s.outputTokens;
    promptTokens += s.promptTokens ?? 0;
    if (s.cachedTokens !== undefined) {
      reportsCache = true;
      cached += s.cachedTokens;
    }
  }
  const starts = samples.map((s) => s.startMs).sort((a, b) => a - b);
  const span = starts.length > 1 ? ((starts[starts.length - 1] as number) - (starts[0] as number)) / 1000 : 0;
  return {
    durationS: wallS,
    requests: { sent: samples.length, completed: ok.length, failed: samples.length - ok.length, errors },
    throughput: { requestsPerS: ok.length / wallS, outputTokensPerS: outTokens / wallS, promptTokensPerS: promptTokens / wallS },
    achievedArrivalRate: span > 0 ? (starts.length - 1) / span : 0,
    ttftMs: summarize(ok.flatMap((s) => (s.ttftMs === undefined ? [] : [s.ttftMs]))),
    itlMs: summarize(itl),
    tpotMs: summarize(tpot),
    e2eMs: summarize(ok.map((s) => s.e2eMs)),
    cachedTokenShare: reportsCache && promptTokens > 0 ? cached / promptTokens : null,
  };
}

export function machineInfo(): ServeResult['machine'] {
  return { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version, platform: `${process.platform}-${process.arch}` };
}

function sleepUnlessStopped(ms: number, stop: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      stop?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    stop?.addEventListener('abort', done, { once: true });
  });
}

export async function runServeLoad(opts: ServeRunOptions): Promise<{ samples: RequestSample[]; wallS: number }> {
  // Warm-up: sequential, uncounted (fills caches, JITs, connection pools).
  for (const body of opts.warmup) await sendStreamingChat(opts.client, body, performance.now());

  const samples: RequestSample[] = [];
  const total = opts.requests.length;
  const runStart = performance.now();
  const deadline = opts.durationS !== undefined ? runStart + opts.durationS * 1000 : Number.POSITIVE_INFINITY;
  const record = (s: RequestSample) => {
    samples.push(s);
    opts.onProgress?.(samples.length, total);
  };

  if (opts.load.kind === 'concurrency') {
    let next = 0;
    const worker = async () => {
      while (next < total && performance.now() < deadline && !opts.stop?.aborted) {
        const body = opts.requests[next++] as ChatRequestBody;
        record(await sendStreamingChat(opts.client, body, runStart));
      }
    };
    await Promise.all(Array.from({ length: Math.min(opts.load.concurrency, total) }, worker));
  } else {
    const arrivals = poissonArrivals(opts.load.ratePerSecond, total, seededRandom(opts.seed));
    const inFlight = new Set<Promise<void>>();
    const maxInFlight = opts.load.maxInFlight;
    for (let i = 0; i < total; i++) {
      const due = runStart + (arrivals[i] as number) * 1000;
      if (due > deadline || opts.stop?.aborted) break;
      const wait = due - performance.now();
      if (wait > 0) await sleepUnlessStopped(wait, opts.stop);
      if (opts.stop?.aborted) break;
      // An open-loop generator must not wait on the server; the in-flight cap only guards the client.
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
      const p: Promise<void> = sendStreamingChat(opts.client, opts.requests[i] as ChatRequestBody, runStart).then(record).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
  }
  return { samples, wallS: (performance.now() - runStart) / 1000 };
}
