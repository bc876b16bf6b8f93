// LoadedModel over the native engine: tokenizer and chat template in TS, generation in the
// engine's scheduler thread, token text decoded here with a UTF-8-safe stream decoder.
import { basename } from 'node:path';
import { native, NativeFinish, type ModelHandle, type NativeEvalResult, type NativeModelInfo, type NativeStats, type NativeSubmitOptions } from '../native/binding.js';
import type { Tokenizer } from '../tokenizer/index.js';
import type { ChatTemplate } from './chat-template.js';
import { EngineError, fromNativeError, fromNativeStatus } from './engine-errors.js';
import { StepDispatcher } from './step-dispatcher.js';
import { EmbedBatcher, type EmbedOptions } from './embed-batcher.js';
import { OFFLOAD_MIN_CHARS, runTextTask } from './text-pool.js';
import { modelText } from './text-worker.js';
import { watchAbort } from '../abort-watch.js';
import { microtask } from '../microtask.js';
import { leaveIntake, newestIntakeAt, onNextIntakeLeave } from '../intake.js';
import { gatherSubmits, type GatherDeps, type GatherEnd } from './gather-hold.js';
import type {
  ChatTemplateInput,
  EmbedResult,
  EngineStats,
  FinishReason,
  GenerateRequest,
  GenerateResult,
  GrammarSpec,
  KvBlock,
  KvLayout,
  KvTransfer,
  LoadedModel,
  ModelInfo,
  Pooling,
  TokenEvent,
  TokenLogprob,
} from './types.js';

export interface EvaluateOptions {
  /** Top-k token ids and raw logits at every position (default 0). */
  topK?: number;
  /** Positions whose full logits are returned. */
  positions?: number[];
  /** Full logits at every position (vocabSize floats each). */
  allLogits?: boolean;
}

/** The engine's answer as the binding returns it. */
export type EvaluateResult = NativeEvalResult;

/** LoadedModel plus what tests, tools and the prediction service need. */
export interface EngineModel extends LoadedModel {
  readonly kv: KvTransfer;
  readonly tokenizer: Tokenizer;
  /** Every GGUF metadata key (arrays as in src/gguf/gguf-reader.ts). */
  readonly metadata: Record<string, unknown>;
  readonly nativeInfo: NativeModelInfo;
  /** Teacher forcing: logits of every position of `tokens` (no sampling, no cache use). */
  evaluate(tokens: ArrayLike<number>, opts?: EvaluateOptions): Promise<EvaluateResult>;
  /** Raw engine counters (steps, preemptions, models loaded in the process, ...). */
  nativeStats(): NativeStats;
  /** Releases this handle (the weights stay while another handle in the process uses them). */
  unload(): void;
  /** How embed() pools (from the GGUF's <arch>.pooling_type; causal models without one: last token). */
  readonly pooling: Pooling;
  /** LoadedModel.embed, plus another pooling than the model's or raw (unnormalised) vectors. */
  embed(inputs: readonly Uint32Array[], opts?: EmbedOptions): Promise<EmbedResult>;
  /** Test hook: the scheduler's next wake-up with work sleeps `ms` first (a stuck scheduler). */
  debugStallScheduler(ms: number): void;
}

/** GGUF pooling_type: 0 none, 1 mean, 2 cls, 3 last, 4 rank. A causal LM without one (or none)
 *  embeds as its last token's state, as decoder embedding models (Qwen3-Embedding) are trained. */
export function poolingOf(metadata: Record<string, unknown>, arch: string): Pooling {
  const v = metadata[`${arch}.pooling_type`];
  if (v === 1 || v === 1n) return 'mean';
  if (v === 2 || v === 2n) return 'cls';
  return 'last';
}

const FINISH: Record<number, FinishReason> = {
  [NativeFinish.stop]: 'stop',
  [NativeFinish.length]: 'length',
  [NativeFinish.cancelled]: 'cancelled',
  [NativeFinish.grammarEnd]: 'grammar_end',
};

/** Size of the text in a template input, without serialising it. */
function approxChars(input: ChatTemplateInput): number {
  let n = 0;
  const visit = (v: unknown, depth: number): void => {
    if (depth > 6 || n >= OFFLOAD_MIN_CHARS) return;
    if (typeof v === 'string') n += v.length;
    else if (Array.isArray(v)) for (const x of v) visit(x, depth + 1);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) visit(x, depth + 1);
  };
  visit(input.messages, 0);
  visit(input.tools, 0);
  visit(input.assistantPrefill, 0);
  return n;
}

