// The prediction benchmarks' model: the built-in shape (qwen2 dim 128, 4 layers, q8_0, the Qwen
// vocabulary) with the context a benchmark needs, generated once into SVC_BENCH_MODEL_DIR.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MODEL_MAKER_VERSION, makeModel, resolveSpec } from '../../src/model-maker/index.js';

export async function builtinModel(ctx: number): Promise<string> {
  const path = join(process.env['SVC_BENCH_MODEL_DIR'] ?? join(tmpdir(), 'svc-bench-models'), `builtin-q8_0-ctx${ctx}-v${MODEL_MAKER_VERSION}.gguf`);
  if (!existsSync(path)) {
    console.error(`bench: generating the built-in shape with a ${ctx}-token context → ${path}`);
    await makeModel(resolveSpec('builtin', { dtype: 'q8_0', ctx }), path);
  }
  return path;
}
