// `svc model make|info`: writes generated GGUF models (see src/model-maker) and prints a file's header.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { asksHelp, usageAnswer, type Command } from '../cli.js';
import { readGgufHeader } from '../gguf/gguf-reader.js';
import { ggmlTypeName } from '../gguf/types.js';
import { ARCHS, DTYPES, PRESETS, builtinModelPath, makeModel, resolveSpec, type ModelSpec, type PresetName } from '../model-maker/index.js';
import { VOCABS } from '../model-maker/write-vocab.js';

const HELP = `usage:
  svc model make [--preset builtin|tiny|small|medium] [--dtype ${DTYPES.join('|')}]
                 [--arch ${ARCHS.join('|')}] [--out PATH] [--data-dir DIR]
                 [--dim N] [--layers N] [--heads N] [--kv-heads N] [--ffn N] [--ctx N]
                 [--head-dim N] [--sliding-window N] [--rope-scale X] [--rope-yarn FACTOR:ORIG_CTX] [--rope-factors]
                 [--experts N --experts-used N [--expert-ffn N]]
                 [--rope-theta X] [--eps X] [--tied|--untied] [--seed N] [--scale X]
                 [--vocab ${VOCABS.join('|')}] [--vocab-limit N] [--pre NAME]
                 [--kquant-search ref|fast]
      Writes a deterministic model (random weights, real Qwen BPE vocabulary and chat template).
      Presets with real shapes: ${Object.keys(PRESETS).join(', ')}. --rope-factors: Llama 3.1
      rope_freqs (llama) or LongRoPE factors (phi3). --experts/--experts-used: a mixture-of-experts
      FFN (qwen3moe, gpt-oss; llama with experts is Mixtral); --expert-ffn: each qwen3moe or gpt-oss
      expert's width. --rope-yarn: YaRN scaling (llama, qwen2, qwen3, qwen3moe, gpt-oss). The
      gpt-oss presets (gpt-oss-tiny, gpt-oss-20b-cut) write --dtype mxfp4_moe: MXFP4 experts, the rest q8_0.
      --vocab: qwen (default: Qwen BPE + Qwen2.5 template), spm (synthetic SentencePiece), or a real
      family's vocabulary, special tokens and chat template, laid out as llama.cpp's converter does
      (qwen3, llama3, gemma3, llama2, gptoss, deepseek_v3). --pre applies to qwen only.
      --kquant-search fast: K-quant blocks from the initial scale fit only (several times faster,
      for large benchmark models). Default: the built-in preset into <data-dir>/models/builtin.gguf (data dir: $SVC_DATA_DIR or ./data).
      With another preset and no --out: <data-dir>/models/<preset>-<dtype>.gguf.
  svc model info PATH
      Prints the metadata (long arrays summarised) and the tensor table of a GGUF file.`;

