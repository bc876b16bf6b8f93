// A prefiller's KV export in chunks. The engine runs one exportKv call as one job that holds its
// scheduler until the whole prompt is prefilled, so every other sequence on it stalls for that
// long. Exporting in chunks, one engine job each, lets the engine run other sequences' steps
// between the jobs: each job finds what came before it in the prefix cache (and a block an earlier
// job computed in part, which the engine keeps) and computes only its own chunk. Cancelling stops
// between chunks.
//
// Chunks are sized by time, not by a token count: the engine's scheduler runs the jobs queued
// before a step and then the step, and only one chunk per engine is in flight at a time (below),
// so a decoding sequence waits for at most one chunk between two of its tokens. Each chunk is
// sized to cost about one of the engine's recent steps (from the previous chunk's cost per token,
// scaled to the new chunk's position: attention grows with it), down to a single token, so that
// sequence's gap stays about two steps. When nothing runs on the engine there is nobody to wait,
// and chunks are long.
import type { EngineStats, KvBlock, KvTransfer } from '../engine/types.js';

/** Fixed tokens per export call when the export is not paced (rounded down to whole blocks). */
export const EXPORT_CHUNK_TOKENS = 32;
/** A paced chunk's budget, in the engine's recent step times: a decoding sequence's gap is then
 *  about one step and one chunk. */
export const STEP_BUDGET = 1;
/** The longest chunk: when nothing decodes on the engine, and the cap for paced chunks. */
export const MAX_CHUNK_TOKENS = 256;

/** What the engine reports to pace an export. */
export interface ExportPacing {
  /** The engine's recent step time in ms while some sequence is running on it; null when none is. */
  stepMs(): number | null;
  /** The engine's own measure of the export call that just returned: compute time (ms) and the
   *  tokens it computed; null when it does not report them (the call's wall time and the tokens
   *  asked for are used then). */
  lastExport(): { ms: number; tokens: number } | null;
}

/** Pacing from an engine's stats (recentStepMs, lastExportMs/Tokens, runningSequences). */
export function enginePacing(model: { stats(): EngineStats }): ExportPacing {
  return {
    stepMs: () => {
      const s = model.stats();
      return s.runningSequences > 0 ? (s.recentStepMs ?? 0) : null;
    },
    lastExport: () => {
      const s = model.stats();
      return s.lastExportMs !== undefined && s.lastExportTokens !== undefined ? { ms: s.lastExportMs, tokens: s.lastExportTokens } : null;
    },
  };
}

/** The previous chunk: its first computed position, computed tokens and cost. */
export interface ChunkCost {
  start: number;
  tokens: number;
  ms: number;
}

/**
 * Tokens to compute in the next chunk, starting at position `start`: at least one (an export
 * always progresses), at most `maxTokens` and at most twice the previous chunk (a cheap
 * measurement does not turn into one long stall). With nobody decoding (`stepMs` null) the
 * longest chunk; with no measurement yet (of the chunk or of a step) one token.
 */
export function nextChunkTokens(start: number, prev: ChunkCost | null, stepMs: number | null, maxTokens = MAX_CHUNK_TOKENS, budget = STEP_BUDGET): number {
  if (stepMs === null) return maxTokens;
  if (prev === null || prev.tokens <= 0 || stepMs <= 0) return 1;
  // Cost per token grows with position (attention); scale the previous chunk's by the ratio of
  // mean positions, assuming a chunk of the same size (never scaled down: conservative).
  const prevMean = prev.start + prev.tokens / 2 + 1;
  const scale = Math.max(1, (start + prev.tokens / 2 + 1) / prevMean);
  const perToken = (prev.ms / prev.tokens) * scale;
  const fit = perToken > 0 ? Math.floor((budget * stepMs) / perToken) : maxTokens;
  return Math.max(1, Math.min(fit, 2 * prev.tokens, maxTokens));
}

export interface ChunkedExportOptions {
  /** False when the engine has no prefix cache: chunks could not build on each other, so the
   *  whole export is one call. */
  prefixCache: boolean;
  /** Sizes chunks by time (nextChunkTokens). Without it, chunks are `chunkTokens` long. */
  pacing?: ExportPacing;
  chunkTokens?: number;
  signal?: AbortSignal;
  /** Sees each paced chunk's measured cost (benchmarks, tests). */
  onChunkCost?: (cost: ChunkCost) => void;
}

// One export chunk per engine at a time: two exports on one engine take turns, so a decoding
// sequence still waits for one chunk per step, not one of each.
const turns = new WeakMap<KvTransfer, Promise<unknown>>();

function oneAtATime<T>(kv: KvTransfer, fn: () => Promise<T>): Promise<T> {
  const before = turns.get(kv) ?? Promise.resolve();
  const mine = before.then(fn);
  turns.set(kv, mine.catch(() => undefined));
  return mine;
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
  const fixedBlocks = opts.prefixCache ? Math.max(1, Math.floor((opts.chunkTokens ?? EXPORT_CHUNK_TOKENS) / bs)) : nFull;
  const pacing = opts.prefixCache ? opts.pacing : undefined;
  const whole = tokens.subarray(0, nFull * bs);
  // Blocks already cached cost only a copy: the first call takes them along with one chunk.
  const cached = Math.floor(kv.cachedPrefixTokens(tokens) / bs);
  let next = fromBlock;
  let sent = 0;
  let pos = Math.max(next, cached) * bs; // where the engine's computation of this prompt stands
  let prev: ChunkCost | null = null;
  let sinceBlock = 0; // tokens computed since a call last completed a block
  while (next < nFull) {
    if (opts.signal?.aborted) break;
    const from = next;
    const blocks = await oneAtATime(kv, async () => {
      if (opts.signal?.aborted) return null; // cancelled while another export's chunk ran
      if (!pacing) return kv.exportKv(tokens.subarray(0, Math.min(nFull, Math.max(from, cached) + fixedBlocks) * bs), from, opts.signal);
      let n = nextChunkTokens(pos, prev, pacing.stepMs());
      // A part block is kept by the engine for the next call, but only a few of them: if it was
      // dropped (many exports at once), computing it again in parts might never finish it.
      if (sinceBlock >= 2 * bs) n = Math.max(n, 2 * bs);
      const t0 = performance.now();
      const got = await kv.exportKv(whole, from, opts.signal, n);
      const measured = pacing.lastExport() ?? { ms: performance.now() - t0, tokens: n };
      prev = { start: pos, tokens: measured.tokens, ms: measured.ms };
      opts.onChunkCost?.(prev);
      pos += measured.tokens;
      sinceBlock = got.length > 0 ? 0 : sinceBlock + measured.tokens;
      return got;
    });
    if (!blocks) break;
    if (!pacing && blocks.length === 0) throw new Error('exportKv gave no blocks');
    if (blocks.some((b, i) => b.index !== from + i)) throw new Error(`exportKv gave blocks out of order from ${from}`);
    sent += blocks.length;
    next = from + blocks.length;
    pos = Math.max(pos, next * bs);
    if (blocks.length > 0 && (await onBlocks(blocks)) === false) break;
  }
  return sent;
}
