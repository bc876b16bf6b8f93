// The prediction service's core: event lines in, predicted event lines out, generated under the
// event-line grammar so every returned line is a complete event object. In the decoder role it
// first pulls the prompt's KV from its prefiller; in every role the prefix cache makes a growing
// session pay only for its new events.
import { ApiError } from '../errors.js';
import type { LoadedModel } from '../engine/types.js';
import type { PrefillerLink } from './prefiller-link.js';
import { PromptTokenizer } from './prompt-tokens.js';
import { completeEventLines, type PredictRequest } from './request.js';
import { eosBan, GREEDY_SAMPLING } from '../engine/sampling.js';

export type ServerRole = 'standalone' | 'prefiller' | 'decoder';

export interface PredictResponse {
  text: string;
  latency_ms: number;
  tokens_generated: number;
}

export interface HealthResponse {
  status: 'healthy' | 'degraded';
  server_role: ServerRole;
  model: string;
  gpu_available: boolean;
  cache_enabled: boolean;
  cache_stats?: { enabled: boolean; hit_rate: number; num_cached_tokens: number };
  uptime_seconds: number;
}

export class Predictor {
  private readonly startedAt = performance.now();
  private model: LoadedModel | null = null;
  private prompts: PromptTokenizer | null = null;

  constructor(readonly role: ServerRole, private readonly prefiller: PrefillerLink | null = null) {}

  /** Called once the model has loaded; until then requests get 503. */
  setModel(model: LoadedModel): void {
    this.model = model;
    this.prompts = new PromptTokenizer(model);
  }

  get loadedModel(): LoadedModel | null {
    return this.model;
  }

  requireModel(): LoadedModel {
    if (!this.model) throw new ApiError('model_not_ready', 'the model is still loading; retry shortly');
    return this.model;
  }

  async promptTokens(lines: string[]): Promise<Uint32Array> {
    this.requireModel();
    return (this.prompts as PromptTokenizer).tokens(lines);
  }

  async predict(req: PredictRequest, signal?: AbortSignal): Promise<PredictResponse> {
    const started = performance.now();
    const model = this.requireModel();
    const prompt = await this.promptTokens(req.lines);
    const context = model.info.contextLength;
    if (prompt.length + req.maxTokens > context) {
      throw new ApiError('context_length_exceeded', `prompt is ${prompt.length} tokens; with max_tokens ${req.maxTokens} it exceeds the model's context of ${context} tokens`, { param: 'prompt' });
    }
    if (this.role === 'decoder' && this.prefiller && model.kv) {
      await this.prefiller.pull(model.kv, prompt, signal);
    }
    let text = '';
    const result = await model.generate(
      {
        prompt,
        maxTokens: req.maxTokens,
        // End-of-text is banned: the answer is the events that fit in max_tokens, and a model
        // may otherwise stop at the first line boundary with no prediction at all.
        sampling: { ...GREEDY_SAMPLING, temperature: req.temperature, logitBias: eosBan(model.info) },
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
    };
  }
}
