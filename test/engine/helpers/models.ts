// Test models from the project's generator, written once per spec into the OS temp dir and copied
// per name: the engine registry shares by path, so engines with different options need their own file.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { makeModel, resolveSpec, type ModelSpec } from '../../../src/model-maker/index.js';

const DIR = join(tmpdir(), 'svc-engine-tests');

export async function testModelPath(name: string, overrides: Partial<ModelSpec> = {}): Promise<string> {
  mkdirSync(DIR, { recursive: true });
  const spec = resolveSpec('builtin', { vocabLimit: 4096, ctx: 2048, ...overrides });
  const key = createHash('sha256').update(JSON.stringify(spec)).digest('hex').slice(0, 12);
  const master = join(DIR, `master-${key}.gguf`);
  if (!existsSync(master)) await makeModel(spec, master);
  const path = join(DIR, `${name}-${key}.gguf`);
  if (!existsSync(path)) copyFileSync(master, path);
  return path;
}
