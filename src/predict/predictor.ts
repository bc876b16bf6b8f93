// The prediction service's core: event lines in, predicted event lines out, generated under the
// event-line grammar so every returned line is a complete event object. In the decoder role it
// first pulls the prompt's KV from its prefiller; in every role the prefix cache makes a growing
// session pay only for its new events.
import { apiError } from '../errors.js';
import type { LoadedModel } from '../engine/types.js';
import type { PrefillerLink } from './prefiller-link.js';
import type { PreparedPrompt } from './prompt-tokens.js';
import { PromptPreparer } from './prepare-pool.js';
import { completeEventLines } from './request.js';
import { eosBan, GREEDY_SAMPLING } from '../engine/sampling.js';
import { modelText } from '../engine/text-worker.js';
import type { Tokenizer } from '../tokenizer/index.js';

export type ServerRole = 'standalone' | 'prefiller' | 'decoder';

export interface PredictResponse {
  text: string;
  latency_ms: number;
  tokens_generated: number;
  /** Beyond SPEC.md's three fields, as OpenAI reports it: how much of the prompt the prefix
   *  cache (or, on a decoder, the prefiller's KV) served. */
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; prompt_tokens_details: { cached_tokens: number } };
}

export interface HealthResponse {
  status: 'healthy' | 'degraded';
  server_role: ServerRole;
  model: string;
  gpu_available: boolean;
  cache_enabled: boolean;
  cache_stats?: { enabled: boolean; hit_rate: number; num_cached_tokens: number };
  uptime_seconds: number;
  /** Decoder only, beyond SPEC.md: what came from the prefiller (evidence that the split works). */
  kv_transfer?: {
    prefill_requests: number;
    imports: number;
    blocks_imported: number;
    bytes_imported: number;
    /** Requests prefilled locally without asking the prefiller, because the link was degraded. */
    local_prefills_while_degraded: number;
  };
}

export class Predictor {
  private readonly startedAt = performance.now();
  private model: LoadedModel | null = null;
  private preparer: PromptPreparer | null = null;
  private localPrefills = 0;

  constructor(readonly role: ServerRole, private readonly prefiller: PrefillerLink | null = null) {}

  /** Called once the model has loaded; until then requests get 503. */
  setModel(model: LoadedModel): void {
    if (this.model === model) return;
    void this.preparer?.close();
    this.model = model;
    // NativeModel carries its tokenizer; any other model gets one built from its GGUF header.
    const own = (model as { tokenizer?: Tokenizer }).tokenizer;
    this.preparer = new PromptPreparer(own ?? modelText(model.info.path).tokenizer, model.info.path, model.info.contextLength);
  }

  async close(): Promise<void> {
    await this.preparer?.close();
  }

  get loadedModel(): LoadedModel | null {
    return this.model;
  }

  requireModel(): LoadedModel {
    if (!this.model) throw apiError('model_loading');
    return this.model;
  }

  /** A /v1/predict body as the prompt to run: checked, windowed to the context, tokenized. */
  async prepare(body: Buffer): Promise<PreparedPrompt> {
    this.requireModel();
    return (this.preparer as PromptPreparer).prepare(body);
  }

  /** `started`: when the request arrived (latency_ms counts from it). */
  async predict(req: PreparedPrompt, signal?: AbortSignal, started = performance.now()): Promise<PredictResponse> {
    const model = this.requireModel();
    const prompt = req.tokens;
    if (this.role === 'decoder' && this.prefiller && model.kv) {
      // A degraded link is not retried per request: the heartbeat alone finds it healthy again.
      if (this.prefiller.status === 'healthy') await this.prefiller.pull(model.kv, prompt, signal);
      else this.localPrefills++;
    }
    let text = '';
    const result = await model.generate(
      {
        prompt,
        maxTokens: req.maxTokens,
        // End-of-text is banned: the answer is the events that fit in max_tokens, and a model
        // may otherwise stop at the first line boundary with no prediction at all.
        sampling: { ...GREEDY_SAMPLING, temperature: req.temperature, logitBias: eosBan(model.info), ...(req.seed !== undefined ? { seed: req.seed } : {}) },
        grammar: { kind: 'event_lines' },
        priority: 'interactive',
        signal,
      },
      (ev) => {
        text += ev.text;
      },
    );
    const lines = completeEventLines(text);
    return {
      text: lines.length ? lines.join('\n') + '\n' : '',
      latency_ms: Math.round(performance.now() - started),
      tokens_generated: result.completionTokens,
      usage: {
        prompt_tokens: result.promptTokens,
        completion_tokens: result.completionTokens,
        total_tokens: result.promptTokens + result.completionTokens,
        prompt_tokens_details: { cached_tokens: result.cachedTokens },
      },
    };
  }

  health(): HealthResponse {
    const model = this.model;
    const stats = model?.stats();
    const cacheEnabled = stats?.cache.enabled ?? false;
    return {
      status: this.prefiller?.status ?? 'healthy',
      server_role: this.role,
      model: model?.info.id ?? 'loading',
      gpu_available: stats?.gpuAvailable ?? false,
      cache_enabled: cacheEnabled,
      ...(cacheEnabled && stats ? { cache_stats: { enabled: true, hit_rate: stats.cache.hitRate, num_cached_tokens: stats.cache.cachedTokens } } : {}),
      uptime_seconds: (performance.now() - this.startedAt) / 1000,
      ...(this.role === 'decoder' && this.prefiller
        ? {
            kv_transfer: {
              prefill_requests: this.prefiller.prefillRequests,
              imports: this.prefiller.transfers,
              blocks_imported: this.prefiller.blocksImported,
              bytes_imported: this.prefiller.transferredBytes,
              local_prefills_while_degraded: this.localPrefills,
            },
          }
        : {}),
    };
  }
}
