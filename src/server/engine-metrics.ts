// Engine metrics under the names vLLM's dashboards and the Gateway API Inference Extension's
// model-server protocol read (`vllm:*`, label model_name). Gauges and engine-kept totals (queue,
// running, KV use, prefix cache, preemptions, queue time) are read from stats() at scrape time;
// per-request facts (TTFT, inter-token latency, end-to-end latency, tokens, finish reasons) are
// recorded by MeteredModel, which wraps each loaded model so every API that generates counts.
import type { Counter, GaugeSample, Histogram, HistogramSample, Metrics } from '../metrics.js';
import type { EmbedResult, EngineStats, GenerateRequest, GenerateResult, LoadedModel, TokenEvent } from '../engine/types.js';

export const TTFT_BUCKETS_S = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560];
export const ITL_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80];
export const E2E_BUCKETS_S = [0.01, 0.025, 0.05, 0.1, 0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680];

/** vLLM's finished_reason values: stop, length, abort. */
function finishedReason(r: GenerateResult['finishReason']): string {
  if (r === 'length') return 'length';
  if (r === 'cancelled') return 'abort';
  return 'stop'; // stop token, stop sequence, grammar end
}

/** One model's series, looked up once (hot paths add to them directly). */
interface Cells {
  ttft(seconds: number): void;
  itl(seconds: number): void;
  e2e(seconds: number): void;
  prompt: { value: number };
  generation: { value: number };
  failures: { value: number };
}

export class EngineMetrics {
  private readonly ttft: Histogram;
  private readonly itl: Histogram;
  private readonly e2e: Histogram;
  private readonly promptTokens: Counter;
  private readonly generationTokens: Counter;
  private readonly success: Counter;
  private readonly failures: Counter;

  /** models(): the models to report, read at each scrape (they may load after the metrics exist). */
  constructor(
    private readonly metrics: Metrics,
    private readonly models: () => Iterable<LoadedModel>,
  ) {
    const m = metrics;
    const each = (f: (s: EngineStats) => number | undefined): (() => GaugeSample[]) => () => {
      const out: GaugeSample[] = [];
      for (const model of this.models()) {
        const v = f(model.stats());
        if (v !== undefined) out.push({ labels: { model_name: model.info.id }, value: v });
      }
      return out;
    };
    const kvUse = (s: EngineStats): number => (s.kvBlocksTotal > 0 ? s.kvBlocksUsed / s.kvBlocksTotal : 0);
    m.gauge('vllm:num_requests_running', 'Requests in the engine running (decoding or prefilling) right now.', each((s) => s.runningSequences));
    m.gauge('vllm:num_requests_waiting', 'Requests queued in the engine, waiting to run.', each((s) => s.queuedSequences));
    m.gauge('vllm:kv_cache_usage_perc', 'Fraction of KV cache blocks held by live requests (0-1; cached, reclaimable blocks count as free).', each(kvUse));
    m.gauge('vllm:gpu_cache_usage_perc', 'Older name of vllm:kv_cache_usage_perc (0-1), kept for dashboards that read it.', each(kvUse));
    m.counterFrom('vllm:prefix_cache_queries_total', 'Prompt tokens looked up in the prefix cache.', each((s) => s.cache.promptTokens));
    m.counterFrom('vllm:prefix_cache_hits_total', 'Prompt tokens served from the prefix cache.', each((s) => s.cache.hitTokens));
    m.counterFrom('vllm:num_preemptions_total', 'Requests preempted because KV memory ran dry mid-decode.', each((s) => s.preemptions));
    m.counterFrom('svc_engine_steps_total', 'Engine scheduler steps (forward passes).', each((s) => s.steps));
    m.gauge('svc_engine_kv_blocks_total', 'KV cache blocks in the pool.', each((s) => s.kvBlocksTotal));
    m.gauge('svc_engine_prefix_cached_tokens', 'Tokens whose KV the prefix cache holds now.', each((s) => s.cache.cachedTokens));
    m.histogramFrom('vllm:request_queue_time_seconds', 'Time requests waited in the engine queue before first running, seconds.', () => {
      const out: HistogramSample[] = [];
      for (const model of this.models()) {
        const q = model.stats().queueTime;
        if (q) out.push({ labels: { model_name: model.info.id }, bounds: q.bounds, counts: q.counts, sum: q.sum });
      }
      return out;
    });
    this.ttft = m.histogram('vllm:time_to_first_token_seconds', 'Time from request arrival at the engine to its first token, seconds.', ['model_name'], TTFT_BUCKETS_S);
    this.itl = m.histogram('vllm:inter_token_latency_seconds', 'Time between consecutive tokens of a request, seconds.', ['model_name'], ITL_BUCKETS_S);
    this.e2e = m.histogram('vllm:e2e_request_latency_seconds', 'Time from request arrival at the engine to its end, seconds.', ['model_name'], E2E_BUCKETS_S);
    this.promptTokens = m.counter('vllm:prompt_tokens_total', 'Prompt tokens of finished requests (embedding inputs included).', ['model_name']);
    this.generationTokens = m.counter('vllm:generation_tokens_total', 'Tokens generated.', ['model_name']);
    this.success = m.counter('vllm:request_success_total', 'Requests finished, by finished_reason (stop, length, abort).', ['model_name', 'finished_reason']);
    this.failures = m.counter('svc_engine_request_failures_total', 'Requests the engine refused or failed (queue full, KV exhausted, context exceeded, errors).', ['model_name']);
  }

