// Sampling settings shared by in-process callers (the apply LLM, the predictor, tests, benches) and
// the base of the chat APIs' defaults (chat/plan.ts).
import type { ModelInfo, SamplingParams } from './types.js';

/** Greedy decoding with every filter and penalty off; spread it and override fields for others. */
export const GREEDY_SAMPLING: Readonly<SamplingParams> = Object.freeze({
  temperature: 0,
  topP: 1,
  topK: 0,
  minP: 0,
  repetitionPenalty: 1,
  presencePenalty: 0,
  frequencyPenalty: 0,
  logitBias: Object.freeze({}),
});

/** A logit bias that bans the model's end-of-generation tokens, so generation runs to its token limit. */
export function eosBan(info: Pick<ModelInfo, 'eosTokens'>): Record<number, number> {
  return Object.fromEntries(info.eosTokens.map((t) => [t, -100]));
}
