// Sampling settings shared by in-process callers (the apply LLM, the predictor, tests, benches).
import type { SamplingParams } from './types.js';

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
