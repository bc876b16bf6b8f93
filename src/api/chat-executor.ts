// Non-streaming Chat Completions for in-process callers (the batch runner): any model, never throws.
// Apply models go to the apply engine; chat models to the serving engine; failures come back as
// {statusCode, body: OpenAI error envelope}, the same bytes the HTTP route would send.
import { openaiErrorBody } from '../errors.js';
import { apiErrorOf } from './engine-error-mapping.js';
import { completeOpenAIChat } from '../chat/openai-chat.js';
import type { ChatServices } from '../chat/services.js';
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
  try {
    // Executed requests are answered whole: a batch line's `stream: true` is ignored.
    const b = body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>), stream: false } : body;
    if (b && typeof b === 'object' && 'stream_options' in b) delete (b as Record<string, unknown>).stream_options;
    const model = modelOf(b);
    if (model !== undefined && isApplyModel(model)) return await completeApply(b, { ...(opts.signal ? { signal: opts.signal } : {}), applyModel: services.applyModel ?? null });
    const out = await completeOpenAIChat(services, b, {
      ...(opts.signal ? { signal: opts.signal } : {}),
      priority: opts.priority ?? 'interactive',
    });
    return { statusCode: 200, body: out };
  } catch (err) {
    const e = apiErrorOf(err);
    return { statusCode: e.status, body: openaiErrorBody(e) };
  }
}
