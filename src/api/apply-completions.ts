// The code-edit apply models (svc-v3-fast, svc-v3-large, auto) in the Chat Completions format.
// POST /v1/chat/completions dispatches here (src/api/chat-completions.ts); the batch executor calls
// completeApply. Validation runs on the event loop (cheap field checks); parsing the message,
// the merge and token counting run in the piscina pool (src/apply/pool.ts). With an apply LLM
// configured (--apply-model, src/apply/llm.ts), svc-v3-large (and auto when it picks large) has
// the LLM write the file, the merge result serving as its speculative draft.
import { apiError } from '../errors.js';
import { chatCompletionBody, OpenAIChunker, type CompletionMeta } from '../chat/openai-response.js';
import type { ChoiceResult } from '../chat/runner.js';
import { parseBody } from '../chat/validate.js';
import { applyRequestSchema, type ApplyRequest } from '../apply/apply-request.js';
import type { RequestContext } from '../http/types.js';
import { streamOpenAi } from './openai-stream.js';
import { newChatCompletionId } from '../chat/ids.js';
import type { MergeMode } from '../apply/merge.js';
import { runInPool } from '../apply/pool.js';
import type { ApplyTaskResult } from '../apply/run.js';
import { runApplyLlm, type LlmApplyResult } from '../apply/llm.js';
import type { ApplyModel } from '../assets/apply-models.js';
import type { LoadedModel } from '../engine/types.js';

/** Characters per streamed content delta (cut at a line end when one is near). */
const STREAM_PIECE_CHARS = 2048;

const MODE: Record<ApplyModel, MergeMode> = { 'svc-v3-fast': 'fast', 'svc-v3-large': 'large', auto: 'auto' };

async function merge(req: ApplyRequest, signal?: AbortSignal): Promise<MergeResult> {
  let result: ApplyTaskResult;
  try {
    result = await runInPool({ content: req.content, mode: MODE[req.model], maxTokens: req.maxTokens }, signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    if (err instanceof Error && /queue is full/i.test(err.message)) {
      throw apiError('apply_workers_busy');
    }
    throw err;
  }
  if (!result.ok) throw apiError('invalid_field', { field: 'messages[0].content', problem: result.message }, 'messages[0].content');
  return result;
}

type MergeResult = Extract<ApplyTaskResult, { ok: true }>;

/** An apply's output as a chat choice, so chat's OpenAI builders write its bodies and chunks. */
function applyChoice(text: string, finish: string, promptTokens: number, completionTokens: number, prediction?: ChoiceResult['prediction']): ChoiceResult {
  return {
    text, thinking: '', toolCalls: [], finish: finish === 'length' ? 'length' : 'stop', stopSequence: null, forcedNamed: false,
    promptTokens, cachedTokens: 0, completionTokens, reasoningTokens: 0, logprobs: [], ...(prediction ? { prediction } : {}),
  };
}

function mergeChoice(r: MergeResult): ChoiceResult {
  return applyChoice(r.content, r.finishReason, r.promptTokens, r.completionTokens);
}

function llmChoice(g: LlmApplyResult): ChoiceResult {
  const prediction = g.speculative ? { accepted: g.speculative.accepted, rejected: g.speculative.drafted - g.speculative.accepted } : undefined;
  return applyChoice(g.content, g.finishReason, g.promptTokens, g.completionTokens, prediction);
}

function meta(model: string): CompletionMeta {
  return { id: newChatCompletionId(), created: Math.floor(Date.now() / 1000), model, logprobs: false, legacyFunctions: false };
}

/** The apply LLM for this merge: configured, and the merge ran (or auto picked) svc-v3-large. */
function llmFor(r: MergeResult, llm: LoadedModel | null | undefined): LoadedModel | null {
  return llm && r.model === 'svc-v3-large' ? llm : null;
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

function runLlm(llm: LoadedModel, req: ApplyRequest, r: MergeResult, signal?: AbortSignal, onText?: (t: string) => void) {
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
  const req = parseBody(applyRequestSchema, body);
  const r = await merge(req, opts.signal);
  const llm = llmFor(r, opts.applyModel);
  if (llm) {
    const g = await runLlm(llm, req, r, opts.signal);
    return { statusCode: 200, body: chatCompletionBody(meta('svc-v3-large'), [llmChoice(g)]) };
  }
  return { statusCode: 200, body: chatCompletionBody(meta(r.model), [mergeChoice(r)]) };
}

/** svc-v3-large through the apply LLM: JSON, or content deltas as the engine produces them. */
async function handleLlmCompletion(ctx: RequestContext, req: ApplyRequest, r: MergeResult, llm: LoadedModel): Promise<void> {
  const m = meta('svc-v3-large');
  if (!req.stream) {
    const g = await runLlm(llm, req, r, ctx.signal);
    for (const [k, v] of Object.entries(llmHeaders(llm, g))) ctx.setHeader(k, v);
    ctx.json(200, chatCompletionBody(m, [llmChoice(g)]));
    return;
  }
  // Streaming: the headers leave before the first token, so acceptance goes in the usage chunk
  // (completion_tokens_details), sent when stream_options.include_usage asks for usage.
  for (const [k, v] of Object.entries(llmHeaders(llm, null))) ctx.setHeader(k, v);
  const chunker = new OpenAIChunker(m, req.includeUsage);
  await streamOpenAi(ctx, async (out, tail) => {
    const g = await runLlm(llm, req, r, ctx.signal, (text) => out.send(chunker.event(0, { type: 'text', text })));
    const choice = llmChoice(g);
    for (const c of chunker.finish(0, choice)) tail.push({ data: c });
    const usage = chunker.usage([choice]);
    if (usage) tail.push({ data: usage });
    tail.push({ data: '[DONE]' });
  });
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
  const req = parseBody(applyRequestSchema, body);
  const r = await merge(req, ctx.signal);
  ctx.setHeader('x-apply-model', r.model);
  ctx.setHeader('x-apply-confidence', r.confidence.toFixed(2));
  ctx.setHeader('x-apply-report', r.report);
  // Code kept because placement was uncertain is worth a log line: the user may want to review it.
  if (r.ambiguities.length > 0) console.log(JSON.stringify({ ts: new Date().toISOString(), level: 'info', msg: 'apply merge', model: r.model, confidence: r.confidence, report: r.report, notes: r.ambiguities }));
  const llm = llmFor(r, applyModel);
  if (llm) return handleLlmCompletion(ctx, req, r, llm);
  const m = meta(r.model);
  const choice = mergeChoice(r);
  if (!req.stream) {
    ctx.json(200, chatCompletionBody(m, [choice]));
    return;
  }
  const chunker = new OpenAIChunker(m, req.includeUsage);
  const sse = ctx.sse();
  try {
    // The role goes first, alone, as OpenAI streams it.
    await sse.send(chunker.event(0, { type: 'text', text: '' }));
    for (const piece of streamPieces(r.content)) {
      if (sse.closed) return;
      await sse.send(chunker.event(0, { type: 'text', text: piece }));
    }
    for (const c of chunker.finish(0, choice)) await sse.send(c);
    const usage = chunker.usage([choice]);
    if (usage) await sse.send(usage);
    await sse.send('[DONE]');
  } finally {
    sse.end();
  }
}
