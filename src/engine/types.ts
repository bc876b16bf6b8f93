// The contract between the serving engine (src/engine + native/) and the API layers
// (chat, messages, batches, prediction). API code depends on these types only.

export interface SamplingParams {
  /** 0 means greedy. */
  temperature: number;
  topP: number;
  /** 0 disables. */
  topK: number;
  minP: number;
  repetitionPenalty: number;
  presencePenalty: number;
  frequencyPenalty: number;
  /** token id -> additive bias (-100..100; -100 bans). */
  logitBias: Record<number, number>;
  /** Same seed + same input -> same output. */
  seed?: number;
}

export type GrammarSpec =
  | { kind: 'json_schema'; schema: unknown }
  | { kind: 'json_object' }
  /** NDJSON of rrweb-style event objects ({"type":<int>,"data":{...}} per line). */
  | { kind: 'event_lines' };

export interface GenerateRequest {
  prompt: Uint32Array;
  maxTokens: number;
  sampling: SamplingParams;
  /** Extra token ids that end generation (the model's EOS/EOT ids always do). */
  stopTokens?: number[];
  grammar?: GrammarSpec;
  /** Number of top log-probabilities to return per token (0..20); undefined = none. */
  topLogprobs?: number;
  /** Batch work yields to interactive work. */
  priority?: 'interactive' | 'batch';
  signal?: AbortSignal;
  /** Speculative decoding: the output this generation is expected to produce (e.g. a merged file).
   *  Verified in batched forward passes when sampling is greedy and there is no grammar; the
   *  output is exactly what plain decoding gives, only the number of steps changes. Ignored otherwise. */
  draft?: Uint32Array;
  /** Draft tokens verified per step (1..64, default 16). */
  maxDraftTokens?: number;
}

export interface TokenLogprob {
  token: number;
  /** The token's own bytes (part of a UTF-8 character for some byte-level tokens). */
  bytes: Uint8Array;
  logprob: number;
}

export interface TokenEvent {
  token: number;
  /** UTF-8-safe text added by this token (may be '' while a character is incomplete). */
  text: string;
  /** On a generation's first token only: prompt tokens the prefix cache served (as the result's). */
  cachedTokens?: number;
  /** With topLogprobs requested: the token's own bytes (text holds whole characters only). */
  bytes?: Uint8Array;
  logprob?: number;
  topLogprobs?: TokenLogprob[];
}

export type FinishReason = 'stop' | 'length' | 'cancelled' | 'grammar_end';

export interface GenerateResult {
  finishReason: FinishReason;
  promptTokens: number;
  /** Prompt tokens served from the prefix cache. */
  cachedTokens: number;
  completionTokens: number;
  /** Text the last token events could not carry: a character left incomplete at the end, as
   *  U+FFFD (what decoding the whole output gives). Absent when there is none. */
  tailText?: string;
  /** Only for a request with a draft. */
  speculative?: SpeculativeStats;
}

export interface SpeculativeStats {
  /** Draft tokens proposed for verification (a draft token may be proposed again after a re-alignment). */
  drafted: number;
  /** Proposed draft tokens the model's greedy choice agreed with. */
  accepted: number;
  /** Forward passes that produced this generation's tokens (plain decoding: one per token). */
  steps: number;
}

export interface ChatTemplateInput {
  messages: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  addGenerationPrompt: boolean;
  /** Text the assistant's turn starts with (a prefill), written after the generation prompt. */
  assistantPrefill?: string;
  /** Extra template variables, e.g. reasoning_effort. */
  extra?: Record<string, unknown>;
}

export interface ModelInfo {
  id: string;
  path: string;
  architecture: string;
  contextLength: number;
  vocabSize: number;
  chatTemplate: string | null;
  bosToken: number | null;
  eosTokens: number[];
}

export interface CacheStats {
  enabled: boolean;
  lookups: number;
  hitTokens: number;
  promptTokens: number;
  /** hitTokens / promptTokens, 0 when nothing was looked up. */
  hitRate: number;
  /** Tokens whose KV is held by the prefix cache right now. */
  cachedTokens: number;
}

export interface EngineStats {
  cache: CacheStats;
  kvBlocksTotal: number;
  kvBlocksUsed: number;
  runningSequences: number;
  queuedSequences: number;
  gpuAvailable: boolean;
  /** Engine steps so far (forward passes of the scheduler; readiness watches it move). */
  steps?: number;
  /** Sequences preempted so far (KV memory ran dry mid-decode). */
  preemptions?: number;
  /** Moving average of recent scheduler step durations, ms (0 before the first step): how long a
   *  decoding sequence waits between tokens. Paces KV exports (src/predict/kv-export.ts). */
  recentStepMs?: number;
  /** Compute time of the latest KV export job, ms (0 before the first), and the tokens it
   *  computed (not copied from the cache). */
  lastExportMs?: number;
  lastExportTokens?: number;
  /** This model's forward pass runs on the GPU (false with gpuAvailable: it fell back to the CPU). */
  gpuInUse?: boolean;
  /** Time from submission until first admitted to run, as a histogram: upper bounds (seconds),
   *  counts per bucket (not cumulative; the last past the last bound) and the sum. */
  queueTime?: { bounds: readonly number[]; counts: readonly number[]; sum: number };
}

