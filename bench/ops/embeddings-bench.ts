// Embeddings throughput of the engine (inputs/s, tokens/s) at batch 1, 16 and 256: one embed()
// call per batch, ~16-token inputs, on the built-in model and on each GGUF given as an argument.
//   node dist/bench/ops/embeddings-bench.js [model.gguf ...]   (SVC_BENCH_THREADS, default 2)
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadModel } from '../../src/engine/index.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';

const BATCHES = [1, 16, 256];
const MIN_MS = 3000;

async function benchOne(path: string, threads: number): Promise<void> {
  const model = await loadModel(path, { threads, kvCacheMb: 256 });
  const texts = Array.from({ length: 256 }, (_, i) => `Input number ${i}: a short sentence about item ${i * 7} for embedding.`);
  const tokens = await Promise.all(texts.map((t) => model.tokenize(t)));
  for (const b of BATCHES) {
    const batch = tokens.slice(0, b);
    const batchTokens = batch.reduce((a, t) => a + t.length, 0);
    await model.embed(batch); // warm-up
    let calls = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < MIN_MS || calls < 3) {
      await model.embed(batch);
      calls++;
    }
    const s = (performance.now() - t0) / 1000;
    const row = { model: model.info.id, pooling: model.pooling, threads, batch: b, tokens_per_input: +(batchTokens / b).toFixed(1), inputs_per_s: +((calls * b) / s).toFixed(1), tokens_per_s: Math.round((calls * batchTokens) / s), ms_per_call: +((s * 1000) / calls).toFixed(2) };
    console.log(JSON.stringify(row));
  }
  model.unload();
}

const threads = Number(process.env['SVC_BENCH_THREADS'] ?? 2);
const paths = [await ensureBuiltinModel(join(tmpdir(), 'svc-ops-bench')), ...process.argv.slice(2)];
for (const p of paths) await benchOne(p, threads);
