// POST /v1/completions (legacy text completions): one text_completion object, or a stream of
// text_completion chunks ending with an optional usage chunk and [DONE].
import type { RequestContext, Route } from '../http/types.js';
import type { ChatServices } from '../chat/services.js';
import { streamOpenAi } from './openai-stream.js';
import { prepareCompletion, runCompletion } from '../completions/run.js';
import { completionBody, finishChunk, textChunk, usageChunk } from '../completions/response.js';

async function stream(services: ChatServices, ctx: RequestContext, body: unknown): Promise<void> {
  const p = await prepareCompletion(services, body);
  await streamOpenAi(ctx, async (out, tail) => {
    const choices = await runCompletion(p, {
      signal: ctx.signal,
      onText: (index, text, lp) => out.send(textChunk(p, index, text, lp)),
      onChoiceDone: (c) => out.send(finishChunk(p, c)),
    });
    if (p.plan.includeUsage) tail.push({ data: usageChunk(p, choices) });
    tail.push({ data: '[DONE]' });
  });
}

async function handle(services: ChatServices, ctx: RequestContext): Promise<void> {
  const body = await ctx.readJson();
  if (body && typeof body === 'object' && (body as Record<string, unknown>).stream === true) return stream(services, ctx, body);
  const p = await prepareCompletion(services, body);
  ctx.json(200, completionBody(p, await runCompletion(p, { signal: ctx.signal })));
}

export function completionRoutes(services: ChatServices): Route[] {
  return [{ method: 'POST', path: '/v1/completions', handler: (ctx) => handle(services, ctx), errorFormat: 'openai', generates: true }];
}
