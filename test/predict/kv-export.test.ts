// A prefiller's chunked KV export (src/predict/kv-export.ts) on the real engine: the blocks equal
// a one-call export's, cancelling stops it between chunks, and another sequence on the same engine
// keeps generating while it runs (ordering of events, not timing).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { eosBan, GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import type { KvBlock } from '../../src/engine/types.js';
import { exportKvInChunks } from '../../src/predict/kv-export.js';
import { getTestModel } from '../helpers/models.js';
import { longSession } from '../../bench/predict/sessions.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/rrweb');
const recordings = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.ndjson'))
  .map((f) => readFileSync(join(FIXTURES, f), 'utf8').trim().split('\n'));

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
