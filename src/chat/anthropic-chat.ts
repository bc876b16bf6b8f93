// Messages over the engine: validation, prompt, one run; count_tokens on the identical prompt.
import { apiError } from '../errors.js';
import type { LoadedModel } from '../engine/types.js';
import { isApplyModel } from '../assets/apply-models.js';
import { newAnthropicToolUseId, newMessageId } from './ids.js';
import { countTokensRequestSchema, messagesRequestSchema, planFromAnthropic, type MessagesRequest } from './anthropic-request.js';
import type { MessageMeta } from './anthropic-response.js';
import type { ChatPlan } from './plan.js';
import { buildPrompt, buildPromptNow, renderPrompt, resolveMaxTokens, tokenizePrompt, type BuiltPrompt } from './prompt.js';
import { runChoice, type ChoiceResult, type RunOptions } from './runner.js';
import { findChatModel, type ChatServices } from './services.js';
import { parseBody } from './validate.js';

export interface PreparedMessage {
  req: MessagesRequest;
  plan: ChatPlan;
  model: LoadedModel;
  prompt: BuiltPrompt;
  maxTokens: number;
  meta: MessageMeta;
}

function rejectApplyModel(model: string): void {
  if (isApplyModel(model)) {
    throw apiError('apply_model_on_messages', { model });
  }
}

export async function prepareMessage(services: ChatServices, body: unknown): Promise<PreparedMessage> {
  const req = parseBody(messagesRequestSchema, body);
  rejectApplyModel(req.model);
  const model = findChatModel(services, req.model);
  const plan = planFromAnthropic(req, req);
  const prompt = buildPromptNow(model, plan) ?? (await buildPrompt(model, plan));
  const maxTokens = resolveMaxTokens(plan, prompt.tokens.length, model.info.contextLength);
  return { req, plan, model, prompt, maxTokens, meta: { id: newMessageId(), model: req.model } };
}

export function runMessage(
  p: PreparedMessage,
  opts: Pick<RunOptions, 'signal' | 'onEvent' | 'onPrefilled'> = {},
): Promise<ChoiceResult> {
  return runChoice(p.model, p.plan, p.prompt, {
    maxTokens: p.maxTokens,
    ...opts,
    priority: 'interactive',
    newToolCallId: newAnthropicToolUseId,
  });
}

/** Tokens of the prompt /v1/messages would build for the same body (tools and system included). */
export async function countMessageTokens(services: ChatServices, body: unknown): Promise<number> {
  const req = parseBody(countTokensRequestSchema, body);
  rejectApplyModel(req.model);
  const model = findChatModel(services, req.model);
  const plan = planFromAnthropic(req);
  return (await tokenizePrompt(model, await renderPrompt(model, plan))).length;
}
