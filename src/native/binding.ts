// The typed mirror of the native addon's engine surface, and the ONLY importer of the .node file.
// Handles are opaque; every call that touches weights returns a promise. Native failures are
// Errors with `code` = ERR_ENGINE_<STATUS> (see NativeErrorCode) and a message naming the call.
import { createRequire } from 'node:module';
import { ADDON_PATH } from '../paths.js';

export type ModelHandle = { readonly __model: never };
export type SessionHandle = { readonly __session: never };

export type NativeErrorCode =
  | 'ERR_ENGINE_OVERLOADED'
  | 'ERR_ENGINE_CONTEXT_LENGTH_EXCEEDED'
  | 'ERR_ENGINE_INVALID_ARGUMENT'
  | 'ERR_ENGINE_INTERNAL'
  | 'ERR_ENGINE_DISPOSED';

/** engine_status values carried in StepEvents.error. */
export enum NativeStatus {
  ok = 0,
  overloaded = 1,
  contextLengthExceeded = 2,
  invalidArgument = 3,
  internal = 4,
  disposed = 5,
}

/** finish_reason values carried in StepEvents.finish. */
export enum NativeFinish {
  none = 0,
  stop = 1,
  length = 2,
  cancelled = 3,
  grammarEnd = 4,
  error = 5,
}

/** embed() pooling, as GGUF <arch>.pooling_type numbers it. */
export enum NativePooling {
  mean = 1,
  cls = 2,
  last = 3,
}

export interface NativeLoadOptions {
  threads?: number;
  kvCacheMb?: number;
  /** Overrides kvCacheMb with an exact block count. */
  kvBlocks?: number;
  blockTokens?: number;
  prefixCache?: boolean;
  /** Tokens per forward pass (chunked-prefill budget per step). */
  maxBatchTokens?: number;
  /** Sequences running at once. */
  maxSequences?: number;
  /** Cap on the model's context length (0 = the model's). */
  contextLength?: number;
  /** Prefill first while no decoding sequence has waited this long for its next token (0 = off). */
  decodeStallMs?: number;
  /** Nice increment (0..19) of the engine's own compute threads (its loop and pool workers). */
  engineNice?: number;
  /** 'auto' (default): run the forward pass on the GPU when one is usable; 'off': CPU only. */
  gpu?: 'auto' | 'off';
}

export interface NativeModelInfo {
  path: string;
  architecture: string;
  contextLength: number;
  trainContextLength: number;
  vocabSize: number;
  embeddingLength: number;
  layers: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  feedForwardLength: number;
  tiedOutput: boolean;
  bosToken: number | null;
  eosTokens: number[];
  blockTokens: number;
  kvDim: number;
  fingerprint: string;
  threads: number;
  maxBatchTokens: number;
  maxSequences: number;
  decodeStallMs: number;
  engineNice: number;
}

export interface NativeStats {
  cacheEnabled: boolean;
  lookups: number;
  hitTokens: number;
  promptTokens: number;
  cachedTokens: number;
  kvBlocksTotal: number;
  kvBlocksUsed: number;
  running: number;
  queued: number;
  steps: number;
  preemptions: number;
  /** Moving average of recent scheduler step durations (0 before the first step). */
  stepSeconds: number;
  /** Compute time of the latest exportKv job (0 before the first). */
  exportSeconds: number;
  /** Tokens the latest exportKv job computed (not copied from the cache). */
  exportTokens: number;
  /** Queue time (submit until first admitted to run) histogram: upper bounds in seconds, counts
   *  per bucket (not cumulative; one more than bounds, the last past the last bound), sum. */
  queueTimeBounds: number[];
  queueTimeCounts: number[];
  queueTimeSum: number;
  modelsLoaded: number;
  /** A CUDA device is usable in this process (CUDA compiled in and a GPU answered). */
  gpuAvailable: boolean;
  /** This model's forward pass runs on the GPU. */
  gpuInUse: boolean;
}

