// A prefiller's chunked KV export (src/predict/kv-export.ts) on the real engine: the blocks equal
// a one-call export's (also when the engine computes a block over several calls), cancelling stops
// it between chunks, another sequence on the same engine keeps generating while it runs (ordering
// of events, not timing), and paced chunks follow the engine's step time (nextChunkTokens).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { eosBan, GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import type { KvBlock } from '../../src/engine/types.js';
import { enginePacing, exportKvInChunks, MAX_CHUNK_TOKENS, nextChunkTokens, type ChunkCost } from '../../src/predict/kv-export.js';
import { getTestModel } from '../helpers/models.js';
import { longSession } from '../../bench/predict/sessions.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/rrweb');
const recordings = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.ndjson'))
  .map((f) => readFileSync(join(FIXTURES, f), 'utf8').trim().split('\n'));

describe('nextChunkTokens', () => {
  it('takes the longest chunk when nothing runs on the engine, one token before any measurement', () => {
    expect(nextChunkTokens(0, null, null)).toBe(MAX_CHUNK_TOKENS);
    expect(nextChunkTokens(3000, { start: 2000, tokens: 8, ms: 100 }, null)).toBe(MAX_CHUNK_TOKENS);
    expect(nextChunkTokens(3000, null, 5)).toBe(1);
  });

  it('fits the next chunk into one step from the previous chunk cost per token', () => {
    // 16 tokens cost 8 ms (0.5 ms each) at about the same position: a 4 ms step fits 8 (7 with
    // the next chunk 16 positions further), twice the step twice as many.
    expect(nextChunkTokens(4000, { start: 4000, tokens: 16, ms: 8 }, 4)).toBe(8);
    expect(nextChunkTokens(4016, { start: 4000, tokens: 16, ms: 8 }, 4)).toBe(7);
    expect(nextChunkTokens(4000, { start: 4000, tokens: 16, ms: 8 }, 8)).toBe(16);
    // Never more than twice the previous chunk.
    expect(nextChunkTokens(4016, { start: 4000, tokens: 16, ms: 8 }, 80)).toBe(32);
    expect(nextChunkTokens(16, { start: 0, tokens: 16, ms: 0.01 }, 80)).toBe(32);
    expect(nextChunkTokens(0, { start: 0, tokens: 200, ms: 0.01 }, 80)).toBe(MAX_CHUNK_TOKENS);
  });

  it('expects a token to cost more further into the prompt (attention), never less', () => {
    const prev: ChunkCost = { start: 992, tokens: 16, ms: 8 }; // mean position 1000
    expect(nextChunkTokens(1992, prev, 4)).toBe(4); // mean position 2000: twice the cost per token
    expect(nextChunkTokens(0, prev, 4)).toBe(8);
  });

  it('computes at least one token, however slow a token is', () => {
    expect(nextChunkTokens(8000, { start: 7999, tokens: 1, ms: 50 }, 2)).toBe(1);
    expect(nextChunkTokens(8000, { start: 7990, tokens: 10, ms: 0 }, 0)).toBe(1); // no step measured yet
  });
});