function toU32(tokens: ArrayLike<number>): Uint32Array {
  return tokens instanceof Uint32Array ? tokens : Uint32Array.from(tokens as ArrayLike<number>);
}

/** The grammar as submit() takes it (a JSON schema as its text). */
function nativeGrammar(grammar: GrammarSpec): NonNullable<NativeSubmitOptions['grammar']> {
  return grammar.kind === 'json_schema' ? { kind: 'json_schema', schema: JSON.stringify(grammar.schema) } : { kind: grammar.kind };
}

/** A JSON schema is compiled on the thread pool (a big one takes a while) into the native memo,
 *  which then hands submit() the compiled grammar without blocking the event loop. */
function compileSchema(schemaText: string): Promise<void> {
  return native()
    .compileGrammar(schemaText)
    .catch((e: unknown) => Promise.reject(fromNativeError(e)));
}

/** How long a hold that gathers a burst for an idle engine stays open at most (below the engine's
 *  own lapse, kMaxSubmitHold, 20 ms). */
export const MAX_GATHER_MS = 10;
/** The widest gather bound setSubmitHold takes: 2 ms under the engine's 20 ms lapse, so the
 *  engine never lets a hold lapse while this side still holds it open. */
export const MAX_GATHER_BOUND_MS = 18;

/** Submit holds: 0 off, 1 for one event-loop turn, 2 (the default) for one turn, or, when the
 *  engine is idle, across turns for as long as each brings new submits (holdSubmitsForTurn).
 *  SVC_SUBMIT_HOLD sets it; benchmarks flip it to compare in one process (setSubmitHold). */
export type SubmitHoldMode = 0 | 1 | 2;

export function submitHoldMode(env: NodeJS.ProcessEnv = process.env): SubmitHoldMode {
  const v = env.SVC_SUBMIT_HOLD;
  return v === '0' ? 0 : v === '1' ? 1 : 2;
}

/** Typed arrays a submit without logit bias shares (the engine only reads them). */
const NO_BIAS_IDS = new Int32Array(0);
const NO_BIAS_VALUES = new Float32Array(0);

const submitHold = { mode: submitHoldMode(), maxGatherMs: MAX_GATHER_MS };

/** For A/B benchmarks and tests: set the hold mode process-wide (true = 1, false = 0, as before)
 *  and, optionally, the gather bound (kept under the engine's 20 ms lapse). */
export function setSubmitHold(mode: boolean | SubmitHoldMode, maxGatherMs = MAX_GATHER_MS): void {
  submitHold.mode = mode === true ? 1 : mode === false ? 0 : mode;
  submitHold.maxGatherMs = Math.min(MAX_GATHER_BOUND_MS, Math.max(0, maxGatherMs));
}

/** How the gathering holds of this process ended so far (benchmarks read it around a run). */
const gatherEnds: Record<GatherEnd, number> = { quiet: 0, bound: 0 };

export function gatherEndCounts(): Readonly<Record<GatherEnd, number>> {
  return { ...gatherEnds };
}

export class NativeModel implements EngineModel {
  readonly info: ModelInfo;
  readonly tokenizer: Tokenizer;
  readonly metadata: Record<string, unknown>;
  readonly nativeInfo: NativeModelInfo;
  readonly kv: KvTransfer;
  /** Built by modelText(path), as the text pool's workers build theirs. */
  readonly textFromPath = true;
  private readonly template: ChatTemplate;
  private readonly dispatcher: StepDispatcher;
  readonly pooling: Pooling;
  private readonly embedder: EmbedBatcher;
  private readonly stopIds: Int32Array;
  private readonly stopSet: Set<number>;
  private unloaded = false;
  /** Interactive generate() calls not finished yet (running or waiting in the engine). */
  private interactive = 0;
  /** A submit hold is open until the current microtask queue has run (holdSubmitsForTurn). */
  private holding = false;
  /** Submits so far (the gathering hold watches it change). */
  private submitCount = 0;

