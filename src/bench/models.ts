// Generated models for benchmarks: made once per machine, outside the repository.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MODEL_MAKER_VERSION, makeModel, resolveSpec, type ModelDtype, type PresetName } from '../model-maker/index.js';

export async function benchModel(preset: PresetName, dtype: ModelDtype): Promise<string> {
  const path = join(process.env['SVC_BENCH_MODEL_DIR'] ?? join(tmpdir(), 'svc-bench-models'), `${preset}-${dtype}-v${MODEL_MAKER_VERSION}.gguf`);
  if (!existsSync(path)) {
    console.error(`bench: generating ${preset} ${dtype} model → ${path}`);
    // The fast K-quant scale fit: speed does not depend on it, and multi-billion-parameter shapes
    // take minutes less to write.
    await makeModel(resolveSpec(preset, { dtype, kquantSearch: 'fast' }), path);
  }
  return path;
}
