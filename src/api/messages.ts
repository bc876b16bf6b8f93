// POST /v1/messages (Anthropic Messages, open-source chat models only) and
// POST /v1/messages/count_tokens. Errors use the Anthropic envelope (errorFormat 'anthropic').
import { ERROR_CATALOGUE } from '../errors.js';
import { apiErrorOf } from './engine-error-mapping.js';
import type { RequestContext, Route } from '../http/types.js';
import { countMessageTokens, prepareMessage, runMessage } from '../chat/anthropic-chat.js';
import { BlockBuilder, messageBody, messageDelta, messageStart } from '../chat/anthropic-response.js';
import type { ChatServices } from '../chat/services.js';
import { SseQueue } from '../http/sse-queue.js';
import { endOfIoBatch } from '../chat/engine-turn.js';

/** Messages and count_tokens bodies may be up to 32 MB (api.md §3.5) unless --max-body says otherwise. */
export const MESSAGES_MAX_BODY = 32 * 1024 * 1024;

async function handleMessage(services: ChatServices, ctx: RequestContext): Promise<void> {
  const p = await prepareMessage(services, await ctx.readJson());
  if (p.plan.reasoningEffort) ctx.setHeader('x-reasoning-effort', p.plan.reasoningEffort);
  await endOfIoBatch();
  if (!p.req.stream) {
    const blocks = new BlockBuilder();
    const r = await runMessage(p, { signal: ctx.signal, onEvent: (ev) => blocks.onEvent(ev) });
    blocks.close();
    ctx.json(200, messageBody(p.meta, blocks.blocks, r));
    return;
  }
  const out = new SseQueue(ctx);
  // Known from the first token on (the runner reports it before any event); 0 until then.
  let cachedTokens = 0;
  const begin = (): void => {
    if (out.started) return;
    out.send(messageStart(p.meta, p.prompt.tokens.length, cachedTokens), 'message_start');
  };
  // Anthropic's order: message_start, the first content_block_start, then a ping.
  let pinged = false;
  const ping = (): void => {
    if (pinged) return;
    pinged = true;
    out.send({ type: 'ping' }, 'ping');
  };
  const blocks = new BlockBuilder((name, data) => {
    begin();
    out.send(data, name);
    if (name === 'content_block_start') ping();
  });
  try {
    const r = await runMessage(p, { signal: ctx.signal, onEvent: (ev) => blocks.onEvent(ev), onPrefilled: (c) => (cachedTokens = c) });
    cachedTokens = r.cachedTokens;
    begin();
    blocks.close();
    ping();
    out.send(messageDelta(r), 'message_delta');
    out.send({ type: 'message_stop' }, 'message_stop');
  } catch (err) {
    if (!out.started) throw err;
    const e = apiErrorOf(err);
    out.send({ type: 'error', error: { type: ERROR_CATALOGUE[e.code].anthropicType, message: e.message } }, 'error');
  } finally {
    await out.end();
  }
}

async function handleCount(services: ChatServices, ctx: RequestContext): Promise<void> {
  ctx.json(200, { input_tokens: await countMessageTokens(services, await ctx.readJson()) });
}

export function messagesRoutes(services: ChatServices, maxBody = MESSAGES_MAX_BODY): Route[] {
  return [
    { method: 'POST', path: '/v1/messages', handler: (ctx) => handleMessage(services, ctx), errorFormat: 'anthropic', maxBody, generates: true },
    {
      method: 'POST',
      path: '/v1/messages/count_tokens',
      handler: (ctx) => handleCount(services, ctx),
      errorFormat: 'anthropic',
      maxBody,
    },
  ];
}