export interface NativeSystemInfo {
  /** The addon was built with the CUDA kernels (nvcc found at build time). */
  cudaCompiled: boolean;
  gpuAvailable: boolean;
  cudaDevices: { name: string; computeCapability: string; totalMiB: number; freeMiB: number; peakGBps: number }[];
  /** Why no GPU is usable ('' when one is). */
  gpuError: string;
}

export interface NativeSubmitOptions {
  maxTokens: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  minP?: number;
  repetitionPenalty?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  biasIds?: Int32Array;
  biasValues?: Float32Array;
  seed?: number;
  /** -1 (default): no logprobs; 0..20: the chosen token's logprob plus that many top ones. */
  topLogprobs?: number;
  stopTokens?: Int32Array;
  batchPriority?: boolean;
  /** Speculative decoding: the expected output, verified in batched passes (greedy, no grammar only). */
  draft?: Uint32Array | Int32Array;
  /** Draft tokens verified per step (0..64, default 16). */
  maxDraft?: number;
  /** Grammar: JSON schema text, or the fixed grammars. */
  grammar?: { kind: 'json_schema'; schema: string } | { kind: 'json_object' } | { kind: 'event_lines' };
}

/** The events of one engine step for one session (struct of arrays, one entry per event).
 *  token = -1 marks a pure finish event; topIds/topLogprobs hold nTop[i] entries per event, in order. */
export interface StepEvents {
  seq: Float64Array;
  token: Int32Array;
  logprob: Float32Array;
  finish: Uint8Array;
  error: Int32Array;
  promptTokens: Int32Array;
  cachedTokens: Int32Array;
  nTop: Uint8Array;
  topIds: Int32Array;
  topLogprobs: Float32Array;
  /** Present only in steps that finish a sequence submitted with a draft: [i*3] draft tokens
   *  proposed (-1: event of a sequence without a draft), [i*3+1] accepted, [i*3+2] forward passes
   *  that produced its tokens. */
  draft?: Int32Array;
}

export type StepCallback = (
  seq: Float64Array,
  token: Int32Array,
  logprob: Float32Array,
  finish: Uint8Array,
  error: Int32Array,
  promptTokens: Int32Array,
  cachedTokens: Int32Array,
  nTop: Uint8Array,
  topIds: Int32Array,
  topLogprobs: Float32Array,
  draft: Int32Array | undefined,
) => void;

export interface NativeEvalOptions {
  /** Top-k (ids and raw logits) per position. */
  topK?: number;
  /** Positions whose full logits are returned. */
  positions?: Int32Array;
  /** Full logits of every position. */
  allLogits?: boolean;
}

export interface NativeEvalResult {
  nTokens: number;
  topK: number;
  /** [nTokens][topK] ids, best first. */
  topIds: Int32Array;
  /** [nTokens][topK] raw logits. */
  topLogits: Float32Array;
  /** Positions whose full logits are in `logits`, in that order. */
  logitPositions: Int32Array;
  /** [logitPositions.length][vocabSize]. */
  logits: Float32Array;
}

