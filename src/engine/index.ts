// The engine's TS entry: loadModel() gives a LoadedModel (src/engine/types.ts) over the native
// engine. Loading the same path twice in a process shares weights, KV pool and scheduler.
import { native, type NativeLoadOptions } from '../native/binding.js';
import { EngineError } from './engine-errors.js';
import { ENGINE_DEFAULTS } from '../config.js';
import { NativeModel, type EngineModel } from './native-model.js';
import { markEventLoopThread } from './loop-slice.js';

export type { EngineModel, EvaluateOptions, EvaluateResult } from './native-model.js';

export interface LoadModelOptions {
  /** Compute threads (including the scheduler thread). Defaults for every option: ENGINE_DEFAULTS (src/config.ts). */
  threads?: number;
  /** KV cache budget in MiB. */
  kvCacheMb?: number;
  /** KV cache budget in tokens (overrides kvCacheMb; rounded up to whole blocks). */
  kvCacheTokens?: number;
  /** Radix prefix cache. */
  prefixCache?: boolean;
  /** Model id reported in ModelInfo (default: file name without .gguf). */
  id?: string;
  /** Tokens per engine step (chunked-prefill budget). */
  maxBatchTokens?: number;
  /** Sequences decoding at once. */
  maxSequences?: number;
  /** Interactive requests that may wait for one of those slots; past it generate() rejects with
   *  503 overloaded at once. Batch-priority requests are not counted (the batch runner bounds its
   *  own). */
  maxQueued?: number;
  /** Cap the context below the model's context_length. */
  contextLength?: number;
  /** Tokens per KV block. */
  blockTokens?: number;
  /** 'auto' (default): the GPU when one is usable; 'off': CPU only. */
  gpu?: 'auto' | 'off';
  /** Prefill first: a step that can finish interactive prompts leaves the decoding sequences out
   *  (when that at least halves its work; CPU only) while none of them has waited this long for
   *  its next token. 0 always mixes them in. */
  decodeStallMs?: number;
  /** How much lower than the process the engine's compute threads run (nice increment, 0..19;
   *  Linux): while the event loop has work, it gets a core before the matmuls do. */
  engineNice?: number;
}

export async function loadModel(path: string, opts: LoadModelOptions = {}): Promise<EngineModel> {
  const blockTokens = opts.blockTokens ?? ENGINE_DEFAULTS.blockTokens;
  const n: NativeLoadOptions = {
    threads: opts.threads ?? ENGINE_DEFAULTS.threads,
    kvCacheMb: opts.kvCacheMb ?? ENGINE_DEFAULTS.kvCacheMb,
    prefixCache: opts.prefixCache ?? ENGINE_DEFAULTS.prefixCache,
    maxBatchTokens: opts.maxBatchTokens ?? ENGINE_DEFAULTS.maxBatchTokens,
    maxSequences: opts.maxSequences ?? ENGINE_DEFAULTS.maxSequences,
    blockTokens,
    contextLength: opts.contextLength ?? 0,
    gpu: opts.gpu ?? 'auto',
    decodeStallMs: opts.decodeStallMs ?? ENGINE_DEFAULTS.decodeStallMs,
    engineNice: opts.engineNice ?? ENGINE_DEFAULTS.engineNice,
  };
  if (opts.kvCacheTokens !== undefined) n.kvBlocks = Math.max(1, Math.ceil(opts.kvCacheTokens / blockTokens));
  let handle;
  try {
    handle = await native().loadModel(path, n);
  } catch (e) {
    throw new EngineError({ kind: 'load_failed' }, (e as Error).message);
  }
  markEventLoopThread();
  return new NativeModel(handle, path, opts.id, { maxRunning: n.maxSequences ?? ENGINE_DEFAULTS.maxSequences, maxWaiting: opts.maxQueued ?? ENGINE_DEFAULTS.maxQueued });
}
