// Mixture-of-experts models in the serving engine: a step's rows are grouped by expert (each
// active expert's weights read once per step), a lone decode runs its k experts in one pass, and
// neither may change a sequence's tokens. With 16 experts of which 2 are used per token, the
// tokens of different prompts (and the positions of one prompt) are routed to different experts,
// so batching them together really mixes expert groups.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { GgufWriter } from '../../src/gguf/gguf-writer.js';
import { testModelPath } from './helpers/models.js';
import { generateEvents, syntheticPrompt } from './helpers/generate.js';

const MOE = { arch: 'qwen3moe', experts: 16, expertsUsed: 2, expertFfn: 128 } as const;
let model: EngineModel;

beforeAll(async () => {
  model = await loadModel(await testModelPath('moe-cold', MOE), { threads: 2, kvCacheMb: 64, prefixCache: false });
});

afterAll(() => model?.unload());

describe('mixture of experts', () => {
  it('loads as qwen3moe', () => {
    expect(model.nativeInfo.architecture).toBe('qwen3moe');
  });

  it('concurrent sequences give the same greedy tokens as each alone', async () => {
    // Long chunked prefills (> the 512-token step budget) beside short prompts already decoding:
    // steps mix prefill rows and several decode rows of different sequences.
    const prompts = [3, 41, 700, 150, 1, 90].map((n, i) => syntheticPrompt(n, i + 11));
    const alone = [];
    for (const p of prompts) alone.push((await generateEvents(model, { prompt: p }, 24)).tokens);
    const together = await Promise.all(prompts.map((p) => generateEvents(model, { prompt: p }, 24)));
    expect(together.map((r) => r.tokens)).toEqual(alone);
    // Different prompts continue differently (the experts are not all alike).
    expect(new Set(alone.map((t) => t.join(','))).size).toBe(prompts.length);
  });

  it('evaluate() of a whole sequence gives the logits of decoding it token by token', async () => {
    const p = syntheticPrompt(40, 5);
    const { tokens } = await generateEvents(model, { prompt: p }, 16);
    const seq = [...p, ...tokens.slice(0, -1)];
    const res = await model.evaluate(seq, { allLogits: true });
    const vocab = res.logits.length / res.logitPositions.length;
    // Greedy decoding picked each token from one-row steps; the batched pass must pick the same.
    for (let i = 0; i < tokens.length; i++) {
      const row = res.logits.subarray((p.length - 1 + i) * vocab, (p.length + i) * vocab);
      let arg = 0;
      for (let v = 1; v < vocab; v++) if (row[v]! > row[arg]!) arg = v;
      expect(arg, `token ${i}`).toBe(tokens[i]);
    }
  });

  it('refuses gpt-oss with a message naming what is missing', async () => {
    const path = join(tmpdir(), `svc-moe-gpt-oss-${process.pid}.gguf`);
    await new GgufWriter().string('general.architecture', 'gpt-oss').write(path);
    await expect(loadModel(path)).rejects.toThrow(/'gpt-oss' is not supported \(attention sinks/);
  });
});
