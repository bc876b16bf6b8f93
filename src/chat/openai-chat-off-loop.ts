// A Chat Completions request prepared on a worker thread (src/api/chat-prepare-worker.ts) for a
// body too large to bring to the event loop (a batch line of up to 8 MiB: its structured clone
// alone held the loop 31-259 ms). The worker does what prepareOpenAIChat does up to the prompt:
// validation, plan, chat format, template render, tokenization and the max-tokens check, with the
// model's own tokenizer and template (modelText(path), the ones NativeModel and the engine's text
// pool use). Only what running the request needs comes back: the plan without its template input,
// the token ids, and the facts the runner reads from the prompt's text (whether a <think> block is
// open, harmony's open header). A forced tool call continues the prompt's text, so for that case
// the text comes back too. The loop's side is completePreparedOpenAIChat (openai-chat.ts); this
// module is what the worker loads, so it leaves the runner and the engine out.
import type { ModelText } from '../engine/text-worker.js';
import { detectChatFormat } from './chat-format.js';
import { openHarmonyHeader } from './harmony-parser.js';
import { chatCompletionRequestSchema, planFromOpenAI, usesLegacyFunctions } from './openai-request.js';
import { fastChatCompletionRequest } from './openai-request-fast.js';
import type { ChatPlan } from './plan.js';
import { dropDoubleBos, finishRenderedText, resolveMaxTokens } from './prompt.js';
import { adaptTemplateInput } from './template-input.js';
import { parseBody } from './validate.js';

/** The plan less its template input (the messages: the large part). */
export type PlanWithoutTemplate = Omit<ChatPlan, 'template'>;

export interface OffLoopPrepared {
  plan: PlanWithoutTemplate;
  tokens: Uint32Array;
  thinkingOpen: boolean;
  /** The prompt's text: only for a forced tool call (null otherwise). */
  text: string | null;
  /** openHarmonyHeader of the prompt's text (harmony models only). */
  openHeader?: string;
  maxTokens: number;
  legacyFunctions: boolean;
}

/** What the worker answers: the prepared request, or (the body valid, the model not loaded) a
 *  request for the loop to raise findChatModel's error, as prepareOpenAIChat does at that point. */
export type OffLoopOutcome = { kind: 'prepared'; prepared: OffLoopPrepared } | { kind: 'no-model' };

/** The model as the worker knows it: its text (modelText(info.path)) and context length; null
 *  when the request's model is not loaded. Throws what prepareOpenAIChat throws (ApiError,
 *  EngineError from the template). */
export function prepareOpenAIChatOffLoop(body: unknown, model: { text: ModelText; contextLength: number } | null): OffLoopOutcome {
  const req = fastChatCompletionRequest(body) ?? parseBody(chatCompletionRequestSchema, body);
  if (!model) return { kind: 'no-model' };
  const { template, ...plan } = planFromOpenAI(req);
  const format = detectChatFormat(model.text.chatTemplate);
  const rendered = model.text.template.render(adaptTemplateInput(template, format));
  const { text, thinkingOpen } = finishRenderedText(format, plan, rendered);
  const ids = model.text.tokenizer.encode(text, { addSpecial: true, parseSpecial: true });
  const tokens = dropDoubleBos({ info: { bosToken: model.text.tokenizer.bos } }, ids);
  const maxTokens = resolveMaxTokens(plan, tokens.length, model.contextLength);
  const openHeader = format.reasoning === 'harmony' ? openHarmonyHeader(text) : undefined;
  return {
    kind: 'prepared',
    prepared: {
      plan,
      // A subarray (BOS dropped) would carry the whole buffer across; this copy is the worker's.
      tokens: tokens.byteOffset === 0 && tokens.byteLength === tokens.buffer.byteLength ? tokens : tokens.slice(),
      thinkingOpen,
      text: plan.toolMode.kind === 'forced' ? text : null,
      ...(openHeader !== undefined ? { openHeader } : {}),
      maxTokens,
      legacyFunctions: usesLegacyFunctions(req),
    },
  };
}
