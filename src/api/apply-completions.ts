// The code-edit apply models (svc-v3-fast, svc-v3-large, auto) in the Chat Completions format.
// POST /v1/chat/completions dispatches here (src/api/chat-completions.ts); the batch executor calls
// completeApply. Validation runs on the event loop (cheap field checks); parsing the message,
// the merge and token counting run in the piscina pool (src/apply/pool.ts). With an apply LLM
// configured (--apply-model, src/apply/llm.ts), svc-v3-large (and auto when it picks large) has
// the LLM write the file, the merge result serving as its speculative draft.
import { ApiError, invalidRequest, openaiErrorBody, toApiError } from '../errors.js';
import type { RequestContext, SseEvent } from '../http/types.js';
import { SseQueue } from '../http/sse-queue.js';
import { newChatCompletionId } from '../chat/ids.js';
import type { MergeMode } from '../apply/merge.js';
import { runInPool } from '../apply/pool.js';
import type { ApplyTaskResult } from '../apply/run.js';
import { runApplyLlm, type LlmApplyResult } from '../apply/llm.js';
import { APPLY_MODELS, isApplyModel, type ApplyModel } from '../assets/apply-models.js';
import type { LoadedModel } from '../engine/types.js';


/** Largest message content accepted (characters): 8 MiB of code plus update. */
export const MAX_APPLY_CONTENT_CHARS = 8 * 1024 * 1024;
/** Characters per streamed content delta (cut at a line end when one is near). */
const STREAM_PIECE_CHARS = 2048;

const MODE: Record<ApplyModel, MergeMode> = { 'svc-v3-fast': 'fast', 'svc-v3-large': 'large', auto: 'auto' };

export interface ApplyRequest {
  model: ApplyModel;
  content: string;
  stream: boolean;
  includeUsage: boolean;
  maxTokens: number | null;
  temperature: number;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Message content as text: a string, or an array of `{type: 'text', text}` parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let out = '';
    for (let i = 0; i < content.length; i++) {
      const part = content[i] as unknown;
      if (!isObject(part) || part.type !== 'text' || typeof part.text !== 'string') {
        throw invalidRequest(`messages[0].content[${i}] must be a text part ({"type": "text", "text": "..."})`, `messages[0].content[${i}]`);
      }
      out += part.text;
    }
    return out;
  }
  throw invalidRequest('messages[0].content must be a string with <code> and <update> tags', 'messages[0].content');
}

/** Chat Completions fields with no meaning for a merge; `response_format: {type: 'text'}` is fine. */
const UNSUPPORTED_APPLY_FIELDS = ['stop', 'logprobs', 'top_logprobs', 'tools', 'tool_choice', 'functions', 'function_call', 'logit_bias'] as const;

/** Checks the request fields; the tags inside the content are checked in the worker. */
export function validateApplyRequest(body: unknown): ApplyRequest {
  if (!isObject(body)) throw invalidRequest('request body must be a JSON object');
  const model = body.model ?? 'svc-v3-fast';
  if (typeof model !== 'string' || !isApplyModel(model)) {
    throw invalidRequest(`model must be one of ${APPLY_MODELS.join(', ')} for code-edit apply`, 'model');
  }
  const messages = body.messages;
  if (messages === undefined || messages === null) throw invalidRequest('messages is required: one user message with <code> and <update>', 'messages');
  if (!Array.isArray(messages)) throw invalidRequest('messages must be an array', 'messages');
  if (messages.length === 0) throw invalidRequest('messages is empty: the apply models take exactly one user message', 'messages');
  if (messages.length > 1) throw invalidRequest(`messages has ${messages.length} entries: the apply models take exactly one user message`, 'messages');
  const msg = messages[0] as unknown;
  if (!isObject(msg)) throw invalidRequest('messages[0] must be an object with role and content', 'messages[0]');
  if (msg.role !== 'user') throw invalidRequest(`messages[0].role must be 'user' for the apply models (got ${JSON.stringify(msg.role)})`, 'messages[0].role');
  const content = contentText(msg.content);
  if (content.length > MAX_APPLY_CONTENT_CHARS) {
    throw invalidRequest(`messages[0].content is ${content.length} characters; the limit is ${MAX_APPLY_CONTENT_CHARS}`, 'messages[0].content');
  }
  const stream = body.stream ?? false;
  if (typeof stream !== 'boolean') throw invalidRequest('stream must be a boolean', 'stream');
  let includeUsage = false;
  const so = body.stream_options;
  if (so !== undefined && so !== null) {
    if (!isObject(so)) throw invalidRequest('stream_options must be an object', 'stream_options');
    if (so.include_usage !== undefined && typeof so.include_usage !== 'boolean') {
      throw invalidRequest('stream_options.include_usage must be a boolean', 'stream_options.include_usage');
    }
    includeUsage = so.include_usage === true;
  }
  const maxRaw = body.max_completion_tokens ?? body.max_tokens ?? null;
  const maxName = body.max_completion_tokens !== undefined && body.max_completion_tokens !== null ? 'max_completion_tokens' : 'max_tokens';
  if (maxRaw !== null && (typeof maxRaw !== 'number' || !Number.isInteger(maxRaw) || maxRaw < 1)) {
    throw invalidRequest(`${maxName} must be a positive integer`, maxName);
  }
  const temperature = body.temperature ?? 0;
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
    throw invalidRequest('temperature must be a number from 0 to 2', 'temperature');
  }
  const n = body.n ?? 1;
  if (n !== 1) throw invalidRequest('n must be 1 for the apply models', 'n');
  // Chat features the apply models do not have: refused by name rather than silently ignored.
  for (const field of UNSUPPORTED_APPLY_FIELDS) {
    const v = body[field];
    if (v !== undefined && v !== null && v !== false && !(Array.isArray(v) && v.length === 0)) {
      throw invalidRequest(`${field} is not supported by the apply models (they return the merged file)`, field);
    }
  }
  const rf = body.response_format;
  if (rf !== undefined && rf !== null && !(isObject(rf) && rf.type === 'text')) {
    throw invalidRequest('response_format is not supported by the apply models (they return the merged file)', 'response_format');
  }
  return { model: model as ApplyModel, content, stream, includeUsage, maxTokens: maxRaw as number | null, temperature };
}

