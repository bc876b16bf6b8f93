// The loader must read what the file says, not what our own writer happens to do. Each family's
// model is rewritten with another tool's GGUF serializer (@huggingface/gguf, the Hugging Face hub's
// reader/writer): metadata in another key order, optional keys whose defaults apply left out, a
// 64-byte general.alignment, and the tensors stored in reverse order. Our engine must give the same
// logits on both files, bit for bit, and so must llama.cpp (which shows both files say the same).
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { GGUFValueType, gguf, serializeGgufMetadata, type GGUFTypedMetadata } from '@huggingface/gguf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel } from '../../src/engine/index.js';
import type { ModelSpec } from '../../src/model-maker/index.js';
import { loadLlamaCpp, type LlamaCppPeer } from '../../src/peer/llamacpp.js';
import { getTestModel, testModelDir } from '../helpers/models.js';

const ALIGN = 64;
const SHAPE: Partial<ModelSpec> = { dim: 256, layers: 2, heads: 4, kvHeads: 2, ffn: 512, ctx: 512, vocabLimit: 2000, scale: 0.05, dtype: 'q8_0' };
const CASES: Array<{ arch: ModelSpec['arch']; extra: Partial<ModelSpec> }> = [
  { arch: 'qwen3', extra: { headDim: 128 } },
  { arch: 'gemma2', extra: { slidingWindow: 16 } },
  { arch: 'gemma3', extra: { headDim: 128, slidingWindow: 16, layers: 6 } },
  { arch: 'phi3', extra: { ropeFactors: true, tied: false } },
  { arch: 'llama', extra: { ropeFactors: true, tied: false } },
  {
    arch: 'gpt-oss',
    extra: { headDim: 64, experts: 8, expertsUsed: 2, expertFfn: 256, slidingWindow: 16, ropeYarn: { factor: 32, origCtx: 128 }, tied: false, dtype: 'mxfp4_moe' },
  },
];

/** Keys whose value equals the default a reader must assume when the key is absent. */
function droppable(md: GGUFTypedMetadata, arch: string): string[] {
  const get = (k: string) => (md as Record<string, { value: unknown }>)[k]?.value;
  const keys = [`${arch}.vocab_size`, 'general.name', 'svc.model_maker.spec', 'svc.model_maker.version'];
  if (get(`${arch}.attention.head_count_kv`) === get(`${arch}.attention.head_count`)) keys.push(`${arch}.attention.head_count_kv`);
  const hd = (get(`${arch}.attention.key_length`) as number | undefined) ?? Number(get(`${arch}.embedding_length`)) / Number(get(`${arch}.attention.head_count`));
  if (get(`${arch}.rope.dimension_count`) === hd) keys.push(`${arch}.rope.dimension_count`);
  return keys;
}

function u64(n: bigint | number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}
function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/** Writes `src` again through @huggingface/gguf's metadata serializer, rearranged; returns the path. */
async function rewrite(src: string, dst: string): Promise<void> {
  const parsed = await gguf(src, { allowLocalFile: true, typedMetadata: true });
  const md = parsed.typedMetadata;
  const arch = String(parsed.metadata['general.architecture']);
  const drop = new Set(droppable(md, arch));
  const entries = Object.entries(md).filter(([k]) => !drop.has(k) && k !== 'general.alignment');
  // Header fields first (the serializer reads them by name), then the keys in reverse order.
  const head = entries.filter(([k]) => k === 'version' || k === 'tensor_count' || k === 'kv_count');
  const kvs = entries.filter(([k]) => !(k === 'version' || k === 'tensor_count' || k === 'kv_count')).reverse();
  const rearranged = Object.fromEntries([...head, ...kvs, ['general.alignment', { value: ALIGN, type: GGUFValueType.UINT32 }]]) as GGUFTypedMetadata;
  // Alignment 1: no padding after the key/values (the tensor infos follow them directly).
  const kvBytes = serializeGgufMetadata(rearranged, { alignment: 1 });

  const tensors = [...parsed.tensorInfos].reverse();
  const sizes = new Map<string, number>();
  const ordered = [...parsed.tensorInfos].sort((a, b) => Number(a.offset - b.offset));
  for (let i = 0; i < ordered.length; i++) {
    const end = i + 1 < ordered.length ? Number(ordered[i + 1]!.offset) : Number.NaN;
    sizes.set(ordered[i]!.name, end - Number(ordered[i]!.offset));
  }
  const fdIn = openSync(src, 'r');
  const fileSize = (await import('node:fs')).fstatSync(fdIn).size;
  const last = ordered[ordered.length - 1]!;
  sizes.set(last.name, fileSize - Number(parsed.tensorDataOffset) - Number(last.offset));
  const infos: Buffer[] = [];
  let off = 0;
  const placed: Array<{ srcOff: number; dstOff: number; size: number }> = [];
  for (const t of tensors) {
    const name = Buffer.from(t.name, 'utf8');
    infos.push(u64(name.length), name, u32(t.n_dims), ...t.shape.map((d) => u64(d)), u32(t.dtype), u64(off));
    const size = sizes.get(t.name)!;
    placed.push({ srcOff: Number(parsed.tensorDataOffset) + Number(t.offset), dstOff: off, size });
    off = Math.ceil((off + size) / ALIGN) * ALIGN;
  }
  const header = Buffer.concat([Buffer.from(kvBytes), ...infos]);
  const dataStart = Math.ceil(header.length / ALIGN) * ALIGN;
  const fdOut = openSync(dst, 'w');
  try {
    writeSync(fdOut, header);
    writeSync(fdOut, Buffer.alloc(dataStart - header.length));
    for (const p of placed) {
      const buf = Buffer.alloc(p.size);
      readSync(fdIn, buf, 0, p.size, p.srcOff);
      writeSync(fdOut, buf, 0, p.size, dataStart + p.dstOff);
    }
    const end = dataStart + off;
    writeSync(fdOut, Buffer.alloc(1), 0, 1, end - 1);
  } finally {
    closeSync(fdIn);
    closeSync(fdOut);
  }
}

let peer: LlamaCppPeer;
beforeAll(async () => {
  peer = await loadLlamaCpp();
}, 600_000);
afterAll(async () => {
  await peer?.dispose();
});

describe.each(CASES)('a $arch GGUF written by another tool', ({ arch, extra }) => {
  it('loads, and gives the same logits as our own file in our engine and in llama.cpp', async () => {
    const ours = await getTestModel({ ...SHAPE, ...extra, arch, name: 'foreign-src' });
    const foreign = join(testModelDir(), `foreign-${arch}-${ours.split('-').pop()}`);
    await rewrite(ours, foreign);
    const seq = Array.from({ length: 48 }, (_, i) => 100 + ((i * 37) % 1500));

    const logits = async (path: string) => {
      const m = await loadModel(path, { threads: 1, kvCacheTokens: 512, prefixCache: false });
      try {
        return (await m.evaluate(seq, { allLogits: true })).logits;
      } finally {
        m.unload();
      }
    };
    const [a, b] = [await logits(ours), await logits(foreign)];
    expect(b.length).toBe(a.length);
    let same = true;
    for (let i = 0; i < a.length && same; i++) same = a[i] === b[i];
    expect(same, 'our engine reads the rewritten file differently').toBe(true);

    const peerTops = async (path: string) => {
      const ref = await peer.loadModel(path);
      try {
        return await ref.teacherForce(seq, 5);
      } finally {
        await ref.dispose();
      }
    };
    expect(await peerTops(foreign)).toEqual(await peerTops(ours));
  }, 300_000);
});
