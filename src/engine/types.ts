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
}

export interface TokenLogprob {
  token: number;
  text: string;
  logprob: number;
}

export interface TokenEvent {
  token: number;
  /** UTF-8-safe text added by this token (may be '' while a character is incomplete). */
  text: string;
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
}

export interface ChatTemplateInput {
  messages: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  addGenerationPrompt: boolean;
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
}

/** One loaded model served by the engine. Shared by every API that uses it. */
export interface LoadedModel {
  readonly info: ModelInfo;
  tokenize(text: string, opts?: { addSpecial?: boolean; parseSpecial?: boolean }): Promise<Uint32Array>;
  detokenize(tokens: ArrayLike<number>): Promise<string>;
  /** Renders the model's own chat template (off the event loop). */
  renderChat(input: ChatTemplateInput): Promise<string>;
  /** Runs one generation; onToken is called on the event loop for each token, in order.
   *  Rejects with ApiError('overloaded') when KV memory stays exhausted, ('context_length_exceeded')
   *  when the prompt does not fit. Cancels (finishReason 'cancelled') when req.signal aborts. */
  generate(req: GenerateRequest, onToken: (ev: TokenEvent) => void): Promise<GenerateResult>;
  stats(): EngineStats;
}