  constructor(
    private readonly handle: ModelHandle,
    path: string,
    id: string | undefined,
    private readonly admission: { maxRunning: number; maxWaiting: number },
  ) {
    const n = native();
    this.metadata = n.modelMetadata(handle);
    this.nativeInfo = n.modelInfo(handle);
    const text = modelText(path, this.metadata);
    this.tokenizer = text.tokenizer;
    const eos = [...new Set([...this.nativeInfo.eosTokens, ...this.tokenizer.eog])];
    this.stopIds = Int32Array.from(eos);
    this.stopSet = new Set(eos);
    const chatTemplate = typeof this.metadata['tokenizer.chat_template'] === 'string' ? (this.metadata['tokenizer.chat_template'] as string) : null;
    this.info = {
      id: id ?? basename(path).replace(/\.gguf$/i, ''),
      path,
      architecture: this.nativeInfo.architecture,
      contextLength: this.nativeInfo.contextLength,
      vocabSize: this.nativeInfo.vocabSize,
      chatTemplate,
      bosToken: this.tokenizer.bos,
      eosTokens: eos,
    };
    this.template = text.template;
    this.dispatcher = new StepDispatcher(handle);
    this.kv = this.makeKvTransfer();
    this.pooling = poolingOf(this.metadata, this.nativeInfo.architecture);
    this.embedder = new EmbedBatcher(handle, this.pooling, this.nativeInfo.embeddingLength);
  }

  async tokenize(text: string, opts: { addSpecial?: boolean; parseSpecial?: boolean } = {}): Promise<Uint32Array> {
    const now = this.tokenizeNow(text, opts);
    if (now) return now;
    const addSpecial = opts.addSpecial ?? true;
    const parseSpecial = opts.parseSpecial ?? false;
    const r = await runTextTask({ op: 'tokenize', path: this.info.path, text, addSpecial, parseSpecial });
    return r?.tokens ?? this.tokenizer.encode(text, { addSpecial, parseSpecial });
  }

  tokenizeNow(text: string, opts: { addSpecial?: boolean; parseSpecial?: boolean } = {}): Uint32Array | undefined {
    if (text.length >= OFFLOAD_MIN_CHARS) return undefined;
    return this.tokenizer.encode(text, { addSpecial: opts.addSpecial ?? true, parseSpecial: opts.parseSpecial ?? false });
  }

  renderChatNow(input: ChatTemplateInput): string | undefined {
    if (approxChars(input) >= OFFLOAD_MIN_CHARS) return undefined;
    return this.template.render(input);
  }

  async detokenize(tokens: ArrayLike<number>): Promise<string> {
    return this.tokenizer.decode(tokens);
  }

  async renderChat(input: ChatTemplateInput): Promise<string> {
    const now = this.renderChatNow(input);
    if (now !== undefined) return now;
    const r = await runTextTask({ op: 'render', path: this.info.path, input });
    return r?.text ?? this.template.render(input);
  }

  generate(req: GenerateRequest, onToken: (ev: TokenEvent) => void): Promise<GenerateResult> {
    this.assertLoaded();
    const promptTokens = req.prompt.length;
    if (promptTokens === 0) return Promise.reject(new EngineError({ kind: 'empty_input', input: 'prompt' }, 'the prompt is empty'));
    if (promptTokens >= this.info.contextLength) {
      const fault = { kind: 'context_overflow', input: 'prompt', tokens: promptTokens, context: this.info.contextLength } as const;
      return Promise.reject(new EngineError(fault, `the prompt has ${promptTokens} tokens; the context holds ${this.info.contextLength}`));
    }
    const cancelled: GenerateResult = { finishReason: 'cancelled', promptTokens, cachedTokens: 0, completionTokens: 0 };
    if (req.signal?.aborted) return Promise.resolve(cancelled);
    if (req.priority !== 'batch' && this.interactive >= this.admission.maxRunning + this.admission.maxWaiting) {
      return Promise.reject(new EngineError({ kind: 'queue_full', waiting: this.admission.maxWaiting }, `${this.admission.maxWaiting} requests are already waiting`));
    }
    const grammar = req.grammar && nativeGrammar(req.grammar);
    const start = (): Promise<GenerateResult> => (req.signal?.aborted ? Promise.resolve(cancelled) : this.run(req, onToken, grammar));
    const started = grammar?.kind === 'json_schema' ? compileSchema(grammar.schema).then(start) : start();
    if (req.priority === 'batch') return started;
    this.interactive++;
    return started.finally(() => this.interactive--);
  }