  /** The model, counted: its generations and embeddings feed the per-request metrics. */
  wrap(model: LoadedModel): MeteredModel {
    return new MeteredModel(model, this.cellsFor(model.info.id), this.success);
  }

  private cellsFor(id: string): Cells {
    const l = { model_name: id };
    const observer = (h: Histogram): ((seconds: number) => void) => {
      const cell = h.series(l);
      return (seconds) => h.observeIn(cell, seconds);
    };
    return {
      ttft: observer(this.ttft),
      itl: observer(this.itl),
      e2e: observer(this.e2e),
      prompt: this.promptTokens.series(l),
      generation: this.generationTokens.series(l),
      failures: this.failures.series(l),
    };
  }

  /** For tests and docs: the registry these series live on. */
  get registry(): Metrics {
    return this.metrics;
  }
}

/** A LoadedModel that records each request's timings and tokens; everything else is the model's. */
export class MeteredModel implements LoadedModel {
  /** generate() and embed() calls not finished yet (readiness: work the engine should be stepping on). */
  pending = 0;
  /** Of those, the generations at interactive priority (batch work waits behind them anyway). */
  interactivePending = 0;

  constructor(
    readonly inner: LoadedModel,
    private readonly cells: Cells,
    private readonly success: Counter,
  ) {}

  get info(): LoadedModel['info'] {
    return this.inner.info;
  }
  get kv(): LoadedModel['kv'] {
    return this.inner.kv;
  }
  tokenize(text: string, opts?: { addSpecial?: boolean; parseSpecial?: boolean }): Promise<Uint32Array> {
    return this.inner.tokenize(text, opts);
  }
  detokenize(tokens: ArrayLike<number>): Promise<string> {
    return this.inner.detokenize(tokens);
  }
  renderChat(input: Parameters<LoadedModel['renderChat']>[0]): Promise<string> {
    return this.inner.renderChat(input);
  }
  renderChatNow(input: Parameters<LoadedModel['renderChat']>[0]): string | undefined {
    return this.inner.renderChatNow?.(input);
  }
  tokenizeNow(text: string, opts?: Parameters<LoadedModel['tokenize']>[1]): Uint32Array | undefined {
    return this.inner.tokenizeNow?.(text, opts);
  }
  checkGrammar(grammar: Parameters<LoadedModel['checkGrammar']>[0]): Promise<void> {
    return this.inner.checkGrammar(grammar);
  }
  stats(): EngineStats {
    return this.inner.stats();
  }
  // What an engine model adds (src/engine/native-model.ts EngineModel), forwarded where the wrapped
  // model has it: callers holding a served model as an EngineModel keep working.
  /** Releases the wrapped model where it can be released. */
  unload(): void {
    (this.inner as { unload?: () => void }).unload?.();
  }
  /** The engine's raw counters (undefined for a model that is not an engine model). */
  nativeStats(): unknown {
    return (this.inner as { nativeStats?: () => unknown }).nativeStats?.();
  }

  get embed(): ((inputs: readonly Uint32Array[]) => Promise<EmbedResult>) | undefined {
    const inner = this.inner;
    if (!inner.embed) return undefined;
    return async (inputs) => {
      const started = performance.now();
      this.pending++;
      try {
        const r = await inner.embed!(inputs);
        for (const t of inputs) this.cells.prompt.value += t.length;
        this.success.inc({ model_name: this.info.id, finished_reason: 'stop' }, inputs.length);
        // Embedding latency goes to e2e, as vLLM's pooling requests do.
        this.cells.e2e((performance.now() - started) / 1000);
        return r;
      } catch (e) {
        this.cells.failures.value++;
        throw e;
      } finally {
        this.pending--;
      }
    };
  }

  async generate(req: GenerateRequest, onToken: (ev: TokenEvent) => void): Promise<GenerateResult> {
    const started = performance.now();
    let last = 0;
    const cells = this.cells;
    const interactive = req.priority !== 'batch';
    this.pending++;
    if (interactive) this.interactivePending++;
    try {
      const r = await this.inner.generate(req, (ev) => {
        const now = performance.now();
        if (last === 0) cells.ttft((now - started) / 1000);
        else cells.itl((now - last) / 1000);
        last = now;
        onToken(ev);
      });
      cells.e2e((performance.now() - started) / 1000);
      cells.prompt.value += r.promptTokens;
      cells.generation.value += r.completionTokens;
      this.success.inc({ model_name: this.info.id, finished_reason: finishedReason(r.finishReason) });
      return r;
    } catch (e) {
      cells.failures.value++;
      throw e;
    } finally {
      this.pending--;
      if (interactive) this.interactivePending--;
    }
  }
}