function num(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${what} needs a number, got '${v}'`);
  return n;
}

/** --rope-yarn FACTOR:ORIG_CTX (e.g. 32:4096, gpt-oss's). */
function yarnOption(v: string | undefined): ModelSpec['ropeYarn'] {
  if (v === undefined) return undefined;
  const m = /^([0-9.]+):([0-9]+)$/.exec(v);
  if (!m) throw new Error(`--rope-yarn needs FACTOR:ORIG_CTX (e.g. 32:4096), got '${v}'`);
  return { factor: Number(m[1]), origCtx: Number(m[2]) };
}

async function make(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      preset: { type: 'string', default: 'builtin' },
      dtype: { type: 'string' },
      arch: { type: 'string' },
      out: { type: 'string' },
      'data-dir': { type: 'string' },
      dim: { type: 'string' },
      layers: { type: 'string' },
      heads: { type: 'string' },
      'kv-heads': { type: 'string' },
      ffn: { type: 'string' },
      experts: { type: 'string' },
      'experts-used': { type: 'string' },
      'expert-ffn': { type: 'string' },
      ctx: { type: 'string' },
      'rope-theta': { type: 'string' },
      eps: { type: 'string' },
      tied: { type: 'boolean' },
      untied: { type: 'boolean' },
      seed: { type: 'string' },
      scale: { type: 'string' },
      vocab: { type: 'string' },
      'vocab-limit': { type: 'string' },
      pre: { type: 'string' },
      name: { type: 'string' },
      'kquant-search': { type: 'string' },
      'head-dim': { type: 'string' },
      'sliding-window': { type: 'string' },
      'rope-scale': { type: 'string' },
      'rope-factors': { type: 'boolean' },
      'rope-yarn': { type: 'string' },
    },
  });
  const preset = values.preset as PresetName;
  if (!(preset in PRESETS)) throw new Error(`unknown preset '${preset}' (have: ${Object.keys(PRESETS).join(', ')})`);
  if (values.tied && values.untied) throw new Error('--tied and --untied exclude each other');
  const over: Partial<ModelSpec> = {
    dtype: values.dtype as ModelSpec['dtype'] | undefined,
    arch: values.arch as ModelSpec['arch'] | undefined,
    dim: num(values.dim, 'dim'),
    layers: num(values.layers, 'layers'),
    heads: num(values.heads, 'heads'),
    kvHeads: num(values['kv-heads'], 'kv-heads'),
    ffn: num(values.ffn, 'ffn'),
    experts: num(values.experts, 'experts'),
    expertsUsed: num(values['experts-used'], 'experts-used'),
    expertFfn: num(values['expert-ffn'], 'expert-ffn'),
    ctx: num(values.ctx, 'ctx'),
    ropeTheta: num(values['rope-theta'], 'rope-theta'),
    eps: num(values.eps, 'eps'),
    tied: values.tied ? true : values.untied ? false : undefined,
    seed: num(values.seed, 'seed'),
    scale: num(values.scale, 'scale'),
    vocab: values.vocab as ModelSpec['vocab'] | undefined,
    vocabLimit: num(values['vocab-limit'], 'vocab-limit'),
    pre: values.pre,
    name: values.name,
    kquantSearch: values['kquant-search'] as ModelSpec['kquantSearch'],
    headDim: num(values['head-dim'], 'head-dim'),
    slidingWindow: num(values['sliding-window'], 'sliding-window'),
    ropeScale: num(values['rope-scale'], 'rope-scale'),
    ropeFactors: values['rope-factors'],
    ropeYarn: yarnOption(values['rope-yarn']),
  };
  if (over.vocab !== undefined && !(VOCABS as readonly string[]).includes(over.vocab)) throw new Error(`--vocab must be one of ${VOCABS.join(', ')}`);
  const spec = resolveSpec(preset, over);
  const dataDir = resolve(values['data-dir'] ?? process.env['SVC_DATA_DIR'] ?? 'data');
  const customised = Object.values(over).some((v) => v !== undefined);
  const out = values.out
    ? resolve(values.out)
    : preset === 'builtin' && !customised
      ? builtinModelPath(dataDir)
      : resolve(dataDir, 'models', `${preset}-${spec.dtype}.gguf`);
  const r = await makeModel(spec, out);
  const counts: Record<string, number> = {};
  for (const t of Object.values(r.tensorTypes)) counts[ggmlTypeName(t)] = (counts[ggmlTypeName(t)] ?? 0) + 1;
  console.log(
    `wrote ${r.path}\n  ${spec.arch} ${spec.dim}/${spec.layers}/${spec.heads}/${spec.kvHeads}/${spec.ffn}` +
      `${spec.experts ? ` experts ${spec.expertsUsed}/${spec.experts} x ${spec.expertFfn ?? spec.ffn}` : ''} ctx ${spec.ctx} ${spec.tied ? 'tied' : 'untied'} ${spec.dtype}` +
      `\n  ${(r.params / 1e6).toFixed(1)}M params, ${(r.bytes / 2 ** 20).toFixed(1)} MiB, ${(r.ms / 1000).toFixed(1)} s` +
      `\n  tensor types: ${Object.entries(counts).map(([k, v]) => `${k}×${v}`).join(' ')}`,
  );
  return 0;
}

function info(argv: string[]): number {
  const path = argv[0];
  if (!path) throw new Error('info needs a PATH: svc model info PATH');
  const h = readGgufHeader(path);
  console.log(`${path}: GGUF v${h.version}, ${h.tensors.length} tensors, alignment ${h.alignment}, data at ${h.dataOffset}, ${h.fileSize} bytes`);
  for (const [k, v] of Object.entries(h.metadata)) {
    let s: string;
    if (typeof v === 'string') s = v.length > 120 ? `${JSON.stringify(v.slice(0, 117))}… (${v.length} chars)` : JSON.stringify(v);
    else if (v && typeof v === 'object' && 'length' in v) {
      const a = Array.from(v as ArrayLike<unknown>);
      s = `[${a.slice(0, 6).map((x) => JSON.stringify(x)).join(', ')}${a.length > 6 ? ', …' : ''}] (${a.length} items)`;
    } else s = String(v);
    console.log(`  ${k} = ${s}`);
  }
  for (const t of h.tensors) console.log(`  ${t.name.padEnd(28)} ${ggmlTypeName(t.type).padEnd(5)} [${t.dims.join(', ')}] @${t.offset}`);
  return 0;
}

export const command: Command = {
  summary: 'make the built-in (or a benchmark-shaped) GGUF model; inspect a GGUF file',
  async run(argv) {
    const [sub, ...rest] = argv;
    try {
      if ((sub === 'make' || sub === 'info') && asksHelp(rest)) return usageAnswer('svc model', HELP, '--help');
      if (sub === 'make') return await make(rest);
      if (sub === 'info') return info(rest);
      return usageAnswer('svc model', HELP, sub);
    } catch (e) {
      console.error(`svc model: ${(e as Error).message}`);
      return 2;
    }
  },
};
