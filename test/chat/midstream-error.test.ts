// A failure after the stream started reaches the SDKs as their typed APIError: an `event: error`
// on Anthropic streams, an `{"error":…}` chunk on OpenAI streams. The failure is real: the model is
// unloaded mid-generation, which rejects its running sequences (model_not_ready).
import { copyFileSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { loadModel } from '../../src/engine/index.js';
import { eosBan } from '../../src/engine/sampling.js';
import { MODEL_ID, chatModelPath, startChatServer, type ChatHarness } from './harness.js';

let h: ChatHarness | undefined;
let copy: string | undefined;

/** A private copy of the test model: the engine shares loads by path, and this test unloads it. */
async function privateServer(name: string): Promise<ChatHarness> {
  const path = (await chatModelPath()).replace(/\.gguf$/, `-${name}-${process.pid}.gguf`);
  copyFileSync(await chatModelPath(), path);
  copy = path;
  return startChatServer({}, await loadModel(path, { id: MODEL_ID, threads: 2, kvCacheMb: 32 }));
}

afterEach(async () => {
  await h?.close();
  h = undefined;
  if (copy) rmSync(copy, { force: true });
  copy = undefined;
});

describe('mid-stream failure', () => {
  it('Anthropic: event: error after message_start, raised by the SDK', async () => {
    h = await privateServer('ant');
    // Greedy, so the stream is the same every run: Messages has no logit_bias to ban EOS, and at
    // temperature 1 the model sometimes ended within its first three tokens (a flaky failure).
    const stream = h.anthropic.messages.stream({ model: MODEL_ID, max_tokens: 4000, temperature: 0, messages: [{ role: 'user', content: 'go on' }] });
    let deltas = 0;
    const model = h.model;
    stream.on('text', () => {
      if (++deltas === 3) model.unload();
    });
    const err = await stream.finalMessage().then(
      () => null,
      (e: unknown) => e,
    );
    expect(deltas).toBeGreaterThanOrEqual(3);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
  });

  it('OpenAI: an error chunk, raised by the SDK while iterating', async () => {
    h = await privateServer('oai');
    const bias = eosBan(h.model.info);
    const stream = await h.openai.chat.completions.create({ model: MODEL_ID, messages: [{ role: 'user', content: 'go on' }], max_tokens: 4000, logit_bias: bias, stream: true });
    let chunks = 0;
    const err = await (async () => {
      try {
        for await (const _ of stream) if (++chunks === 3) h!.model.unload();
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(chunks).toBeGreaterThanOrEqual(3);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('model_not_ready');
  });
});
