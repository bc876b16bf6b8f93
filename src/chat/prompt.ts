// Prompt building: the model's own chat template (LoadedModel.renderChat) → token ids, plus the
// context-window and max-tokens checks that need the token count.
import { ApiError } from '../errors.js';
import type { LoadedModel } from '../engine/types.js';
import type { ChatPlan } from './plan.js';

export interface BuiltPrompt {
  text: string;
  tokens: Uint32Array;
  /** The template is a reasoning template (it knows <think>). */
  reasoningTemplate: boolean;
  /** The rendered prompt leaves a <think> block open for the model. */
  thinkingOpen: boolean;
}

/** Template text to token ids. The template writes BOS itself when the model wants one, so a
 *  second BOS from the tokenizer's add-special step is dropped. */
export async function tokenizePrompt(model: LoadedModel, text: string): Promise<Uint32Array> {
  const ids = await model.tokenize(text, { addSpecial: true, parseSpecial: true });
  const bos = model.info.bosToken;
  if (bos !== null && ids.length >= 2 && ids[0] === bos && ids[1] === bos) return ids.subarray(1);
  return ids;
}

export async function renderPrompt(model: LoadedModel, plan: ChatPlan): Promise<string> {
  return model.renderChat(plan.template);
}

export async function buildPrompt(model: LoadedModel, plan: ChatPlan): Promise<BuiltPrompt> {
  const text = await renderPrompt(model, plan);
  const tokens = await tokenizePrompt(model, text);
  const reasoningTemplate = (model.info.chatTemplate ?? '').includes('<think>');
  const tail = text.trimEnd();
  const thinkingOpen = reasoningTemplate && tail.lastIndexOf('<think>') > tail.lastIndexOf('</think>');
  return { text, tokens, reasoningTemplate, thinkingOpen };
}

/** The completion budget for a prompt of `promptTokens`: 400 naming the field when it cannot fit. */
export function resolveMaxTokens(
  plan: Pick<ChatPlan, 'maxTokens' | 'maxTokensParam'>,
  promptTokens: number,
  contextLength: number,
  messagesParam = 'messages',
): number {
  if (promptTokens >= contextLength) {
    throw new ApiError(
      'context_length_exceeded',
      `This model's maximum context length is ${contextLength} tokens. However, your messages resulted in ${promptTokens} tokens, leaving no room for a completion.`,
      { param: messagesParam },
    );
  }
  const room = contextLength - promptTokens;
  if (plan.maxTokens === null) return room;
  if (plan.maxTokens > room) {
    throw new ApiError(
      'context_length_exceeded',
      `${plan.maxTokensParam} is too large: this model's maximum context length is ${contextLength} tokens and your messages use ${promptTokens}, so ${plan.maxTokensParam} may be at most ${room} (got ${plan.maxTokens}).`,
      { param: plan.maxTokensParam },
    );
  }
  return plan.maxTokens;
}
