// Prompt building: the model's own chat template (LoadedModel.renderChat) → token ids, plus the
// context-window and max-tokens checks that need the token count.
import { apiError } from '../errors.js';
import type { LoadedModel } from '../engine/types.js';
import type { ChatPlan } from './plan.js';
import { answerPrefix, modelChatFormat, modelChatFormatNow, type ChatFormat, type ModelChatFormat } from './chat-format.js';
import { adaptTemplateInput } from './template-input.js';

export interface BuiltPrompt {
  /** The prompt text; null where the prompt was built on a worker thread and its text stayed there
   *  (a large batch line, openai-chat-off-loop.ts): `openHeader` then stands in for what the runner
   *  reads from it, and a forced tool call (which continues the text) always gets the text. */
  text: string | null;
  /** openHarmonyHeader(text), worked out where the text was built; set only when `text` is null. */
  openHeader?: string;
  tokens: Uint32Array;
  /** How this model writes reasoning and tool calls. */
  format: ModelChatFormat;
  /** The template is a reasoning template (<think>, or harmony's analysis channel). */
  reasoningTemplate: boolean;
  /** The rendered prompt leaves a <think> block open for the model. */
  thinkingOpen: boolean;
}

/** A prompt built on this thread: its text is here. */
export type TextPrompt = BuiltPrompt & { text: string };

/** Template text to token ids. The template writes BOS itself when the model wants one, so a
 *  second BOS from the tokenizer's add-special step is dropped. */
export async function tokenizePrompt(model: LoadedModel, text: string): Promise<Uint32Array> {
  return dropDoubleBos(model, await model.tokenize(text, { addSpecial: true, parseSpecial: true }));
}

/** The template leaves a <think> block open at the end of the prompt. */
function endsInThinking(format: ChatFormat, text: string): boolean {
  if (format.reasoning !== 'think') return false;
  const tail = text.trimEnd();
  return tail.lastIndexOf('<think>') > tail.lastIndexOf('</think>');
}

export function dropDoubleBos(model: { info: { bosToken: number | null } }, ids: Uint32Array): Uint32Array {
  const bos = model.info.bosToken;
  if (bos !== null && ids.length >= 2 && ids[0] === bos && ids[1] === bos) return ids.subarray(1);
  return ids;
}

/** The prompt text: the template input adapted to the model's format, rendered by its template;
 *  an answer under a grammar (json_schema) starts past the reasoning (chat-format.ts answerPrefix). */
export async function renderPrompt(model: LoadedModel, plan: ChatPlan): Promise<string> {
  return (await renderForModel(model, plan)).text;
}

async function renderForModel(model: LoadedModel, plan: ChatPlan): Promise<{ text: string; format: ModelChatFormat; thinkingOpen: boolean }> {
  const format = await modelChatFormat(model);
  return finishRender(format, plan, await model.renderChat(adaptTemplateInput(plan.template, format.format)));
}

function finishRender(format: ModelChatFormat, plan: ChatPlan, rendered: string): { text: string; format: ModelChatFormat; thinkingOpen: boolean } {
  return { ...finishRenderedText(format.format, plan, rendered), format };
}

/** The rendered template's text as the prompt: a grammar's answer prefix added, and whether a
 *  <think> block is left open. */
export function finishRenderedText(format: ChatFormat, plan: Pick<ChatPlan, 'grammar'>, rendered: string): { text: string; thinkingOpen: boolean } {
  let text = rendered;
  let thinkingOpen = endsInThinking(format, text);
  if (plan.grammar) {
    text += answerPrefix(format, thinkingOpen, false);
    thinkingOpen = false;
  }
  return { text, thinkingOpen };
}

/** buildPrompt's answer without waiting, where the model renders and tokenizes this prompt on the
 *  event loop anyway (short prompts, the format known); undefined otherwise. A request's intake
 *  then takes no promise hops for it (several per request, each a microtask or two). */
export function buildPromptNow(model: LoadedModel, plan: ChatPlan): TextPrompt | undefined {
  const format = modelChatFormatNow(model);
  if (!format || !model.renderChatNow || !model.tokenizeNow) return undefined;
  const rendered = model.renderChatNow(adaptTemplateInput(plan.template, format.format));
  if (rendered === undefined) return undefined;
  const { text, thinkingOpen } = finishRender(format, plan, rendered);
  const ids = model.tokenizeNow(text, { addSpecial: true, parseSpecial: true });
  if (ids === undefined) return undefined;
  return { text, tokens: dropDoubleBos(model, ids), format, reasoningTemplate: format.format.reasoning !== null, thinkingOpen };
}

/** The prompt by the awaited path (callers try buildPromptNow first). */
export async function buildPrompt(model: LoadedModel, plan: ChatPlan): Promise<TextPrompt> {
  const { text, format, thinkingOpen } = await renderForModel(model, plan);
  const tokens = await tokenizePrompt(model, text);
  return { text, tokens, format, reasoningTemplate: format.format.reasoning !== null, thinkingOpen };
}

/** The completion budget for a prompt of `promptTokens`: 400 naming the field when it cannot fit. */
export function resolveMaxTokens(
  plan: Pick<ChatPlan, 'maxTokens' | 'maxTokensParam'>,
  promptTokens: number,
  contextLength: number,
  messagesParam = 'messages',
): number {
  if (promptTokens >= contextLength) {
    throw apiError('prompt_exceeds_context', { context: contextLength, prompt: 'your messages', tokens: promptTokens }, messagesParam);
  }
  const room = contextLength - promptTokens;
  if (plan.maxTokens === null) return room;
  if (plan.maxTokens > room) {
    const field = plan.maxTokensParam;
    throw apiError('max_tokens_exceeds_context', { field, context: contextLength, tokens: promptTokens, room, requested: plan.maxTokens }, field);
  }
  return plan.maxTokens;
}
