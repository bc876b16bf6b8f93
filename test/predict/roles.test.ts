// The prediction service as real processes: standalone, and a prefiller + decoder pair. Greedy
// output is identical across roles and the decoder's KV came from the prefiller; a growing
// session hits the prefix cache; every returned line is a complete event; bad parameters get
// clear 400s. Failures of the prefiller: roles-failure.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { native } from '../../src/native/binding.js';
import type { SvcProcess } from '../../src/bench/svc-process.js';
import { health, predict, recordings, startRoles, type RoleProcesses } from './roles-harness.js';

function expectEventLines(text: string): number {
  if (text === '') return 0;
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  for (const line of lines) {
    const e = JSON.parse(line) as { type: unknown; data: unknown };
    expect(Number.isInteger(e.type)).toBe(true);
    expect(typeof e.data === 'object' && e.data !== null && !Array.isArray(e.data)).toBe(true);
  }
  return lines.length;
}

describe('prediction service roles as separate processes', () => {
  let roles: RoleProcesses;
  let standalone: SvcProcess;
  let prefiller: SvcProcess;
  let decoder: SvcProcess;

  beforeAll(async () => {
    roles = await startRoles();
    ({ standalone, prefiller, decoder } = roles);
  }, 240_000);

  afterAll(() => roles.stopAll());

  it('reports its role, model and cache in /health', async () => {
    const h = await health(decoder.url);
    expect(h).toMatchObject({ status: 'healthy', server_role: 'decoder', gpu_available: native().systemInfo().gpuAvailable, cache_enabled: true });
    expect(typeof h.model).toBe('string');
    expect(h.cache_stats).toMatchObject({ enabled: true });
    expect(typeof h.uptime_seconds).toBe('number');
    expect((await health(prefiller.url)).server_role).toBe('prefiller');
    expect((await health(standalone.url)).server_role).toBe('standalone');
  });

  it('gives identical greedy output from standalone and prefiller+decoder, with KV from the prefiller', async () => {
    for (const lines of recordings) {
      const body = { prompt: lines.slice(0, 12).join('\n'), max_tokens: 32, temperature: 0 };
      const a = await predict(standalone.url, body);
      const b = await predict(decoder.url, body);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(b.json.text).toBe(a.json.text);
      expect(b.json.tokens_generated).toBe(a.json.tokens_generated);
      expectEventLines(a.json.text as string);
    }
    // The prefiller computed the prompts (its cache holds them); the decoder imported them.
    expect((await health(prefiller.url)).cache_stats.num_cached_tokens).toBeGreaterThan(0);
    const h = await health(decoder.url);
    expect(h.status).toBe('healthy');
    expect(h.kv_transfer.prefill_requests).toBeGreaterThanOrEqual(recordings.length);
    expect(h.kv_transfer.imports).toBeGreaterThanOrEqual(recordings.length);
    expect(h.kv_transfer.blocks_imported).toBeGreaterThanOrEqual(recordings.length);
    expect(h.kv_transfer.bytes_imported).toBeGreaterThan(0);
    expect(h.kv_transfer.local_prefills_while_degraded).toBe(0);
    expect((await health(standalone.url)).kv_transfer).toBeUndefined();
  }, 240_000);

  it('makes the n-th call of a growing session pay only for new events', async () => {
    const lines = recordings[1] as string[];
    const before = (await health(standalone.url)).cache_stats;
    const rates: number[] = [];
    for (let n = 4; n <= lines.length; n += 4) {
      const r = await predict(standalone.url, { prompt: lines.slice(0, n).join('\n'), max_tokens: 8, temperature: 0 });
      expect(r.status).toBe(200);
      rates.push((await health(standalone.url)).cache_stats.hit_rate as number);
    }
    // The cumulative hit rate climbs as each call reuses the previous call's prompt.
    expect(rates[rates.length - 1]).toBeGreaterThan(before.hit_rate as number);
    expect(rates[rates.length - 1]).toBeGreaterThan(0.5);
  }, 120_000);

  it('returns only complete, valid event lines for many prompts and temperatures', async () => {
    // Seeded, so the count below does not depend on unseeded draws (it once came out 0 on a
    // loaded CI machine): the same requests give the same lines on every run.
    let produced = 0;
    for (const lines of recordings) {
      for (const temperature of [0, 0.3, 1, 2]) {
        const r = await predict(standalone.url, { prompt: lines.slice(0, 6).join('\n'), max_tokens: 160, temperature, seed: 7 });
        expect(r.status).toBe(200);
        expect(r.json.tokens_generated).toBeGreaterThan(0);
        expect(r.json.tokens_generated).toBeLessThanOrEqual(160);
        expect(Number.isInteger(r.json.latency_ms)).toBe(true);
        produced += expectEventLines(r.json.text as string);
      }
    }
    expect(produced).toBeGreaterThan(0);
  }, 240_000);

  it('gives the same sampled events for the same seed', async () => {
    const body = { prompt: (recordings[2] as string[]).slice(0, 6).join('\n'), max_tokens: 64, temperature: 1, seed: 12345 };
    const a = await predict(standalone.url, body);
    const b = await predict(standalone.url, body);
    expect(a.status).toBe(200);
    expect(b.json.text).toBe(a.json.text);
    expect(b.json.tokens_generated).toBe(a.json.tokens_generated);
  }, 60_000);

  it('answers bad parameters with a clear 400 {detail}', async () => {
    const prompt = (recordings[0] as string[]).slice(0, 3).join('\n');
    for (const body of [{ prompt, max_tokens: 0 }, { prompt, max_tokens: 513 }, { prompt, temperature: 2.5 }, { prompt, temperature: -1 }, { prompt, seed: 1.5 }, { prompt, stream: true }, { prompt: '{"type":3}' }, {}]) {
      const r = await predict(standalone.url, body);
      expect(r.status).toBe(400);
      expect(typeof r.json.detail).toBe('string');
    }
    // A prompt past the context is windowed, not refused: test/predict/long-sessions.test.ts (on
    // a 1024-token context; a 32k-token prefill here would take a minute).
  });
});