  checkGrammar(grammar: GrammarSpec): Promise<void> {
    this.assertLoaded();
    const g = nativeGrammar(grammar);
    return g.kind === 'json_schema' ? compileSchema(g.schema) : Promise.resolve();
  }

  /** Submits to the engine and streams the sequence's events into onToken until it finishes. */
  private run(req: GenerateRequest, onToken: (ev: TokenEvent) => void, grammar: NativeSubmitOptions['grammar']): Promise<GenerateResult> {
    const promptTokens = req.prompt.length;
    const opts = this.submitOptions(req, grammar);
    const n = native();
    this.holdSubmitsForTurn();
    leaveIntake(req.signal); // the request is at the engine now (src/intake.ts)
    return new Promise<GenerateResult>((resolve, reject) => {
      let seq: number;
      try {
        seq = n.submit(this.dispatcher.session, req.prompt, opts);
      } catch (e) {
        reject(fromNativeError(e));
        return;
      }
      const decoder = this.tokenizer.createStreamDecoder();
      const wantLogprobs = req.topLogprobs !== undefined;
      let completionTokens = 0;
      let failure: unknown = null;
      const unwatch = req.signal ? watchAbort(req.signal, () => n.cancel(this.dispatcher.session, seq)) : undefined;
      this.dispatcher.register(seq, {
        onClose: () => {
          unwatch?.();
          reject(new EngineError({ kind: 'model_unloaded' }, `model ${this.info.id} was unloaded during generation`));
        },
        onEvent: (ev, i, topStart) => {
          const token = ev.token[i]!;
          if (token >= 0 && failure === null) {
            completionTokens++;
            const text = this.stopSet.has(token) || (opts.stopTokens?.includes(token) ?? false) ? '' : decoder.push(token);
            const out: TokenEvent = completionTokens === 1 ? { token, text, cachedTokens: ev.cachedTokens[i]! } : { token, text };
            if (wantLogprobs) {
              out.bytes = this.tokenizer.tokenBytes(token);
              out.logprob = ev.logprob[i]!;
              const k = ev.nTop[i]!;
              const top: TokenLogprob[] = [];
              for (let j = 0; j < k; j++) {
                const id = ev.topIds[topStart + j]!;
                top.push({ token: id, bytes: this.tokenizer.tokenBytes(id), logprob: ev.topLogprobs[topStart + j]! });
              }
              out.topLogprobs = top;
            }
            try {
              onToken(out);
            } catch (e) {
              // The consumer failed: stop generating and surface its error.
              failure = e;
              n.cancel(this.dispatcher.session, seq);
            }
          }
          const finish = ev.finish[i]!;
          if (finish === NativeFinish.none) return;
          this.dispatcher.unregister(seq);
          unwatch?.();
          if (failure !== null) return reject(failure);
          if (finish === NativeFinish.error) return reject(fromNativeStatus(ev.error[i]!));
          const result: GenerateResult = {
            finishReason: FINISH[finish] ?? 'stop',
            promptTokens,
            cachedTokens: ev.cachedTokens[i]!,
            completionTokens,
          };
          const tail = decoder.flush();
          if (tail) result.tailText = tail;
          if (ev.draft && ev.draft[i * 3]! >= 0) {
            result.speculative = { drafted: ev.draft[i * 3]!, accepted: ev.draft[i * 3 + 1]!, steps: ev.draft[i * 3 + 2]! };
          }
          resolve(result);
        },
      });
    });
  }

  /** Holds this model's submits until the microtasks queued so far have run: the requests that
   *  one event-loop turn prepares (a burst's handlers resume together after endOfIoBatch; a caller
   *  that starts many generate() calls in a loop) reach the engine in one step. Without it the
   *  scheduler wakes on the first submit and starts a step with the few it finds, and the rest wait
   *  for that step. The release is a microtask, so nothing waits past the current turn.
   *
   *  Mode 2, when this model has nothing running: a burst of HTTP requests reaches the loop over
   *  several I/O turns (its requests arrive while the first ones are being prepared), and released
   *  per turn its first few started a step of their own that the rest then waited for, both cores
   *  busy with it while the loop prepared them. Then the hold gathers (gather-hold.ts): it stays
   *  open while loop turns bring new submits or requests the HTTP layer took in have not been
   *  submitted yet (src/intake.ts), for at most maxGatherMs. A lone request pays one more loop
   *  turn (microseconds). */
  private holdSubmitsForTurn(): void {
    this.submitCount++;
    if (this.holding || submitHold.mode === 0) return;
    const n = native();
    if (typeof n.holdSubmits !== 'function') return; // an older addon (SVC_ADDON_PATH benchmarks)
    this.holding = true;
    const session = this.dispatcher.session;
    n.holdSubmits(session);
    const release = (): void => {
      this.holding = false;
      n.releaseSubmits(session);
    };
    // The submit that opens the hold registers after this call: active counts the others.
    if (submitHold.mode !== 2 || this.dispatcher.active > 0) {
      microtask(release); // release cannot throw
      return;
    }
    gatherSubmits(this.gatherDeps, submitHold.maxGatherMs, (why) => {
      gatherEnds[why]++;
      release();
    });
  }

