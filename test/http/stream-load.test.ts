// Many SSE streams against a whole server (createServices + startMainServer, the real engine on
// the chat tests' generated model) on loopback: a third read normally, a third read one socket
// read at a time, a third hang up mid-stream. No 5xx, every reading stream completes, every hung
// up stream is cancelled in the engine (running and waiting back to 0, KV back to its baseline,
// one `abort` per cancelled request), and the process's RSS grows by less than the engine's KV
// budget plus a fixed overhead. Bounded in count and in time; nothing here is timed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatModelPath } from '../chat/harness.js';
import { warmApplyPool } from '../../src/apply/pool.js';
import { KEY, scrape, sleep, startOpsServer, sumOf, valueOf, type OpsServer } from '../ops/helpers.js';
import { runStream, type StreamMode, type StreamOutcome } from '../../bench/http/sse-load-client.js';
import { eosBan } from '../../src/engine/sampling.js';

const STREAMS = 300;
const KV_CACHE_MB = 64;
/** What the server may add beyond its KV pool while it serves STREAMS streams: per-stream state
 *  (request context, SSE queue, uWS socket and its buffers, the engine's per-sequence host
 *  memory) and the JIT/GC headroom of a test process. */
const FIXED_OVERHEAD_MB = 160;

let s: OpsServer;
let model: string;

beforeAll(async () => {
  s = await startOpsServer([await chatModelPath()], ['--kv-cache-mb', String(KV_CACHE_MB), '--rate-limit-rps', '0']);
  model = [...s.services.models.keys()][0]!;
}, 300_000);

afterAll(async () => {
  await s?.close();
});

async function engineGauges(): Promise<{ running: number; waiting: number; kv: number; aborts: number }> {
  const { samples } = await scrape(s.url);
  const l = { model_name: model };
  return {
    running: valueOf(samples, 'vllm:num_requests_running', l) ?? NaN,
    waiting: valueOf(samples, 'vllm:num_requests_waiting', l) ?? NaN,
    kv: valueOf(samples, 'vllm:kv_cache_usage_perc', l) ?? NaN,
    aborts: sumOf(samples, 'vllm:request_success_total', { ...l, finished_reason: 'abort' }),
  };
}

/** Polls until the engine is idle (bounded: a cancel that never lands fails here). */
async function engineIdle(deadlineMs: number): Promise<{ running: number; waiting: number; kv: number; aborts: number }> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const g = await engineGauges();
    if ((g.running === 0 && g.waiting === 0) || Date.now() > until) return g;
    await sleep(50);
  }
}

describe('SSE streams under load', () => {
  it(`${STREAMS} streams: a third normal, a third slow, a third hanging up; no 5xx, all cancelled, RSS bounded`, async () => {
    // Warm up (JIT, first allocations), then take the baselines.
    await s.openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 4 });
    // The server starts its apply threads without waiting (tokenizer build): let them finish first.
    await warmApplyPool();
    const before = await engineIdle(10_000);
    expect(before.running).toBe(0);
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 20);

    const modes: StreamMode[] = ['normal', 'slow', 'disconnect'];
    // The streams that hang up may not end on their own before it: with sampling, a few of 100
    // drew an end-of-generation token within three events (93 of 100 were left to cut on one CI run).
    const noEnd = eosBan(s.services.models.get(model)!.info);
    const outcomes: StreamOutcome[] = await Promise.all(
      Array.from({ length: STREAMS }, (_, i) => {
        const mode = modes[i % 3]!;
        return runStream({
          port: s.server.port,
          apiKey: KEY,
          mode,
          readEveryMs: 100,
          disconnectAfter: 3,
          body: {
            model,
            stream: true,
            // The ones that hang up would run long: only a cancel ends them in time.
            max_tokens: mode === 'disconnect' ? 20_000 : 24,
            ...(mode === 'disconnect' ? { logit_bias: noEnd } : {}),
            messages: [{ role: 'user', content: `Write a long story about load test ${i}.` }],
          },
        });
      }),
    );
    clearInterval(sampler);

    const byMode = (m: StreamMode): StreamOutcome[] => outcomes.filter((o) => o.mode === m);
    expect(outcomes.filter((o) => o.status >= 500)).toEqual([]);
    for (const o of [...byMode('normal'), ...byMode('slow')]) {
      expect(o).toMatchObject({ status: 200, done: true, error: null });
      expect(['stop', 'length']).toContain(o.finishReason);
    }
    const hungUp = byMode('disconnect');
    for (const o of hungUp) expect(o).toMatchObject({ status: 200, hungUp: true });
    // None can finish before its client hangs up (no end token, 20,000 tokens): every one is cut.
    const cut = hungUp.filter((o) => !o.done && o.finishReason === null).length;
    expect(cut).toBe(hungUp.length);

    const after = await engineIdle(60_000);
    expect(after).toMatchObject({ running: 0, waiting: 0 });
    expect(after.kv).toBe(before.kv);
    // One `abort` per cut stream: none could end on its own as its client hung up.
    expect(after.aborts - before.aborts).toBe(cut);

    const grownMb = (rssPeak - rssBefore) / 2 ** 20;
    console.log(`stream-load: ${STREAMS} streams, ${cut} cancelled, RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB -> peak ${(rssPeak / 2 ** 20).toFixed(0)} MiB (+${grownMb.toFixed(0)})`);
    expect(grownMb).toBeLessThan(KV_CACHE_MB + FIXED_OVERHEAD_MB);
  }, 300_000);
});
