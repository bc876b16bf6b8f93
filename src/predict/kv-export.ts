// A prefiller's KV export in chunks. The engine runs one exportKv call as one job that holds its
// scheduler until the whole prompt is prefilled, so every other sequence on it stalls for that
// long. Exporting a growing prefix of the prompt instead, a chunk of blocks per call, lets the
// engine run other sequences' steps between the calls: each call finds the blocks before it in
// the prefix cache and computes only its own chunk. Cancelling stops between chunks.
import type { KvBlock, KvTransfer } from '../engine/types.js';

/** Tokens per export call (rounded down to whole blocks, at least one). Small, so that a chunk
 *  holds the scheduler for a few decode steps (on a weight-bandwidth-bound model a 32-token pass
 *  costs about what a decode step does), yet not one block at a time, which would make a large
 *  model's prefill bandwidth-bound. Measured on the built-in shape exporting a 3.5k-token prompt
 *  beside a decoding stream (docs/predict.md): its longest gap 0.1 s with 32-token chunks,
 *  0.45-0.75 s with 512, 2.7-4 s with one call; the export took no longer in chunks. */
export const EXPORT_CHUNK_TOKENS = 32;

export interface ChunkedExportOptions {
  /** False when the engine has no prefix cache: chunks could not build on each other, so the
   *  whole export is one call. */
  prefixCache: boolean;
  chunkTokens?: number;
  signal?: AbortSignal;
}

/**
 * Exports the full blocks of `tokens` from `fromBlock` on, calling `onBlocks` with each chunk's
 * blocks in order (awaited: backpressure). Returns the number of blocks exported; stops early
 * (returning what was sent) when `signal` aborts or `onBlocks` returns false.
 */
export async function exportKvInChunks(kv: KvTransfer, tokens: Uint32Array, fromBlock: number, opts: ChunkedExportOptions, onBlocks: (blocks: KvBlock[]) => Promise<boolean | void>): Promise<number> {
  const bs = kv.layout().blockTokens;
  const nFull = Math.floor(tokens.length / bs);
  if (fromBlock >= nFull) return 0;
  const chunkBlocks = opts.prefixCache ? Math.max(1, Math.floor((opts.chunkTokens ?? EXPORT_CHUNK_TOKENS) / bs)) : nFull;
  // Blocks already cached cost only a copy: the first call takes them along with one chunk.
  const cached = Math.floor(kv.cachedPrefixTokens(tokens) / bs);
  let next = fromBlock;
  let sent = 0;
  while (next < nFull) {
    if (opts.signal?.aborted) break;
    const end = Math.min(nFull, Math.max(next, cached) + chunkBlocks);
    const blocks = await kv.exportKv(tokens.subarray(0, end * bs), next, opts.signal);
    if (blocks.length !== end - next) throw new Error(`exportKv gave ${blocks.length} blocks for ${end - next}`);
    sent += blocks.length;
    next = end;
    if ((await onBlocks(blocks)) === false) break;
  }
  return sent;
}
