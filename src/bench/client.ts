// One streaming Chat Completions request, timed from the client's side the way serving
// benchmarks do: time to first token, gaps between content chunks, end-to-end latency.
// Works against any OpenAI-compatible server; failures are recorded, never thrown.

export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  max_tokens?: number;
  [key: string]: unknown;
}

export interface RequestSample {
  ok: boolean;
  /** Set when !ok: HTTP status text, connection error, or a malformed/cut stream. */
  error?: string;
  status?: number;
  /** When the request was sent, ms since the run started. */
  startMs: number;
  /** First non-empty content (or tool-call) delta. */
  ttftMs?: number;
  e2eMs: number;
  /** Arrival times (ms after send) of each chunk that carried output. */
  chunkTimesMs: number[];
  /** usage.completion_tokens when the server reports it, else the count of output chunks. */
  outputTokens: number;
  promptTokens?: number;
  cachedTokens?: number;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}

/** The fields of a Chat Completions stream chunk that the clients read. */
export interface ChunkJson {
  choices?: Array<{ delta?: { content?: string | null; tool_calls?: unknown[]; reasoning_content?: string | null } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } } | null;
  error?: { message?: string };
}

/** One parsed `data:` payload of an OpenAI-style SSE stream. */
export type SseData = { done: true } | { done: false; chunk: ChunkJson; hasOutput: boolean };

/** Splits the complete SSE events off the front of `buffer` and returns their `data:` payloads
 *  (trimmed), in order; `rest` is the incomplete tail to keep for the next read. */
export function takeSsePayloads(buffer: string): { payloads: string[]; rest: string } {
  const payloads: string[] = [];
  let sep: number;
  while ((sep = buffer.indexOf('\n\n')) >= 0) {
    const event = buffer.slice(0, sep);
    buffer = buffer.slice(sep + 2);
    for (const line of event.split('\n')) if (line.startsWith('data:')) payloads.push(line.slice(5).trim());
  }
  return { payloads, rest: buffer };
}

/** takeSsePayloads, each payload parsed. Throws on malformed JSON. */
export function takeSseData(buffer: string): { data: SseData[]; rest: string } {
  const { payloads, rest } = takeSsePayloads(buffer);
  const data = payloads.map((payload): SseData => {
    if (payload === '[DONE]') return { done: true };
    const chunk = JSON.parse(payload) as ChunkJson;
    const d = chunk.choices?.[0]?.delta;
    const hasOutput = !!d && ((d.content ?? '') !== '' || (d.reasoning_content ?? '') !== '' || (d.tool_calls?.length ?? 0) > 0);
    return { done: false, chunk, hasOutput };
  });
  return { data, rest };
}

/** fetch wraps socket failures as 'fetch failed'; the cause says what happened. */
function describeError(err: unknown): string {
  const e = err as { message?: string; cause?: { message?: string; code?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return cause ? `${e.message}: ${cause}` : String(e?.message ?? err);
}

export function chatCompletionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, '');
  return trimmed.endsWith('/v1') ? `${trimmed}/chat/completions` : `${trimmed}/v1/chat/completions`;
}

export async function sendStreamingChat(opts: ClientOptions, body: ChatRequestBody, runStart: number): Promise<RequestSample> {
  const sent = performance.now();
  const sample: RequestSample = { ok: false, startMs: sent - runStart, e2eMs: 0, chunkTimesMs: [], outputTokens: 0 };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs);
  try {
    const res = await fetch(chatCompletionsUrl(opts.baseUrl), {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } }),
      signal: controller.signal,
    });
    sample.status = res.status;
    if (!res.ok || !res.body) {
      const text = await res.text().catch(() => '');
      sample.error = `HTTP ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
      return sample;
    }
    let buffer = '';
    let done = false;
    let usageTokens: number | undefined;
    const decoder = new TextDecoder();
    for await (const piece of res.body as unknown as AsyncIterable<Uint8Array>) {
      const parsed = takeSseData(buffer + decoder.decode(piece, { stream: true }));
      buffer = parsed.rest;
      for (const d of parsed.data) {
        if (d.done) {
          done = true;
          continue;
        }
        const json = d.chunk;
        if (json.error) throw new Error(`stream error: ${json.error.message ?? 'unknown'}`);
        if (d.hasOutput) {
          const t = performance.now() - sent;
          if (sample.ttftMs === undefined) sample.ttftMs = t;
          sample.chunkTimesMs.push(t);
        }
        if (json.usage) {
          usageTokens = json.usage.completion_tokens;
          sample.promptTokens = json.usage.prompt_tokens;
          sample.cachedTokens = json.usage.prompt_tokens_details?.cached_tokens;
        }
      }
    }
    if (!done) throw new Error('stream ended without [DONE] (connection dropped?)');
    sample.outputTokens = usageTokens ?? sample.chunkTimesMs.length;
    sample.ok = true;
  } catch (err) {
    sample.error = controller.signal.aborted ? `timeout after ${opts.timeoutMs} ms` : describeError(err);
  } finally {
    clearTimeout(timer);
    sample.e2eMs = performance.now() - sent;
  }
  return sample;
}
