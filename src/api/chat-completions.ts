// POST /v1/chat/completions: apply models go to the apply engine; chat models run on the serving
// engine, answered as one chat.completion or as a chat.completion.chunk SSE stream.
import type { RequestContext, Route } from '../http/types.js';
import { isApplyModel } from '../assets/apply-models.js';
import { handleApplyCompletion } from './apply-completions.js';
import { prepareOpenAIChat, runOpenAIChat } from '../chat/openai-chat.js';
import { chatCompletionBody, OpenAIChunker } from '../chat/openai-response.js';
import type { ChatServices } from '../chat/services.js';
import { streamOpenAi } from './openai-stream.js';
import { endOfIoBatch } from '../chat/engine-turn.js';
import { leaveIntake } from '../intake.js';

function field(body: unknown, name: string): unknown {
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)[name] : undefined;
}

async function streamChat(services: ChatServices, ctx: RequestContext, body: unknown): Promise<void> {
  const p = await prepareOpenAIChat(services, body);
  if (p.plan.reasoningEffort) ctx.setHeader('x-reasoning-effort', p.plan.reasoningEffort);
  await endOfIoBatch();
  const chunker = new OpenAIChunker(p.meta, p.req.stream_options?.include_usage === true);
  let running = p.plan.n;
  await streamOpenAi(ctx, async (out, tail) => {
    const results = await runOpenAIChat(p, {
      signal: ctx.signal,
      onEvent: (i, ev) => out.send(chunker.event(i, ev)),
      onChoiceDone: (i, r) => {
        // The last choice's closing chunks go with the end of the body.
        const chunks = chunker.finish(i, r);
        if (--running === 0) for (const c of chunks) tail.push({ data: c });
        else for (const c of chunks) out.send(c);
      },
    });
    const usage = chunker.usage(results);
    if (usage) tail.push({ data: usage });
    tail.push({ data: '[DONE]' });
  });
}

async function handle(services: ChatServices, ctx: RequestContext): Promise<void> {
  const body = await ctx.readJson();
  const model = field(body, 'model');
  if (typeof model === 'string' && isApplyModel(model)) {
    leaveIntake(ctx.signal); // the apply engine's, not the serving engine's: no submit to wait for
    return handleApplyCompletion(ctx, body, services.applyModel);
  }
  if (field(body, 'stream') === true) return streamChat(services, ctx, body);
  const p = await prepareOpenAIChat(services, body);
  if (p.plan.reasoningEffort) ctx.setHeader('x-reasoning-effort', p.plan.reasoningEffort);
  await endOfIoBatch();
  ctx.json(200, chatCompletionBody(p.meta, await runOpenAIChat(p, { signal: ctx.signal })));
}

export function chatCompletionRoutes(services: ChatServices): Route[] {
  return [{ method: 'POST', path: '/v1/chat/completions', handler: (ctx) => handle(services, ctx), errorFormat: 'openai', generates: true }];
}