async function merge(req: ApplyRequest, signal?: AbortSignal): Promise<Extract<ApplyTaskResult, { ok: true }>> {
  let result: ApplyTaskResult;
  try {
    result = await runInPool({ content: req.content, mode: MODE[req.model], maxTokens: req.maxTokens }, signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof Error && /queue is full/i.test(err.message)) {
      throw new ApiError('overloaded', 'the apply workers are busy; retry with backoff');
    }
    throw err;
  }
  if (!result.ok) throw invalidRequest(result.message, 'messages[0].content');
  return result;
}

function usage(r: Extract<ApplyTaskResult, { ok: true }>): Record<string, number> {
  return { prompt_tokens: r.promptTokens, completion_tokens: r.completionTokens, total_tokens: r.promptTokens + r.completionTokens };
}

/** The chat.completion body of an apply (merge engine or apply LLM). */
function completionBody(id: string, created: number, model: string, content: string, finishReason: string, usage: Record<string, unknown>): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage,
  };
}

/** chat.completion.chunk builder of one streamed apply (`usage: null` on every chunk but the
 *  usage chunk when the client asked for usage). */
function chunkMaker(id: string, created: number, model: string, includeUsage: boolean) {
  return (choices: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> => {
    const c: Record<string, unknown> = { id, object: 'chat.completion.chunk', created, model, choices, ...extra };
    if (includeUsage && !('usage' in c)) c.usage = null;
    return c;
  };
}

function delta(d: Record<string, unknown>, finish: string | null): Record<string, unknown> {
  return { index: 0, delta: d, logprobs: null, finish_reason: finish };
}

/** The apply LLM for this merge: configured, and the merge ran (or auto picked) svc-v3-large. */
function llmFor(r: Extract<ApplyTaskResult, { ok: true }>, llm: LoadedModel | null | undefined): LoadedModel | null {
  return llm && r.model === 'svc-v3-large' ? llm : null;
}

function llmUsage(g: LlmApplyResult): Record<string, unknown> {
  const u: Record<string, unknown> = { prompt_tokens: g.promptTokens, completion_tokens: g.completionTokens, total_tokens: g.promptTokens + g.completionTokens };
  // OpenAI's predicted-outputs fields: draft tokens the model agreed with, and proposed ones it did not.
  if (g.speculative) {
    u.completion_tokens_details = {
      accepted_prediction_tokens: g.speculative.accepted,
      rejected_prediction_tokens: g.speculative.drafted - g.speculative.accepted,
    };
  }
  return u;
}

/** Response headers of an LLM apply: which model wrote it, the draft's size and acceptance. */
function llmHeaders(llm: LoadedModel, g: LlmApplyResult | null): Record<string, string> {
  const h: Record<string, string> = { 'x-apply-llm': llm.info.id };
  if (g) {
    h['x-apply-draft-length'] = String(g.draftTokens);
    if (g.speculative) {
      h['x-apply-draft-tokens'] = String(g.speculative.drafted);
      h['x-apply-draft-accepted'] = String(g.speculative.accepted);
      h['x-apply-llm-steps'] = String(g.speculative.steps);
    }
  }
  return h;
}

function runLlm(llm: LoadedModel, req: ApplyRequest, r: Extract<ApplyTaskResult, { ok: true }>, signal?: AbortSignal, onText?: (t: string) => void) {
  return runApplyLlm(llm, {
    content: req.content,
    merged: r.content,
    maxTokens: req.maxTokens,
    temperature: req.temperature,
    ...(signal ? { signal } : {}),
    ...(onText ? { onText } : {}),
  });
}

/** Non-streaming apply: the chat.completion body. Throws ApiError (400) on bad input. */
export async function completeApply(
  body: unknown,
  opts: { signal?: AbortSignal; applyModel?: LoadedModel | null } = {},
): Promise<{ statusCode: number; body: unknown }> {
  const req = validateApplyRequest(body);
  const r = await merge(req, opts.signal);
  const llm = llmFor(r, opts.applyModel);
  if (llm) {
    const g = await runLlm(llm, req, r, opts.signal);
    return { statusCode: 200, body: completionBody(newChatCompletionId(), Math.floor(Date.now() / 1000), 'svc-v3-large', g.content, g.finishReason, llmUsage(g)) };
  }
  return { statusCode: 200, body: completionBody(newChatCompletionId(), Math.floor(Date.now() / 1000), r.model, r.content, r.finishReason, usage(r)) };
}

/** svc-v3-large through the apply LLM: JSON, or content deltas as the engine produces them. */
async function handleLlmCompletion(ctx: RequestContext, req: ApplyRequest, r: Extract<ApplyTaskResult, { ok: true }>, llm: LoadedModel): Promise<void> {
  const id = newChatCompletionId();
  const created = Math.floor(Date.now() / 1000);
  if (!req.stream) {
    const g = await runLlm(llm, req, r, ctx.signal);
    for (const [k, v] of Object.entries(llmHeaders(llm, g))) ctx.setHeader(k, v);
    ctx.json(200, completionBody(id, created, 'svc-v3-large', g.content, g.finishReason, llmUsage(g)));
    return;
  }
  // Streaming: the headers leave before the first token, so acceptance goes in the usage chunk
  // (completion_tokens_details), sent when stream_options.include_usage asks for usage.
  for (const [k, v] of Object.entries(llmHeaders(llm, null))) ctx.setHeader(k, v);
  const chunk = chunkMaker(id, created, 'svc-v3-large', req.includeUsage);
  const out = new SseQueue(ctx);
  let roleSent = false;
  const sendRole = (): void => {
    if (!roleSent) out.send(chunk([delta({ role: 'assistant', content: '' }, null)]));
    roleSent = true;
  };
  // The closing chunks, the usage chunk and [DONE] leave with the end of the body.
  const tail: SseEvent[] = [];
  try {
    const g = await runLlm(llm, req, r, ctx.signal, (text) => {
      sendRole();
      out.send(chunk([delta({ content: text }, null)]));
    });
    sendRole();
    tail.push({ data: chunk([delta({}, g.finishReason)]) });
    if (req.includeUsage) tail.push({ data: chunk([], { usage: llmUsage(g) }) });
    tail.push({ data: '[DONE]' });
  } catch (err) {
    if (!out.started) throw err;
    // Mid-stream failure: the SDK raises APIError for a chunk with an `error` key.
    tail.push({ data: openaiErrorBody(toApiError(err)) as object });
  } finally {
    await out.end(tail);
  }
}

/** Pieces of the merged text for content deltas; their concatenation is the text. */
export function streamPieces(text: string, size = STREAM_PIECE_CHARS): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + size);
    if (end < text.length) {
      const nl = text.lastIndexOf('\n', end - 1);
      if (nl >= at + size / 2) end = nl + 1;
      // Never split a surrogate pair.
      const c = text.charCodeAt(end - 1);
      if (c >= 0xd800 && c <= 0xdbff) end++;
    }
    out.push(text.slice(at, end));
    at = end;
  }
  return out;
}

