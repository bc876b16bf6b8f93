// OpenAI text_completion objects and stream chunks from the service's results.
import type { CompletionChoice, PreparedCompletion, TokenLogprob } from './run.js';
import { promptTokenCount } from './run.js';

export interface OpenAILogprobs {
  tokens: string[];
  token_logprobs: number[];
  top_logprobs: Array<Record<string, number>>;
  text_offset: number[];
}

export function logprobsBody(entries: readonly TokenLogprob[] | null): OpenAILogprobs | null {
  if (!entries) return null;
  return {
    tokens: entries.map((e) => e.token),
    token_logprobs: entries.map((e) => e.logprob),
    top_logprobs: entries.map((e) => e.top),
    text_offset: entries.map((e) => e.offset),
  };
}

function usage(p: PreparedCompletion, choices: readonly CompletionChoice[]) {
  const prompt = promptTokenCount(p);
  const completion = choices.reduce((a, c) => a + c.completionTokens, 0);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function completionBody(p: PreparedCompletion, choices: readonly CompletionChoice[]) {
  return {
    id: p.id,
    object: 'text_completion' as const,
    created: p.created,
    model: p.plan.model,
    choices: choices.map((c) => ({ index: c.index, text: c.text, logprobs: logprobsBody(c.logprobs), finish_reason: c.finish })),
    usage: usage(p, choices),
  };
}

function chunk(p: PreparedCompletion, choices: unknown[]) {
  return { id: p.id, object: 'text_completion' as const, created: p.created, model: p.plan.model, choices };
}

export function textChunk(p: PreparedCompletion, index: number, text: string, lp: readonly TokenLogprob[]) {
  return chunk(p, [{ index, text, logprobs: p.plan.logprobs !== null ? logprobsBody(lp) : null, finish_reason: null }]);
}

export function finishChunk(p: PreparedCompletion, c: CompletionChoice) {
  return chunk(p, [{ index: c.index, text: '', logprobs: null, finish_reason: c.finish }]);
}

/** stream_options.include_usage: the last chunk, with no choices. */
export function usageChunk(p: PreparedCompletion, choices: readonly CompletionChoice[]) {
  return { ...chunk(p, []), usage: usage(p, choices) };
}
