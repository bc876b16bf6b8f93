// buildPromptNow: a short prompt is rendered and tokenized at once (no promise hops in a request's
// intake), giving exactly what the awaited path gives; a prompt the model would hand to its text
// pool, or a model without the synchronous methods, takes the awaited path (src/chat/prompt.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import type { LoadedModel } from '../../src/engine/types.js';
import { chatCompletionRequestSchema, planFromOpenAI } from '../../src/chat/openai-request.js';
import { buildPrompt, buildPromptNow } from '../../src/chat/prompt.js';
import { OFFLOAD_MIN_CHARS } from '../../src/engine/text-pool.js';
import { getTestModel } from '../helpers/models.js';

const plan = (content: string) => planFromOpenAI(chatCompletionRequestSchema.parse({ model: 'm', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content }] }));

/** The same model seen through an object without renderChatNow / tokenizeNow: the awaited path. */
function awaitedOnly(model: LoadedModel): LoadedModel {
  return {
    info: model.info,
    tokenize: (t, o) => model.tokenize(t, o),
    detokenize: (t) => model.detokenize(t),
    renderChat: (i) => model.renderChat(i),
    generate: (r, f) => model.generate(r, f),
    checkGrammar: (g) => model.checkGrammar(g),
    stats: () => model.stats(),
  };
}

describe('buildPromptNow', () => {
  let model: EngineModel;
  beforeAll(async () => {
    model = await loadModel(await getTestModel({ vocabLimit: 4096, ctx: 8192 }), { id: 'm', threads: 1, kvCacheMb: 16 });
  }, 240_000);
  afterAll(() => model?.unload());

  it('gives the awaited path\'s prompt at once for a short prompt, once the format is known', async () => {
    const p = plan('What is the capital of France?');
    const awaited = await buildPrompt(awaitedOnly(model), p);
    await buildPrompt(model, p); // learns the model's chat format (tokenizes its markers)
    const now = buildPromptNow(model, p);
    expect(now).toBeDefined();
    expect(now!.text).toBe(awaited.text);
    expect(Array.from(now!.tokens)).toEqual(Array.from(awaited.tokens));
    expect(now!.format.format).toEqual(awaited.format.format);
    expect(now!.thinkingOpen).toBe(awaited.thinkingOpen);
    expect(buildPromptNow(awaitedOnly(model), p)).toBeUndefined();
  });

  it('leaves a prompt the text pool would take to the awaited path', async () => {
    const p = plan('word '.repeat(OFFLOAD_MIN_CHARS / 4));
    await buildPrompt(model, plan('x'));
    expect(buildPromptNow(model, p)).toBeUndefined();
    const built = await buildPrompt(model, p);
    expect(Array.from(built.tokens)).toEqual(Array.from((await buildPrompt(awaitedOnly(model), p)).tokens));
  });
});