/** POST /v1/chat/completions for an apply model: JSON, or an SSE stream of chat.completion.chunk. */
export async function handleApplyCompletion(ctx: RequestContext, body: unknown, applyModel?: LoadedModel | null): Promise<void> {
  const req = validateApplyRequest(body);
  const r = await merge(req, ctx.signal);
  ctx.setHeader('x-apply-model', r.model);
  ctx.setHeader('x-apply-confidence', r.confidence.toFixed(2));
  ctx.setHeader('x-apply-report', r.report);
  // Code kept because placement was uncertain is worth a log line: the user may want to review it.
  if (r.ambiguities.length > 0) console.log(JSON.stringify({ ts: new Date().toISOString(), level: 'info', msg: 'apply merge', model: r.model, confidence: r.confidence, report: r.report, notes: r.ambiguities }));
  const llm = llmFor(r, applyModel);
  if (llm) return handleLlmCompletion(ctx, req, r, llm);
  const id = newChatCompletionId();
  const created = Math.floor(Date.now() / 1000);
  if (!req.stream) {
    ctx.json(200, completionBody(id, created, r.model, r.content, r.finishReason, usage(r)));
    return;
  }
  const chunk = chunkMaker(id, created, r.model, req.includeUsage);
  const sse = ctx.sse();
  try {
    await sse.send(chunk([delta({ role: 'assistant', content: '' }, null)]));
    for (const piece of streamPieces(r.content)) {
      if (sse.closed) return;
      await sse.send(chunk([delta({ content: piece }, null)]));
    }
    await sse.send(chunk([delta({}, r.finishReason)]));
    if (req.includeUsage) await sse.send(chunk([], { usage: usage(r) }));
    await sse.send('[DONE]');
  } finally {
    sse.end();
  }
}
