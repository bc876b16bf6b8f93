// POST /v1/embeddings through the official client (base64 by default, float on request) on the
// real engine, and the engine's pooling checked against itself: a causal model's CLS vector is the
// last-token vector of its first token alone, and its mean vector the mean of its prefixes'
// last-token vectors.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatModelPath } from '../chat/harness.js';
import { startOpsServer, KEY, type OpsServer } from './helpers.js';

let s: OpsServer;
let model: string;

beforeAll(async () => {
  s = await startOpsServer([await chatModelPath()]);
  model = [...s.services.models.keys()][0]!;
}, 300_000);

afterAll(async () => {
  await s?.close();
});

const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((a, x) => a + x * x, 0));
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((acc, x, i) => acc + x * b[i]!, 0);

function expectClose(a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-4): void {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  expect(worst).toBeLessThan(tol);
}

describe('POST /v1/embeddings', () => {
  it('gives unit vectors of the model\'s width; base64 (the client\'s default) equals float', async () => {
    const input = ['the cat sat on the mat', 'a completely different sentence about ships'];
    const b64 = await s.openai.embeddings.create({ model, input });
    const flt = await s.openai.embeddings.create({ model, input, encoding_format: 'float' });
    const width = s.engine().nativeInfo.embeddingLength;
    expect(b64.object).toBe('list');
    expect(b64.model).toBe(model);
    expect(b64.data.map((d) => d.index)).toEqual([0, 1]);
    for (let i = 0; i < 2; i++) {
      expect(b64.data[i]!.embedding).toHaveLength(width);
      expect(b64.data[i]!.embedding).toEqual(flt.data[i]!.embedding);
      expect(norm(flt.data[i]!.embedding)).toBeCloseTo(1, 5);
    }
    // Different texts differ.
    expect(dot(flt.data[0]!.embedding, flt.data[1]!.embedding)).toBeLessThan(0.999);
    const ids = await Promise.all(input.map((t) => s.engine().tokenize(t)));
    expect(flt.usage).toEqual({ prompt_tokens: ids[0]!.length + ids[1]!.length, total_tokens: ids[0]!.length + ids[1]!.length });
    // The raw wire format: base64 of little-endian float32.
    const raw = await fetch(`${s.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, input: input[0], encoding_format: 'base64' }),
    });
    const body = (await raw.json()) as { data: Array<{ embedding: string }> };
    const bytes = Buffer.from(body.data[0]!.embedding, 'base64');
    const floats = Array.from({ length: width }, (_, i) => bytes.readFloatLE(i * 4));
    expect(floats).toEqual(flt.data[0]!.embedding);
  });

  it('gives the same text the same vector, alone or in a batch of 16, as text or token ids', async () => {
    const text = 'repeatable input';
    const alone = (await s.openai.embeddings.create({ model, input: text, encoding_format: 'float' })).data[0]!.embedding;
    const again = (await s.openai.embeddings.create({ model, input: text, encoding_format: 'float' })).data[0]!.embedding;
    expect(again).toEqual(alone);
    const batch = Array.from({ length: 16 }, (_, i) => (i === 7 ? text : `filler number ${i} with some words`));
    const inBatch = (await s.openai.embeddings.create({ model, input: batch, encoding_format: 'float' })).data[7]!.embedding;
    expectClose(inBatch, alone);
    const ids = Array.from(await s.engine().tokenize(text));
    const byIds = (await s.openai.embeddings.create({ model, input: ids, encoding_format: 'float' })).data[0]!.embedding;
    expect(byIds).toEqual(alone);
    const byIdArrays = await s.openai.embeddings.create({ model, input: [ids, ids], encoding_format: 'float' });
    expectClose(byIdArrays.data[1]!.embedding, alone);
  });

  it('truncates to `dimensions` and renormalises', async () => {
    const full = (await s.openai.embeddings.create({ model, input: 'shorter please', encoding_format: 'float' })).data[0]!.embedding;
    const cut = (await s.openai.embeddings.create({ model, input: 'shorter please', encoding_format: 'float', dimensions: 32 })).data[0]!.embedding;
    expect(cut).toHaveLength(32);
    expect(norm(cut)).toBeCloseTo(1, 5);
    const n = norm(full.slice(0, 32));
    expectClose(cut, full.slice(0, 32).map((x) => x / n), 1e-6);
  });

  it('refuses bad inputs with a 400 naming the field', async () => {
    const bad = async (body: Record<string, unknown>) => {
      try {
        await s.openai.embeddings.create({ model, input: 'x', ...body } as never);
      } catch (e) {
        return e as InstanceType<typeof OpenAI.APIError>;
      }
      throw new Error('expected an error');
    };
    expect((await bad({ input: '' })).status).toBe(400);
    expect((await bad({ input: [] })).status).toBe(400);
    expect((await bad({ input: [1e9] })).status).toBe(400);
    const d = await bad({ dimensions: 100_000 });
    expect(d.status).toBe(400);
    expect((d.error as { param?: string }).param).toBe('dimensions');
    expect((await bad({ encoding_format: 'int8' })).status).toBe(400);
  });
});

describe('engine pooling', () => {
  it('CLS is the first token\'s state; mean is the mean of every position\'s state', async () => {
    const e = s.engine();
    expect(e.pooling).toBe('last'); // the generated model has no pooling_type: a causal LM's last token
    const toks = await e.tokenize('pool these several tokens together please');
    expect(toks.length).toBeGreaterThan(4);
    const prefixes = Array.from({ length: toks.length }, (_, i) => toks.slice(0, i + 1));
    const last = await e.embed(prefixes, { pooling: 'last', normalize: false });
    const d = last.dims;
    const row = (v: Float32Array, i: number) => v.subarray(i * d, (i + 1) * d);
    const cls = await e.embed([toks], { pooling: 'cls', normalize: false });
    expectClose(cls.vectors, row(last.vectors, 0), 1e-4);
    const mean = await e.embed([toks], { pooling: 'mean', normalize: false });
    const want = new Float32Array(d);
    for (let i = 0; i < toks.length; i++) for (let j = 0; j < d; j++) want[j]! += row(last.vectors, i)[j]! / toks.length;
    expectClose(mean.vectors, want, 1e-4);
    // The normalised last-token vector is what the API serves.
    const api = (await s.openai.embeddings.create({ model, input: Array.from(toks), encoding_format: 'float' })).data[0]!.embedding;
    const lastRow = row(last.vectors, toks.length - 1);
    const n = norm(lastRow);
    expectClose(api, Array.from(lastRow, (x) => x / n), 1e-5);
  });

  it('embeds right after an evaluate() (a job that leaves its last pass in the engine\'s scratch)', async () => {
    const e = s.engine();
    const toks = await e.tokenize('scratch state between jobs');
    const before = await e.embed([toks]);
    await e.evaluate(await e.tokenize('an evaluation of some other tokens first'));
    const after = await e.embed([toks, toks]);
    expectClose(after.vectors.subarray(0, before.dims), before.vectors, 1e-5);
    expectClose(after.vectors.subarray(before.dims), before.vectors, 1e-5);
  });

  it('runs a batch of 256 inputs in a few engine steps', async () => {
    const e = s.engine();
    const inputs = await Promise.all(Array.from({ length: 256 }, (_, i) => e.tokenize(`input ${i} of the batch`)));
    const tokens = inputs.reduce((a, t) => a + t.length, 0);
    const before = e.nativeStats().steps;
    await e.embed(inputs);
    const steps = e.nativeStats().steps - before;
    // Passes of up to 512 tokens (the step budget): ceil(tokens / 512), not one per input.
    expect(steps).toBe(Math.ceil(tokens / 512));
    expect(steps).toBeLessThan(16);
  });
});
