// The svc client: apply (code-edit merge), predict (next browser events) and chat. Every call
// resolves to { success: true, data } or { success: false, error }: HTTP errors, timeouts and
// network failures never throw. Transient failures are retried (src/retry.ts). Needs only fetch.
import { backoffMs, DEFAULT_RETRY, isRetryableStatus, retryAfterMs, type RetryPolicy } from './retry.js';

export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';

export type Result<T> =
  | { success: true; data: T; attempts: number }
  | {
      success: false;
      /** What went wrong, from the server's error envelope when there was one. */
      error: string;
      /** HTTP status of the last attempt (absent: no response, e.g. timeout or connection refused). */
      status?: number;
      /** The server's error code (`rate_limited`, `invalid_request_error`, ...). */
      code?: string;
      attempts: number;
    };

export interface ClientOptions {
  /** The main API, e.g. https://api.example.com (without /v1). */
  baseUrl: string;
  apiKey?: string;
  /** The prediction service, e.g. http://host:8081. */
  predictUrl?: string;
  retry?: Partial<RetryPolicy>;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Jitter source (tests). */
  random?: () => number;
}

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  temperature?: number;
  [field: string]: unknown;
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{ index: number; message: { role: string; content: string | null }; finish_reason: string }>;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

export interface ApplyRequest {
  instruction?: string;
  code: string;
  /** The changes, with `// ... existing code ...` standing for unchanged sections. */
  update: string;
  /** `svc-v3-fast` (default), `svc-v3-large` or `auto`. */
  model?: string;
}

export interface ApplyResult {
  /** The merged code. */
  code: string;
  usage: ChatCompletion['usage'];
  id: string;
}

export interface PredictRequest {
  /** Recorded events, one JSON object per line. */
  prompt: string;
  max_tokens?: number;
  temperature?: number;
}

export interface PredictResponse {
  text: string;
  latency_ms: number;
  tokens_generated: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The message of an error body: `{ error: { message, code } }` (main API), `{ detail }` (prediction). */
function errorOf(body: unknown): { message?: string; code?: string } {
  if (body && typeof body === 'object') {
    const e = (body as { error?: unknown }).error;
    if (e && typeof e === 'object') {
      const { message, code } = e as { message?: unknown; code?: unknown };
      return { ...(typeof message === 'string' ? { message } : {}), ...(typeof code === 'string' ? { code } : {}) };
    }
    const d = (body as { detail?: unknown }).detail;
    if (typeof d === 'string') return { message: d };
  }
  return {};
}

export class SvcClient {
  private readonly policy: RetryPolicy;
  private readonly doFetch: typeof fetch;
  private readonly random: () => number;

  constructor(private readonly opts: ClientOptions) {
    this.policy = { ...DEFAULT_RETRY, ...opts.retry };
    this.doFetch = opts.fetch ?? globalThis.fetch;
    this.random = opts.random ?? Math.random;
  }

  /** Code-edit apply: the merged code of `code` with `update` applied. */
  async apply(req: ApplyRequest): Promise<Result<ApplyResult>> {
    const parts = [];
    if (req.instruction) parts.push(`<instruction>${req.instruction}</instruction>`);
    parts.push(`<code>${req.code}</code>`, `<update>${req.update}</update>`);
    const r = await this.chat({ model: req.model ?? 'svc-v3-fast', messages: [{ role: 'user', content: parts.join('\n') }], temperature: 0 });
    if (!r.success) return r;
    const content = r.data.choices[0]?.message.content;
    if (typeof content !== 'string') return { success: false, error: 'the response has no merged code', attempts: r.attempts };
    return { success: true, data: { code: content, usage: r.data.usage, id: r.data.id }, attempts: r.attempts };
  }

  /** Next-action prediction on the prediction service. */
  predict(req: PredictRequest): Promise<Result<PredictResponse>> {
    if (!this.opts.predictUrl) return Promise.resolve({ success: false, error: 'predictUrl is not set', attempts: 0 });
    return this.request<PredictResponse>(`${this.opts.predictUrl.replace(/\/+$/, '')}/v1/predict`, req, false);
  }

  /** One Chat Completion (not streamed). */
  chat(req: ChatRequest): Promise<Result<ChatCompletion>> {
    return this.request<ChatCompletion>(`${this.opts.baseUrl.replace(/\/+$/, '')}/v1/chat/completions`, { ...req, stream: false }, true);
  }

  /** The text of one answer to one user message. */
  async ask(model: string, content: string, opts: { max_tokens?: number; temperature?: number; system?: string } = {}): Promise<Result<string>> {
    const messages: ChatMessage[] = opts.system ? [{ role: 'system', content: opts.system }] : [];
    messages.push({ role: 'user', content });
    const { system: _system, ...params } = opts;
    const r = await this.chat({ model, messages, ...params });
    if (!r.success) return r;
    return { success: true, data: r.data.choices[0]?.message.content ?? '', attempts: r.attempts };
  }

  private async request<T>(url: string, body: unknown, withKey: boolean): Promise<Result<T>> {
    const p = this.policy;
    const started = Date.now();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (withKey && this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    const payload = JSON.stringify(body);
    let last: Extract<Result<T>, { success: false }> = { success: false, error: 'no attempt made', attempts: 0 };
    for (let attempt = 0; attempt <= p.maxRetries; attempt++) {
      const left = p.deadlineMs - (Date.now() - started);
      if (left <= 0) return { ...last, error: `deadline of ${p.deadlineMs} ms exceeded; last error: ${last.error}` };
      const ctl = new AbortController();
      const timer = setTimeout(() => ctl.abort(), Math.min(p.timeoutMs, left));
      let wait: number;
      try {
        const res = await this.doFetch(url, { method: 'POST', headers, body: payload, signal: ctl.signal });
        const text = await res.text();
        let parsed: unknown = undefined;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          // not JSON: reported below
        }
        if (res.ok) {
          if (parsed === undefined) return { success: false, error: 'the response is not JSON', status: res.status, attempts: attempt + 1 };
          return { success: true, data: parsed as T, attempts: attempt + 1 };
        }
        const e = errorOf(parsed);
        last = { success: false, error: e.message ?? `HTTP ${res.status}`, status: res.status, ...(e.code ? { code: e.code } : {}), attempts: attempt + 1 };
        if (!isRetryableStatus(res.status)) return last;
        wait = retryAfterMs(res.headers.get('retry-after'), Date.now()) ?? backoffMs(p, attempt, this.random);
      } catch (err) {
        const timedOut = ctl.signal.aborted;
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        last = {
          success: false,
          error: timedOut ? `no response within ${Math.min(p.timeoutMs, left)} ms` : `network error: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
          attempts: attempt + 1,
        };
        wait = backoffMs(p, attempt, this.random);
      } finally {
        clearTimeout(timer);
      }
      if (attempt === p.maxRetries) break;
      if (Date.now() - started + wait >= p.deadlineMs) return { ...last, error: `${last.error} (no retry: the next one would pass the ${p.deadlineMs} ms deadline)` };
      await sleep(wait);
    }
    return last;
  }
}