describe('exportKvInChunks', () => {
  let chunked: EngineModel;
  let whole: EngineModel;
  let tokens: Uint32Array;

  beforeAll(async () => {
    const path = await getTestModel({ ctx: 2048 });
    [chunked, whole] = await Promise.all([loadModel(path, { threads: 1, kvCacheMb: 64 }), loadModel(path, { threads: 1, kvCacheMb: 64 })]);
    const all = await chunked.tokenize(longSession(recordings, 200).slice(2).join('\n'), { addSpecial: false });
    tokens = all.slice(0, 1500);
  }, 120_000);

  afterAll(() => {
    chunked?.unload();
    whole?.unload();
  });

  it('gives the blocks a single export gives, chunk by chunk in order', async () => {
    const kv = chunked.kv!;
    const got: KvBlock[] = [];
    let calls = 0;
    const n = await exportKvInChunks(kv, tokens, 2, { prefixCache: true, chunkTokens: 128 }, async (blocks) => {
      calls++;
      got.push(...blocks);
    });
    const bs = kv.layout().blockTokens;
    expect(n).toBe(Math.floor(tokens.length / bs) - 2);
    expect(calls).toBe(Math.ceil(n / (128 / bs)));
    expect(got.map((b) => b.index)).toEqual(Array.from({ length: n }, (_, i) => 2 + i));
    const reference = await whole.kv!.exportKv(tokens, 2);
    expect(reference.length).toBe(n);
    for (let i = 0; i < n; i++) expect(Buffer.from(got[i]!.data).equals(Buffer.from(reference[i]!.data))).toBe(true);
  }, 120_000);

  it('stops between chunks when cancelled', async () => {
    const ac = new AbortController();
    const other = tokens.slice(0, 1400).reverse(); // not in the cache yet
    let calls = 0;
    const n = await exportKvInChunks(chunked.kv!, other, 0, { prefixCache: true, chunkTokens: 128, signal: ac.signal }, async () => {
      calls++;
      if (calls === 2) ac.abort();
    });
    expect(calls).toBe(2);
    expect(n).toBe(2 * (128 / chunked.kv!.layout().blockTokens));
  }, 60_000);

  it('computes a block over several calls when asked for fewer tokens than a block', async () => {
    const kv = chunked.kv!;
    const bs = kv.layout().blockTokens;
    const prompt = tokens.slice(7, 7 + 40 * bs + 5); // not cached yet
    const nFull = Math.floor(prompt.length / bs);
    const got: KvBlock[] = [];
    const sizes = [1, 5, 7, 3, 13, 16, 23, 40, 2];
    let computed = 0;
    for (let call = 0; got.length < nFull; call++) {
      const n = sizes[call % sizes.length]!;
      const blocks = await kv.exportKv(prompt, got.length, undefined, n);
      expect(blocks.map((b) => b.index)).toEqual(blocks.map((_, i) => got.length + i));
      // Each call computed exactly what it was asked for (the part block was kept between calls).
      expect(chunked.stats().lastExportTokens).toBe(Math.min(n, nFull * bs - computed));
      computed += chunked.stats().lastExportTokens!;
      got.push(...blocks);
      expect(call).toBeLessThan(nFull * bs);
    }
    expect(computed).toBe(nFull * bs);
    const reference = await whole.kv!.exportKv(prompt, 0);
    expect(reference.length).toBe(nFull);
    for (let i = 0; i < nFull; i++) expect(Buffer.from(got[i]!.data).equals(Buffer.from(reference[i]!.data))).toBe(true);
  }, 120_000);

  it('takes the longest chunks while nothing else runs on the engine', async () => {
    const other = tokens.slice(11, 1011); // not cached yet
    const costs: ChunkCost[] = [];
    const n = await exportKvInChunks(chunked.kv!, other, 0, { prefixCache: true, pacing: enginePacing(chunked), onChunkCost: (c) => costs.push(c) }, async () => {});
    const bs = chunked.kv!.layout().blockTokens;
    expect(n).toBe(Math.floor(other.length / bs));
    expect(costs.map((c) => c.tokens)).toEqual([256, 256, 256, 224]);
  }, 60_000);

  it('paces its chunks by the step time of a sequence decoding beside it, blocks equal to a one-call export', async () => {
    const kv = chunked.kv!;
    const bs = kv.layout().blockTokens;
    const other = tokens.slice(13, 1413); // not cached yet
    const events: string[] = [];
    const stamps: number[] = [];
    const ac = new AbortController();
    const gen = chunked.generate({ prompt: tokens.slice(1, 40), maxTokens: 1500, signal: ac.signal, sampling: { ...GREEDY_SAMPLING, logitBias: eosBan(chunked.info) } }, () => {
      events.push('token');
      stamps.push(performance.now());
    });
    while (stamps.length < 40) await new Promise((r) => setTimeout(r, 2));
    const before = stamps.length;
    const costs: ChunkCost[] = [];
    const got: KvBlock[] = [];
    const n = await exportKvInChunks(kv, other, 0, { prefixCache: true, pacing: enginePacing(chunked), onChunkCost: (c) => (costs.push(c), events.push('chunk')) }, async (blocks) => void got.push(...blocks));
    const after = stamps.length;
    ac.abort();
    await gen;
    expect(n).toBe(Math.floor(other.length / bs));
    // Every token was computed once: the engine kept the blocks it computed in part.
    expect(costs.reduce((a, c) => a + c.tokens, 0)).toBe(n * bs);
    // Sized by time: starts at one token, grows and changes size (the step time, the position).
    expect(costs[0]!.tokens).toBe(1);
    expect(new Set(costs.map((c) => c.tokens)).size).toBeGreaterThan(2);
    expect(Math.max(...costs.map((c) => c.tokens))).toBeLessThanOrEqual(MAX_CHUNK_TOKENS);
    // The scheduler runs a step between two jobs: the stream's tokens keep arriving between chunks
    // (event order; allow for token and chunk deliveries crossing in the event loop).
    const first = events.indexOf('chunk');
    const last = events.lastIndexOf('chunk');
    expect(events.slice(first, last).filter((e) => e === 'token').length).toBeGreaterThanOrEqual((costs.length - 1) / 2);
    const reference = await whole.kv!.exportKv(other, 0);
    for (let i = 0; i < n; i++) expect(Buffer.from(got[i]!.data).equals(Buffer.from(reference[i]!.data))).toBe(true);
    // The gap ratio is reported, not asserted (a shared, noisy machine): bench/predict/export-gap-bench.ts.
    const gaps = (a: number, b: number) => stamps.slice(a, b).map((t, i) => t - stamps[a - 1 + i]!).sort((x, y) => x - y);
    const normal = gaps(10, before);
    const during = gaps(before, after);
    console.info(`paced export: ${costs.length} chunks of ${Math.min(...costs.map((c) => c.tokens))}-${Math.max(...costs.map((c) => c.tokens))} tokens; other stream's gap p50 ${normal[normal.length >> 1]!.toFixed(2)} ms alone, p50 ${during[during.length >> 1]!.toFixed(2)} / max ${during[during.length - 1]!.toFixed(2)} ms during the export`);
  }, 120_000);

  it('stops a paced export between chunks when cancelled', async () => {
    const ac = new AbortController();
    const other = tokens.slice(17, 1417); // not cached yet
    let chunks = 0;
    const gen = chunked.generate({ prompt: tokens.slice(2, 40), maxTokens: 1500, signal: ac.signal, sampling: { ...GREEDY_SAMPLING, logitBias: eosBan(chunked.info) } }, () => {});
    const exported = await exportKvInChunks(chunked.kv!, other, 0, { prefixCache: true, pacing: enginePacing(chunked), signal: ac.signal, onChunkCost: () => void (++chunks === 5 && ac.abort()) }, async () => {});
    await gen;
    expect(chunks).toBe(5);
    expect(exported).toBeLessThan(Math.floor(other.length / chunked.kv!.layout().blockTokens));
  }, 60_000);

  it('lets another sequence generate while it exports', async () => {
    const other = tokens.slice(100, 1500); // a prompt the engine has not computed
    const events: string[] = [];
    const gen = chunked.generate(
      { prompt: tokens.slice(0, 64), maxTokens: 400, sampling: { ...GREEDY_SAMPLING, logitBias: eosBan(chunked.info) } },
      () => events.push('token'),
    );
    // Export once the generation is running.
    while (!events.includes('token')) await new Promise((r) => setTimeout(r, 1));
    const n = await exportKvInChunks(chunked.kv!, other, 0, { prefixCache: true, chunkTokens: 64 }, async () => {
      events.push('chunk');
    });
    await gen;
    expect(n).toBeGreaterThan(40);
    const first = events.indexOf('chunk');
    const last = events.lastIndexOf('chunk');
    // Tokens of the other sequence arrived between the export's first and last chunk.
    expect(events.slice(first, last).filter((e) => e === 'token').length).toBeGreaterThan(0);
  }, 120_000);
});