/** How an input's final hidden states become one vector (GGUF <arch>.pooling_type). */
export type Pooling = 'mean' | 'cls' | 'last';

export interface EmbedResult {
  pooling: Pooling;
  /** Length of each vector (the model's embedding length). */
  dims: number;
  /** [inputs][dims], each L2-normalised. */
  vectors: Float32Array;
}

/** Layout facts two engines must share before KV blocks can move between them. */
export interface KvLayout {
  /** Identifies the weights (e.g. sha of the GGUF header + tensor infos): blocks only move between equal models. */
  modelFingerprint: string;
  blockTokens: number;
  nLayers: number;
  /** Elements per token per layer for K (and for V). */
  kvDim: number;
  dtype: 'f32' | 'f16';
}

/** One full KV block of a token sequence: K and V of every layer for blockTokens tokens. */
export interface KvBlock {
  /** Position of the block in the sequence (block i covers tokens [i*blockTokens, (i+1)*blockTokens)). */
  index: number;
  /** Raw bytes, layout [layer][k then v][token][kvDim] in KvLayout.dtype. */
  data: Uint8Array;
}

/** Prefill/decode disaggregation: move prefix-cache blocks between processes. */
export interface KvTransfer {
  layout(): KvLayout;
  /** Tokens at the start of `tokens` whose KV this engine's prefix cache holds now (block-aligned). */
  cachedPrefixTokens(tokens: Uint32Array): number;
  /** Prefills `tokens` (reusing this engine's cache) and returns full blocks from `fromBlock` on.
   *  With `maxComputeTokens` (prefix cache on), computes at most that many uncached tokens (at
   *  least one) and returns the full blocks from `fromBlock` up to where it got; a block computed in
   *  part is kept for the next call over the same tokens (src/predict/kv-export.ts paces with it). */
  exportKv(tokens: Uint32Array, fromBlock: number, signal?: AbortSignal, maxComputeTokens?: number): Promise<KvBlock[]>;
  /** Inserts blocks of `tokens` into this engine's prefix cache; blocks must continue a cached prefix.
   *  Returns the number of tokens of `tokens` now cached. */
  importKv(tokens: Uint32Array, blocks: KvBlock[]): Promise<number>;
}

/** One loaded model served by the engine. Shared by every API that uses it. */
export interface LoadedModel {
  readonly info: ModelInfo;
  tokenize(text: string, opts?: { addSpecial?: boolean; parseSpecial?: boolean }): Promise<Uint32Array>;
  detokenize(tokens: ArrayLike<number>): Promise<string>;
  /** Renders the model's own chat template (off the event loop). */
  renderChat(input: ChatTemplateInput): Promise<string>;
  /** renderChat's answer at once where the model renders `input` on the event loop anyway (a short
   *  input); undefined where it would go to a worker. Spares a request's intake the promise hops. */
  renderChatNow?(input: ChatTemplateInput): string | undefined;
  /** tokenize's answer at once where the model tokenizes `text` on the event loop anyway; undefined
   *  where it would go to a worker. */
  tokenizeNow?(text: string, opts?: { addSpecial?: boolean; parseSpecial?: boolean }): Uint32Array | undefined;
  /** True where the model's tokenizer and chat template are the ones modelText(info.path) builds
   *  (text-worker.ts), so another thread can render and tokenize for it from the file alone. */
  readonly textFromPath?: boolean;
  /** Runs one generation; onToken is called on the event loop for each token, in order.
   *  Rejects with an EngineError: 'queue_full' past the admission limit, 'kv_exhausted' when KV
   *  memory stays exhausted, 'context_overflow' when the prompt does not fit. Cancels
   *  (finishReason 'cancelled') when req.signal aborts. */
  generate(req: GenerateRequest, onToken: (ev: TokenEvent) => void): Promise<GenerateResult>;
  /** Compiles a grammar as generate() would, without generating: rejects with the same
   *  EngineError ('grammar_rejected') for a JSON schema the engine refuses. */
  checkGrammar(grammar: GrammarSpec): Promise<void>;
  stats(): EngineStats;
  /** Embeddings of token inputs (pooled per the model's pooling type, L2-normalised); inputs of
   *  calls made together share engine passes. Absent: the model cannot embed. */
  embed?(inputs: readonly Uint32Array[]): Promise<EmbedResult>;
  /** Present when the engine supports moving KV blocks between processes. */
  readonly kv?: KvTransfer;
}
