// Non-streaming Chat Completions for in-process callers (the batch runner): any model, never throws.
// Apply models go to the apply engine; chat models to the serving engine; failures come back as
// {statusCode, body: OpenAI error envelope}, the same bytes the HTTP route would send.
// A large batch line arrives unparsed (UnparsedBody): a chat model's is prepared in a worker
// (chat-prepare-pool.ts), so its text never reaches the event loop; an apply model's is parsed
// here and takes the usual path.
import { openaiErrorBody } from '../errors.js';
import { apiErrorOf } from './engine-error-mapping.js';
import { completeOpenAIChat, completePreparedOpenAIChat } from '../chat/openai-chat.js';
import { findChatModel, type ChatServices } from '../chat/services.js';
import { isUnparsedBody, type UnparsedBody } from '../batch/types.js';
import { prepareLineOffLoop, preparesOffLoop } from './chat-prepare-pool.js';
import { bodyOfLine } from './chat-prepare-worker.js';
import { isApplyModel } from '../assets/apply-models.js';
import { completeApply } from './apply-completions.js';

export interface ExecuteOptions {
  signal?: AbortSignal;
  requestId: string;
  priority?: 'interactive' | 'batch';
}

export interface ExecuteResult {
  statusCode: number;
  body: unknown;
}

function modelOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const m = (body as Record<string, unknown>).model;
    if (typeof m === 'string') return m;
  }
  return undefined;
}

export async function executeChatCompletion(services: ChatServices, body: unknown, opts: ExecuteOptions): Promise<ExecuteResult> {
  if (isUnparsedBody(body)) return executeUnparsed(services, body, opts);
  try {
    // Executed requests are answered whole: a batch line's `stream: true` is ignored.
    const b = body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>), stream: false } : body;
    if (b && typeof b === 'object' && 'stream_options' in b) delete (b as Record<string, unknown>).stream_options;
    const model = modelOf(b);
    if (model !== undefined && isApplyModel(model)) return await completeApply(b, { ...(opts.signal ? { signal: opts.signal } : {}), applyModel: services.applyModel ?? null });
    const out = await completeOpenAIChat(services, b, runOptions(opts));
    return { statusCode: 200, body: out };
  } catch (err) {
    return errorResult(err);
  }
}

/** The signal and priority a batch request runs with. */
function runOptions(opts: ExecuteOptions): { signal?: AbortSignal; priority: NonNullable<ExecuteOptions['priority']> } {
  return { ...(opts.signal ? { signal: opts.signal } : {}), priority: opts.priority ?? 'interactive' };
}

/** A failed request's result: its status and the OpenAI error envelope. */
function errorResult(err: unknown): ExecuteResult {
  const e = apiErrorOf(err);
  return { statusCode: e.status, body: openaiErrorBody(e) };
}

/** A batch line the batch layer left unparsed. Its chat request is prepared in the pool (the same
 *  validation, plan, prompt and errors as prepareOpenAIChat) unless the line is an apply model's,
 *  there is no pool, or the model cannot be prepared from its file: then it is parsed here. */
async function executeUnparsed(services: ChatServices, body: UnparsedBody, opts: ExecuteOptions): Promise<ExecuteResult> {
  const model = services.models.get(body.model) ?? null;
  if (isApplyModel(body.model) || !preparesOffLoop() || (model !== null && model.textFromPath !== true)) {
    return executeChatCompletion(services, bodyOfLine(body.line), opts);
  }
  try {
    const outcome = await prepareLineOffLoop(body.line, model && { path: model.info.path, contextLength: model.info.contextLength });
    // Valid, but the model is not loaded: findChatModel's error, as prepareOpenAIChat raises it.
    if (outcome.kind === 'no-model' || model === null) {
      findChatModel(services, body.model);
      throw new Error(`model ${body.model} was not loaded when its line was prepared`);
    }
    const out = await completePreparedOpenAIChat(model, outcome.prepared, runOptions(opts));
    return { statusCode: 200, body: out };
  } catch (err) {
    return errorResult(err);
  }
}