  /** What the gathering hold reads and schedules with: the loop, the clock, intake.ts. */
  private readonly gatherDeps: GatherDeps = {
    now: () => performance.now(),
    nextTurn: (fn) => setImmediate(fn),
    after: (ms, fn) => {
      const t = setTimeout(fn, ms);
      return () => clearTimeout(t);
    },
    submits: () => this.submitCount,
    newestIntakeAt,
    onNextIntakeLeave,
  };

  stats(): EngineStats {
    const s = native().modelStats(this.handle);
    return {
      cache: {
        enabled: s.cacheEnabled,
        lookups: s.lookups,
        hitTokens: s.hitTokens,
        promptTokens: s.promptTokens,
        hitRate: s.promptTokens > 0 ? s.hitTokens / s.promptTokens : 0,
        cachedTokens: s.cachedTokens,
      },
      kvBlocksTotal: s.kvBlocksTotal,
      kvBlocksUsed: s.kvBlocksUsed,
      runningSequences: s.running,
      queuedSequences: s.queued,
      gpuAvailable: s.gpuAvailable,
      steps: s.steps,
      preemptions: s.preemptions,
      recentStepMs: s.stepSeconds * 1000,
      lastExportMs: s.exportSeconds * 1000,
      lastExportTokens: s.exportTokens,
      gpuInUse: s.gpuInUse,
      queueTime: { bounds: s.queueTimeBounds, counts: s.queueTimeCounts, sum: s.queueTimeSum },
    };
  }

  embed(inputs: readonly Uint32Array[], opts: EmbedOptions = {}): Promise<EmbedResult> {
    this.assertLoaded();
    for (const t of inputs) {
      if (t.length === 0) return Promise.reject(new EngineError({ kind: 'empty_input', input: 'input' }, 'an input has no tokens'));
      if (t.length > this.info.contextLength) {
        return Promise.reject(new EngineError({ kind: 'context_overflow', input: 'input', tokens: t.length, context: this.info.contextLength }, `an input has ${t.length} tokens; the context holds ${this.info.contextLength}`));
      }
      for (let i = 0; i < t.length; i++) {
        if (t[i]! >= this.info.vocabSize) return Promise.reject(new EngineError({ kind: 'token_out_of_range', input: 'input', token: t[i]!, vocabSize: this.info.vocabSize }, `token id ${t[i]} is not in the vocabulary`));
      }
    }
    return this.embedder.embed(inputs, opts);
  }

  debugStallScheduler(ms: number): void {
    native().debugStallScheduler(this.handle, ms);
  }

  nativeStats(): NativeStats {
    return native().modelStats(this.handle);
  }

  async evaluate(tokens: ArrayLike<number>, opts: EvaluateOptions = {}): Promise<EvaluateResult> {
    this.assertLoaded();
    try {
      return (await native().evaluate(this.handle, toU32(tokens), {
        topK: opts.topK ?? 0,
        allLogits: opts.allLogits ?? false,
        ...(opts.positions ? { positions: Int32Array.from(opts.positions) } : {}),
      })) as NativeEvalResult;
    } catch (e) {
      throw fromNativeError(e);
    }
  }

  unload(): void {
    if (this.unloaded) return;
    this.unloaded = true;
    // Running sequences of this handle are cancelled natively and their promises rejected now.
    this.dispatcher.cancelAll();
    this.dispatcher.close();
    native().unloadModel(this.handle);
  }

  private assertLoaded(): void {
    if (this.unloaded) throw new EngineError({ kind: 'model_unloaded' }, `model ${this.info.id} was unloaded`);
  }

