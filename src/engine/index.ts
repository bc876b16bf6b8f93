// The engine's TS entry: loadModel() gives a LoadedModel (src/engine/types.ts) over the native
// engine. Loading the same path twice in a process shares weights, KV pool and scheduler.
import { native, type NativeLoadOptions } from '../native/binding.js';
import { ApiError } from '../errors.js';
import { NativeModel, type EngineModel } from './native-model.js';

export type { EngineModel, EvaluateOptions, EvaluateResult } from './native-model.js';

export interface LoadModelOptions {
  /** Compute threads (including the scheduler thread). Default: 2. */
  threads?: number;
  /** KV cache budget in MiB (default 256). */
  kvCacheMb?: number;
  /** KV cache budget in tokens (overrides kvCacheMb; rounded up to whole blocks). */
  kvCacheTokens?: number;
  /** Radix prefix cache (default true). */
  prefixCache?: boolean;
  /** Model id reported in ModelInfo (default: file name without .gguf). */
  id?: string;
  /** Tokens per engine step (chunked-prefill budget). Default 512. */
  maxBatchTokens?: number;
  /** Sequences decoding at once. Default 64. */
  maxSequences?: number;
  /** Interactive requests that may wait for one of those slots; past it generate() rejects with
   *  503 overloaded at once. Batch-priority requests are not counted (the batch runner bounds its
   *  own). Default 1024. */
  maxQueued?: number;
  /** Cap the context below the model's context_length. */
  contextLength?: number;
  /** Tokens per KV block (default 16). */
  blockTokens?: number;
  /** 'auto' (default): the GPU when one is usable; 'off': CPU only. */
  gpu?: 'auto' | 'off';
  /** Prefill first: a step that can finish interactive prompts leaves the decoding sequences out
   *  (when that at least halves its work; CPU only) while none of them has waited this long for
   *  its next token. 0 always mixes them in. Default 50. */
  decodeStallMs?: number;
}

export async function loadModel(path: string, opts: LoadModelOptions = {}): Promise<EngineModel> {
  const blockTokens = opts.blockTokens ?? 16;
  const n: NativeLoadOptions = {
    threads: opts.threads ?? 2,
    kvCacheMb: opts.kvCacheMb ?? 256,
    prefixCache: opts.prefixCache ?? true,
    maxBatchTokens: opts.maxBatchTokens ?? 512,
    maxSequences: opts.maxSequences ?? 64,
    blockTokens,
    contextLength: opts.contextLength ?? 0,
    gpu: opts.gpu ?? 'auto',
    decodeStallMs: opts.decodeStallMs ?? 50,
  };
  if (opts.kvCacheTokens !== undefined) n.kvBlocks = Math.max(1, Math.ceil(opts.kvCacheTokens / blockTokens));
  let handle;
  try {
    handle = await native().loadModel(path, n);
  } catch (e) {
    throw new ApiError('model_not_ready', (e as Error).message);
  }
  return new NativeModel(handle, path, opts.id, { maxRunning: n.maxSequences ?? 64, maxWaiting: opts.maxQueued ?? 1024 });
}
