// Generation time and size of the model maker's presets (single-threaded JS, streaming to disk).
//   node dist/bench/model-maker/make-bench.js [--out-dir DIR] [--only builtin:q8_0,small:q8_0,...] [--kquant-search ref|fast] [--keep]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeModel, resolveSpec, type ModelDtype, type PresetName } from '../../src/model-maker/index.js';

const { values } = parseArgs({
  options: { 'out-dir': { type: 'string' }, only: { type: 'string', default: 'builtin:q8_0,tiny:q4_k_m,small:q8_0,small:f16,small:q4_k_m,medium:q4_k_m' }, keep: { type: 'boolean' }, 'kquant-search': { type: 'string', default: 'ref' } },
});
const dir = values['out-dir'] ?? mkdtempSync(join(tmpdir(), 'svc-make-bench-'));
console.log(`K-quant search: ${values['kquant-search']}\n| preset | dtype | params | MiB | seconds | M params/s |\n|---|---|---|---|---|---|`);
for (const item of values.only!.split(',')) {
  const [preset, dtype] = item.split(':') as [PresetName, ModelDtype];
  const path = join(dir, `${preset}-${dtype}.gguf`);
  const r = await makeModel(resolveSpec(preset, { dtype, kquantSearch: values['kquant-search'] as 'ref' | 'fast' }), path);
  console.log(`| ${preset} | ${dtype} | ${(r.params / 1e6).toFixed(1)}M | ${(r.bytes / 2 ** 20).toFixed(1)} | ${(r.ms / 1000).toFixed(1)} | ${(r.params / 1e6 / (r.ms / 1000)).toFixed(1)} |`);
  if (!values.keep) rmSync(path, { force: true });
}
if (!values['out-dir']) rmSync(dir, { recursive: true, force: true });