export interface NativeBinding {
  readonly engineAbiVersion: number;
  /** native/engine/abi.h's names by value; checked against NativeStatus / NativeFinish at load. */
  readonly engineStatusNames: readonly string[];
  readonly finishReasonNames: readonly string[];
  version(): string;
  loadModel(path: string, opts: NativeLoadOptions): Promise<ModelHandle>;
  unloadModel(model: ModelHandle): void;
  modelMetadata(model: ModelHandle): Record<string, unknown>;
  modelInfo(model: ModelHandle): NativeModelInfo;
  modelStats(model: ModelHandle): NativeStats;
  /** onStep gets one step's StepEvents arrays as arguments, in the interface's order (draft
   *  undefined when absent); step-dispatcher.ts puts them together. */
  openSession(model: ModelHandle, onStep: StepCallback): SessionHandle;
  closeSession(session: SessionHandle): void;
  /** Compiles a JSON-schema grammar on the thread pool into the native memo that submit() reads;
   *  rejects (invalid argument, "grammar: …") for a schema it refuses. */
  compileGrammar(schema: string): Promise<void>;
  submit(session: SessionHandle, prompt: Uint32Array, opts: NativeSubmitOptions): number;
  cancel(session: SessionHandle, seq: number): void;
  /** Submits until the matching releaseSubmits reach the engine's scheduler together (admitted in
   *  the same step); holds nest, and one left open lapses after 20 ms (engine::kMaxSubmitHold). */
  holdSubmits(session: SessionHandle): void;
  releaseSubmits(session: SessionHandle): void;
  evaluate(model: ModelHandle, tokens: Uint32Array, opts: NativeEvalOptions): Promise<NativeEvalResult>;
  cachedPrefixTokens(model: ModelHandle, tokens: Uint32Array): number;
  /** Full blocks [fromBlock, tokens.length / blockTokens) of tokens, computing what is not cached. */
  /** maxComputeTokens: compute at most this many uncached tokens (engine::export_kv); -1 or absent: all. */
  exportKv(model: ModelHandle, tokens: Uint32Array, fromBlock: number, maxComputeTokens?: number): Promise<Uint8Array[]>;
  /** Blocks firstBlock.. of tokens into the prefix cache; resolves to the tokens cached afterwards. */
  importKv(model: ModelHandle, tokens: Uint32Array, firstBlock: number, blocks: Uint8Array[]): Promise<number>;
  /** Pooled final-normed hidden states of each input ([inputs][embeddingLength], not normalised);
   *  `tokens` holds every input's ids one after another, `lengths` their counts. The inputs share
   *  forward passes on the scheduler thread (CPU forward, also where a GPU runs generation). */
  embed(model: ModelHandle, tokens: Uint32Array, lengths: Int32Array, pooling: NativePooling): Promise<Float32Array>;
  /** Test hook: the scheduler's next wake-up with work sleeps this long first (a stuck scheduler). */
  debugStallScheduler(model: ModelHandle, ms: number): void;
  /** Build and device facts: CUDA compiled in, GPU usable, device name and memory. */
  systemInfo(): NativeSystemInfo;
  /** Gives the calling thread a short scheduler slice (100..100,000 µs; Linux 6.12+), keeping its
   *  nice value: on waking it preempts a compute thread at once. False where the kernel refused. */
  markLatencyThread(sliceUs: number): boolean;
  /** Replays the engine's speculative-draft policy on a known output (no model): what it would
   *  propose, accept, and how many steps it would take. For tests and benches of the policy. */
  draftReplay(output: Uint32Array | Int32Array, draft: Uint32Array | Int32Array, maxDraft: number): { proposed: number; accepted: number; steps: number };
}

export const ENGINE_ABI_VERSION = 1;

let cached: NativeBinding | undefined;

/** The addon, loaded once per JS environment. SVC_ADDON_PATH overrides the path (benchmarks of other builds). */
export function native(): NativeBinding {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const b = require(process.env.SVC_ADDON_PATH || ADDON_PATH) as NativeBinding;
  if (b.engineAbiVersion !== ENGINE_ABI_VERSION) {
    throw new Error(`addon engine ABI ${String(b.engineAbiVersion)} != expected ${ENGINE_ABI_VERSION}; rebuild with node scripts/build.mjs`);
  }
  checkEnumTable('engine status', NativeStatus, b.engineStatusNames);
  checkEnumTable('finish reason', NativeFinish, b.finishReasonNames);
  cached = b;
  return b;
}

/** The addon's names by value must be this enum's members (camelCase here, snake_case there). */
function checkEnumTable(what: string, e: Record<string, string | number>, names: readonly string[] | undefined): void {
  const ours = Object.entries(e).filter((kv): kv is [string, number] => typeof kv[1] === 'number');
  const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const same = names !== undefined && names.length === ours.length && ours.every(([k, v]) => names[v] === snake(k));
  if (!same) {
    throw new Error(`addon ${what} table [${names?.join(', ') ?? 'missing'}] differs from src/native/binding.ts; rebuild with node scripts/build.mjs or update both`);
  }
}

export function isNativeError(e: unknown): e is Error & { code: NativeErrorCode } {
  const code = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('ERR_ENGINE_');
}
