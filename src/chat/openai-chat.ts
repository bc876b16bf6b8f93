// Chat Completions over the engine, shared by the HTTP route (JSON and SSE) and the executor
// (batches): validate → plan → prompt → run each choice.
import type { LoadedModel } from '../engine/types.js';
import { newChatCompletionId, newOpenAIToolCallId } from './ids.js';
import { chatCompletionRequestSchema, planFromOpenAI, usesLegacyFunctions, type ChatCompletionRequest } from './openai-request.js';
import { fastChatCompletionRequest } from './openai-request-fast.js';
import { chatCompletionBody, type CompletionMeta } from './openai-response.js';
import type { ChatPlan } from './plan.js';
import { buildPrompt, buildPromptNow, resolveMaxTokens, type BuiltPrompt } from './prompt.js';
import { runChoice, type ChoiceEvent, type ChoiceResult } from './runner.js';
import { findChatModel, type ChatServices } from './services.js';
import { modelChatFormat } from './chat-format.js';
import type { OffLoopPrepared } from './openai-chat-off-loop.js';
import { parseBody } from './validate.js';

export interface PreparedChat {
  req: ChatCompletionRequest;
  plan: ChatPlan;
  model: LoadedModel;
  prompt: BuiltPrompt;
  maxTokens: number;
  meta: CompletionMeta;
}

/** Everything that can fail with a 4xx before generation starts. */
export async function prepareOpenAIChat(services: ChatServices, body: unknown): Promise<PreparedChat> {
  const req = fastChatCompletionRequest(body) ?? parseBody(chatCompletionRequestSchema, body);
  const model = findChatModel(services, req.model);
  const plan = planFromOpenAI(req);
  const prompt = buildPromptNow(model, plan) ?? (await buildPrompt(model, plan));
  const maxTokens = resolveMaxTokens(plan, prompt.tokens.length, model.info.contextLength);
  return {
    req,
    plan,
    model,
    prompt,
    maxTokens,
    meta: {
      id: newChatCompletionId(),
      created: Math.floor(Date.now() / 1000),
      model: req.model,
      logprobs: plan.logprobs,
      legacyFunctions: usesLegacyFunctions(req),
    },
  };
}

export interface RunChatOptions {
  signal?: AbortSignal;
  priority?: 'interactive' | 'batch';
  /** Streaming: called for each choice's events as they happen. */
  onEvent?: (choice: number, ev: ChoiceEvent) => void;
  /** Streaming: called when a choice has finished (before the others may have). */
  onChoiceDone?: (choice: number, r: ChoiceResult) => void;
}

const U64 = (1n << 64n) - 1n;

/** Choice i's seed: choice 0 keeps the request's (n = 1 and n > 1 agree on it), the others a
 *  splitmix64 hash of (seed, i) as a safe integer, so that seeds s and s + 1 share no choice
 *  (with seed + i, choice 1 of seed s was choice 0 of seed s + 1). */
export function choiceSeed(seed: number, i: number): number {
  if (i === 0) return seed;
  let x = (BigInt.asUintN(64, BigInt(seed)) + BigInt(i) * 0x9e3779b97f4a7c15n) & U64;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & U64;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & U64;
  return Number((x ^ (x >> 31n)) & ((1n << 53n) - 1n));
}

/** Runs all n choices concurrently, each with its own seed (choiceSeed). */
export async function runOpenAIChat(p: Pick<PreparedChat, 'plan' | 'model' | 'prompt' | 'maxTokens'>, opts: RunChatOptions = {}): Promise<ChoiceResult[]> {
  const seed = p.plan.sampling.seed;
  const runs: Promise<ChoiceResult>[] = [];
  for (let i = 0; i < p.plan.n; i++) {
    const onEvent = opts.onEvent;
    runs.push(
      runChoice(p.model, p.plan, p.prompt, {
        maxTokens: p.maxTokens,
        ...(opts.signal ? { signal: opts.signal } : {}),
        ...(opts.priority ? { priority: opts.priority } : {}),
        ...(seed !== undefined && p.plan.n > 1 ? { seed: choiceSeed(seed, i) } : {}),
        newToolCallId: newOpenAIToolCallId,
        ...(onEvent ? { onEvent: (ev: ChoiceEvent) => onEvent(i, ev) } : {}),
      }).then((r) => {
        opts.onChoiceDone?.(i, r);
        return r;
      }),
    );
  }
  return Promise.all(runs);
}

/** Non-streaming Chat Completion over the engine; throws ApiError on failure. */
export async function completeOpenAIChat(
  services: ChatServices,
  body: unknown,
  opts: { signal?: AbortSignal; priority?: 'interactive' | 'batch' } = {},
): Promise<Record<string, unknown>> {
  const p = await prepareOpenAIChat(services, body);
  const results = await runOpenAIChat(p, opts);
  return chatCompletionBody(p.meta, results);
}

/** The template input of a plan prepared off the loop: nothing reads it after the prompt is
 *  built (the runner takes the tokens), so it stays empty on this side. */
const NO_TEMPLATE: ChatPlan['template'] = Object.freeze({ messages: [], addGenerationPrompt: true }) as ChatPlan['template'];

/** Runs a request prepared off the loop, as completeOpenAIChat runs one prepared here; the same
 *  response body. `model` is the one the worker prepared for (the request's). */
export async function completePreparedOpenAIChat(
  model: LoadedModel,
  p: OffLoopPrepared,
  opts: { signal?: AbortSignal; priority?: 'interactive' | 'batch' } = {},
): Promise<Record<string, unknown>> {
  const format = await modelChatFormat(model);
  const prompt: BuiltPrompt = {
    text: p.text,
    ...(p.openHeader !== undefined ? { openHeader: p.openHeader } : {}),
    tokens: p.tokens,
    format,
    reasoningTemplate: format.format.reasoning !== null,
    thinkingOpen: p.thinkingOpen,
  };
  const plan: ChatPlan = { ...p.plan, template: NO_TEMPLATE };
  const meta = {
    id: newChatCompletionId(),
    created: Math.floor(Date.now() / 1000),
    model: plan.model,
    logprobs: plan.logprobs,
    legacyFunctions: p.legacyFunctions,
  };
  const results = await runOpenAIChat({ plan, model, prompt, maxTokens: p.maxTokens }, opts);
  return chatCompletionBody(meta, results);
}
