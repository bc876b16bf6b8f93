// Small generated GGUF models for tests, cached on disk by their exact spec (and the generator
// version), so each spec is generated once per machine. Other test suites use getTestModel().
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MODEL_MAKER_VERSION, makeModel, resolveSpec, type ModelSpec, type PresetName } from '../../src/model-maker/index.js';

export type TestModelOptions = Partial<ModelSpec> & { preset?: PresetName };

/** Where test models live: $SVC_TEST_MODEL_DIR or <tmp>/svc-test-models. */
export function testModelDir(): string {
  return process.env['SVC_TEST_MODEL_DIR'] ?? join(tmpdir(), 'svc-test-models');
}

/** Resolves the full spec a test model is made from. */
export function testModelSpec(opts: TestModelOptions = {}): ModelSpec {
  const { preset = 'builtin', ...over } = opts;
  return resolveSpec(preset, over);
}

const inflight = new Map<string, Promise<string>>();

/**
 * Path of a generated model (made on first use). Default: the built-in preset (qwen2, dim 128,
 * 4 layers, full Qwen vocabulary, q8_0). Examples:
 *   getTestModel()                                          // what `svc serve` uses
 *   getTestModel({ dtype: 'f32', vocabLimit: 2000 })        // tiny vocab, fast to load
 *   getTestModel({ preset: 'tiny', dtype: 'q4_k_m', arch: 'llama' })
 */
export function getTestModel(opts: TestModelOptions = {}): Promise<string> {
  const spec = testModelSpec(opts);
  const key = createHash('sha256').update(`${MODEL_MAKER_VERSION}:${JSON.stringify(spec)}`).digest('hex').slice(0, 12);
  const path = join(testModelDir(), `${spec.name}-${spec.arch}-${spec.dtype}-${key}.gguf`);
  if (existsSync(path)) return Promise.resolve(path);
  let p = inflight.get(path);
  if (!p) {
    p = makeModel(spec, path).then(() => path);
    inflight.set(path, p);
    p.finally(() => inflight.delete(path)).catch(() => {});
  }
  return p;
}
