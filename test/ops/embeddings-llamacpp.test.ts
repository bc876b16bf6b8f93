// Embedding exactness against llama.cpp: for a causal model without a pooling type, llama.cpp's
// embedding (node-llama-cpp's embedding context) is the last token's final-normed hidden state,
// unnormalised, which is our engine's embed() with last-token pooling and normalize: false. Both
// run the same token list (llama.cpp's own BOS/EOS handling applied to our tokens first).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { LLAMACPP_DIR } from '../../src/peer/llamacpp.js';
import { getTestModel } from '../helpers/models.js';

/* The parts of node-llama-cpp used here (it is not a dependency of the main package). */
interface NlcTokens {
  bos: number | null;
  eos: number | null;
  shouldPrependBosToken: boolean;
  shouldAppendEosToken: boolean;
}
interface NlcEmbeddingContext {
  getEmbeddingFor(input: number[]): Promise<{ vector: readonly number[] }>;
  dispose(): Promise<void>;
}
interface NlcModel {
  tokens: NlcTokens;
  createEmbeddingContext(o: Record<string, unknown>): Promise<NlcEmbeddingContext>;
  dispose(): Promise<void>;
}
interface NlcLlama {
  loadModel(o: Record<string, unknown>): Promise<NlcModel>;
  dispose(): Promise<void>;
}

let llama: NlcLlama;
let peer: NlcModel;
let ctx: NlcEmbeddingContext;
let ours: EngineModel;

beforeAll(async () => {
  const path = await getTestModel({ dtype: 'f32' });
  const ensure = (await import(pathToFileURL(join(LLAMACPP_DIR, 'ensure.mjs')).href)) as { ensureLlamaCpp(): Promise<{ dir: string }> };
  const { dir } = await ensure.ensureLlamaCpp();
  const nlc = (await import(pathToFileURL(join(dir, 'node-llama-cpp', 'dist', 'index.js')).href)) as {
    getLlama(o: Record<string, unknown>): Promise<NlcLlama>;
    LlamaLogLevel: Record<string, string>;
  };
  llama = await nlc.getLlama({ gpu: false, build: 'never', logLevel: nlc.LlamaLogLevel['error'] ?? 'error', progressLogs: false });
  peer = await llama.loadModel({ modelPath: path, gpuLayers: 0, useMmap: true });
  ctx = await peer.createEmbeddingContext({ contextSize: 512, batchSize: 512, threads: 1 });
  ours = await loadModel(path, { threads: 2, kvCacheMb: 64 });
}, 600_000);

afterAll(async () => {
  await ctx?.dispose();
  await peer?.dispose();
  await llama?.dispose();
  ours?.unload();
});

/** The token list llama.cpp's embedding context runs for `tokens`. */
function asLlamaRuns(tokens: number[]): number[] {
  const t = peer.tokens;
  const out = [...tokens];
  if (t.shouldPrependBosToken && t.bos !== null && out[0] !== t.bos) out.unshift(t.bos);
  if (t.shouldAppendEosToken && t.eos !== null && out[out.length - 1] !== t.eos) out.push(t.eos);
  return out;
}

describe('embeddings vs llama.cpp', () => {
  it('the last-token embedding equals llama.cpp\'s, alone and inside a batch', async () => {
    const texts = ['hello world', 'The quick brown fox jumps over the lazy dog.', 'a', 'embedding exactness against llama.cpp with a longer input of several words'];
    const lists = await Promise.all(texts.map(async (t) => asLlamaRuns(Array.from(await ours.tokenize(t, { addSpecial: false })))));
    const batched = await ours.embed(lists.map((l) => Uint32Array.from(l)), { pooling: 'last', normalize: false });
    let worst = 0;
    let worstRel = 0;
    for (let i = 0; i < lists.length; i++) {
      const want = (await ctx.getEmbeddingFor(lists[i]!)).vector;
      const alone = await ours.embed([Uint32Array.from(lists[i]!)], { pooling: 'last', normalize: false });
      expect(want.length).toBe(alone.dims);
      let n = 0;
      for (const x of want) n += x * x;
      n = Math.sqrt(n);
      for (const got of [alone.vectors, batched.vectors.subarray(i * alone.dims, (i + 1) * alone.dims)]) {
        let cos = 0;
        let g = 0;
        for (let j = 0; j < want.length; j++) {
          const d = Math.abs(got[j]! - want[j]!);
          worst = Math.max(worst, d);
          worstRel = Math.max(worstRel, d / n);
          cos += got[j]! * want[j]!;
          g += got[j]! * got[j]!;
        }
        expect(cos / (Math.sqrt(g) * n)).toBeGreaterThan(0.99999);
      }
    }
    process.stderr.write(`embeddings vs llama.cpp (f32): max |diff| ${worst.toExponential(2)}, max |diff| / |v| ${worstRel.toExponential(2)}\n`);
    // Measured 1.2e-4 (f32 builtin shapes; the f32 forward test allows 1e-3 on logits).
    expect(worstRel).toBeLessThan(3e-4);
  });
});