  /** grammar: req.grammar as the native call takes it (built once, in generate()). */
  private submitOptions(req: GenerateRequest, grammar: NativeSubmitOptions['grammar']): NativeSubmitOptions {
    const s = req.sampling;
    const biasIds: number[] = [];
    const biasValues: number[] = [];
    if (s.logitBias) {
      for (const k in s.logitBias) {
        const id = Number(k);
        if (!Number.isInteger(id) || id < 0 || id >= this.info.vocabSize) throw new EngineError({ kind: 'token_out_of_range', input: 'logit_bias', token: k, vocabSize: this.info.vocabSize }, `logit_bias token ${k} is not in the vocabulary`);
        biasIds.push(id);
        biasValues.push(Math.max(-100, Math.min(100, (s.logitBias as Record<string, number>)[k]!)));
      }
    }
    const opts: NativeSubmitOptions = {
      maxTokens: Math.max(1, Math.floor(req.maxTokens)),
      temperature: s.temperature,
      topP: s.topP,
      topK: s.topK,
      minP: s.minP,
      repetitionPenalty: s.repetitionPenalty,
      presencePenalty: s.presencePenalty,
      frequencyPenalty: s.frequencyPenalty,
      biasIds: biasIds.length ? Int32Array.from(biasIds) : NO_BIAS_IDS,
      biasValues: biasValues.length ? Float32Array.from(biasValues) : NO_BIAS_VALUES,
      topLogprobs: req.topLogprobs === undefined ? -1 : Math.max(0, Math.min(20, req.topLogprobs)),
      stopTokens: req.stopTokens?.length ? Int32Array.from([...req.stopTokens, ...this.stopIds]) : this.stopIds,
      batchPriority: req.priority === 'batch',
    };
    if (s.seed !== undefined) opts.seed = s.seed;
    if (req.draft !== undefined && req.draft.length > 0) {
      if (req.draft.length > this.info.contextLength) throw new EngineError({ kind: 'invalid_argument' }, `the draft has ${req.draft.length} tokens; the context holds ${this.info.contextLength}`);
      opts.draft = req.draft;
      if (req.maxDraftTokens !== undefined) {
        if (!Number.isInteger(req.maxDraftTokens) || req.maxDraftTokens < 1 || req.maxDraftTokens > 64) throw new EngineError({ kind: 'invalid_argument' }, 'maxDraftTokens must be an integer from 1 to 64');
        opts.maxDraft = req.maxDraftTokens;
      }
    }
    if (grammar) opts.grammar = grammar;
    return opts;
  }

  private makeKvTransfer(): KvTransfer {
    const n = native();
    const info = this.nativeInfo;
    const blockBytes = 2 * 2 * info.layers * info.kvDim * info.blockTokens;
    return {
      layout: (): KvLayout => ({
        modelFingerprint: info.fingerprint,
        blockTokens: info.blockTokens,
        nLayers: info.layers,
        kvDim: info.kvDim,
        dtype: 'f16',
      }),
      cachedPrefixTokens: (tokens) => n.cachedPrefixTokens(this.handle, tokens),
      exportKv: async (tokens, fromBlock, signal, maxComputeTokens) => {
        this.assertLoaded();
        if (signal?.aborted) throw new EngineError({ kind: 'cancelled' }, 'exportKv was cancelled');
        try {
          const blocks = await n.exportKv(this.handle, tokens, fromBlock, maxComputeTokens ?? -1);
          return blocks.map((data, i): KvBlock => ({ index: fromBlock + i, data }));
        } catch (e) {
          throw fromNativeError(e);
        }
      },
      importKv: async (tokens, blocks) => {
        this.assertLoaded();
        if (blocks.length === 0) return n.cachedPrefixTokens(this.handle, tokens);
        const first = blocks[0]!.index;
        blocks.forEach((b, i) => {
          if (b.index !== first + i) throw new EngineError({ kind: 'invalid_argument' }, 'importKv: blocks must be consecutive');
          if (b.data.byteLength !== blockBytes) throw new EngineError({ kind: 'invalid_argument' }, `importKv: block ${b.index} has ${b.data.byteLength} bytes, expected ${blockBytes}`);
        });
        try {
          return await n.importKv(this.handle, tokens, first, blocks.map((b) => b.data));
        } catch (e) {
          throw fromNativeError(e);
        }
      },
    };
  }
}
