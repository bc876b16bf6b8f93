// GET /metrics of a whole server under load: the vLLM / Gateway API Inference Extension series
// exist with model_name, the gauges rise while requests run and wait and return to 0 after, and
// the counters and histograms agree with what the clients were answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatModelPath } from '../chat/harness.js';
import { scrape, startOpsServer, sumOf, valueOf, sleep, type OpsServer } from './helpers.js';

let s: OpsServer;
let model: string;

beforeAll(async () => {
  s = await startOpsServer([await chatModelPath()]);
  model = [...s.services.models.keys()][0]!;
}, 300_000);

afterAll(async () => {
  await s?.close();
});

const GAUGES = ['vllm:num_requests_running', 'vllm:num_requests_waiting', 'vllm:kv_cache_usage_perc', 'vllm:gpu_cache_usage_perc'];
const COUNTERS = ['vllm:prompt_tokens_total', 'vllm:generation_tokens_total', 'vllm:prefix_cache_queries_total', 'vllm:prefix_cache_hits_total', 'vllm:num_preemptions_total', 'vllm:request_success_total'];
const HISTOGRAMS = ['vllm:time_to_first_token_seconds', 'vllm:inter_token_latency_seconds', 'vllm:e2e_request_latency_seconds', 'vllm:request_queue_time_seconds'];

describe('engine metrics on GET /metrics', () => {
  it('names every series with its type and the model_name label, idle gauges at 0', async () => {
    const { samples, types } = await scrape(s.url);
    for (const g of GAUGES) {
      expect(types.get(g), g).toBe('gauge');
      expect(valueOf(samples, g, { model_name: model }), g).toBe(0);
    }
    for (const c of COUNTERS) expect(types.get(c), c).toBe('counter');
    for (const h of HISTOGRAMS) expect(types.get(h), h).toBe('histogram');
    expect(valueOf(samples, 'vllm:num_preemptions_total', { model_name: model })).toBe(0);
    expect(types.get('svc_batches')).toBe('gauge');
    expect(valueOf(samples, 'svc_batches', { status: 'in_progress' })).toBe(0);
  });

  it('gauges follow the engine under load, then return to 0; counters and histograms add up', async () => {
    const before = (await scrape(s.url)).samples;
    const N = 80; // more than the engine's 64 running sequences: some wait
    let maxRunning = 0;
    let maxWaiting = 0;
    let maxKv = 0;
    let done = false;
    const poll = (async () => {
      while (!done) {
        const { samples } = await scrape(s.url);
        maxRunning = Math.max(maxRunning, valueOf(samples, 'vllm:num_requests_running', { model_name: model }) ?? 0);
        maxWaiting = Math.max(maxWaiting, valueOf(samples, 'vllm:num_requests_waiting', { model_name: model }) ?? 0);
        maxKv = Math.max(maxKv, valueOf(samples, 'vllm:kv_cache_usage_perc', { model_name: model }) ?? 0);
        await sleep(10);
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        s.openai.chat.completions.create({ model, messages: [{ role: 'user', content: `Count to ten, please (${i % 4}).` }], max_tokens: 48, temperature: 0 }),
      ),
    );
    done = true;
    await poll;
    expect(maxRunning).toBeGreaterThan(1);
    expect(maxRunning).toBeLessThanOrEqual(64);
    expect(maxWaiting).toBeGreaterThan(0);
    expect(maxKv).toBeGreaterThan(0);
    expect(maxKv).toBeLessThanOrEqual(1);

    const after = (await scrape(s.url)).samples;
    const l = { model_name: model };
    expect(valueOf(after, 'vllm:num_requests_running', l)).toBe(0);
    expect(valueOf(after, 'vllm:num_requests_waiting', l)).toBe(0);
    expect(valueOf(after, 'vllm:kv_cache_usage_perc', l)).toBe(0);
    const delta = (name: string, labels: Record<string, string> = l) => sumOf(after, name, labels) - sumOf(before, name, labels);
    const prompt = answers.reduce((a, r) => a + r.usage!.prompt_tokens, 0);
    const completion = answers.reduce((a, r) => a + r.usage!.completion_tokens, 0);
    expect(delta('vllm:prompt_tokens_total')).toBe(prompt);
    expect(delta('vllm:generation_tokens_total')).toBe(completion);
    expect(delta('vllm:request_success_total')).toBe(N);
    const byReason = (reason: string) => delta('vllm:request_success_total', { ...l, finished_reason: reason });
    expect(byReason('length')).toBe(answers.filter((r) => r.choices[0]!.finish_reason === 'length').length);
    expect(byReason('stop')).toBe(answers.filter((r) => r.choices[0]!.finish_reason === 'stop').length);
    expect(delta('vllm:time_to_first_token_seconds_count')).toBe(N);
    expect(delta('vllm:e2e_request_latency_seconds_count')).toBe(N);
    expect(delta('vllm:request_queue_time_seconds_count')).toBe(N);
    expect(delta('vllm:inter_token_latency_seconds_count')).toBe(completion - N);
    // The four prompts repeat: the prefix cache serves most of their tokens.
    expect(delta('vllm:prefix_cache_queries_total')).toBeGreaterThanOrEqual(prompt - answers.reduce((a, r) => a + (r.usage!.prompt_tokens_details?.cached_tokens ?? 0), 0));
    expect(delta('vllm:prefix_cache_hits_total')).toBe(answers.reduce((a, r) => a + (r.usage!.prompt_tokens_details?.cached_tokens ?? 0), 0));
    expect(delta('vllm:prefix_cache_hits_total')).toBeGreaterThan(0);
    // Some requests waited for a slot: the queue-time histogram has a sample past its first bucket.
    expect(valueOf(after, 'vllm:request_queue_time_seconds_bucket', { ...l, le: '0.001' })!).toBeLessThan(valueOf(after, 'vllm:request_queue_time_seconds_count', l)!);
  }, 300_000);

  it('renders the metrics in under 5 ms per scrape at 64 running streams (printed: p50, p90)', async () => {
    // Timed in process (what a scrape costs the event loop), with 64 streams running.
    const streams = Array.from({ length: 64 }, (_, i) =>
      s.openai.chat.completions.create({ model, messages: [{ role: 'user', content: `Tell a story ${i}.` }], max_tokens: 64, temperature: 0 }),
    );
    let seen = 0;
    for (let i = 0; i < 200 && seen < 64; i++) {
      seen = (s.engine().stats().runningSequences);
      if (seen < 64) await sleep(5);
    }
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      s.services.metrics.render();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    process.stderr.write(`metrics render at ${seen} running: p50 ${times[25]!.toFixed(3)} ms, p90 ${times[45]!.toFixed(3)} ms\n`);
    await Promise.all(streams);
    expect(times[25]).toBeLessThan(5);
  }, 300_000);
});
