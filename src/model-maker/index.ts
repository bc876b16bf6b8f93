// Public surface of the model generator: presets, makeModel, and the built-in model for `svc serve`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readGgufHeader } from '../gguf/gguf-reader.js';
import { MODEL_MAKER_VERSION, PRESETS, makeModel } from './make-model.js';

export { ARCHS } from './arch.js';
export { DTYPES, MODEL_MAKER_VERSION, PRESETS, makeModel, planTensors, resolveSpec, validateSpec, weightType } from './make-model.js';
export type { MakeResult, ModelDtype, ModelSpec, PresetName } from './make-model.js';

export function builtinModelPath(dataDir: string): string {
  return join(dataDir, 'models', 'builtin.gguf');
}

/** True when path holds a model this generator version made from exactly this spec. */
function isCurrent(path: string, specJson: string): boolean {
  if (!existsSync(path)) return false;
  try {
    const md = readGgufHeader(path).metadata;
    return md['svc.model_maker.version'] === MODEL_MAKER_VERSION && md['svc.model_maker.spec'] === specJson;
  } catch {
    return false;
  }
}

const pending = new Map<string, Promise<string>>();

/** Makes <dataDir>/models/builtin.gguf when missing (or made by another generator version) and
 *  returns its path. Concurrent callers in one process share one generation; across processes the
 *  atomic rename keeps readers from seeing a partial file. */
export function ensureBuiltinModel(dataDir: string): Promise<string> {
  const path = builtinModelPath(dataDir);
  const specJson = JSON.stringify(PRESETS.builtin);
  if (isCurrent(path, specJson)) return Promise.resolve(path);
  let p = pending.get(path);
  if (!p) {
    p = makeModel(PRESETS.builtin, path)
      .then(() => path)
      .finally(() => pending.delete(path));
    pending.set(path, p);
  }
  return p;
}
