// Shared by the engine tests: deterministic prompts and a greedy generate() that collects events.
import type { EngineModel } from '../../../src/engine/index.js';
import { GREEDY_SAMPLING } from '../../../src/engine/sampling.js';
import type { GenerateRequest, TokenEvent } from '../../../src/engine/types.js';

/** n token ids in [100, 3100) from a small LCG seeded by salt: the same prompt for the same salt. */
export function syntheticPrompt(n: number, salt: number): Uint32Array {
  const out = new Uint32Array(n);
  let x = salt * 7919 + 13;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = 100 + (x % 3000);
  }
  return out;
}

/** generate() with greedy sampling and `maxTokens` unless req sets them; every event kept. */
export async function generateEvents(model: EngineModel, req: Partial<GenerateRequest> & { prompt: Uint32Array }, maxTokens: number) {
  const events: TokenEvent[] = [];
  const result = await model.generate({ maxTokens, sampling: GREEDY_SAMPLING, ...req }, (ev) => events.push(ev));
  return { tokens: events.map((e) => e.token), text: events.map((e) => e.text).join(''), events, result };
}
