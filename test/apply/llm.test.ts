// svc-v3-large with an apply LLM (--apply-model): the real `svc serve` wiring (parseServeConfig →
// createServices → startMainServer on port 0), the real addon with a generated model, the openai
// SDK. The LLM's text must be exactly its own greedy output for the apply prompt (computed here
// without a draft), with the merge result as the draft only changing the number of steps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { parseServeConfig } from '../../src/config.js';
import { createServices, type Services } from '../../src/server/services.js';
import { startMainServer } from '../../src/server/main-server.js';
import type { HttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import type { EngineModel } from '../../src/engine/index.js';
import { applyDraftTokens, applyPromptTokens, defaultApplyMaxTokens } from '../../src/apply/llm.js';
import { runApplyTask } from '../../src/apply/run.js';
import { closeTextPool } from '../../src/engine/text-pool.js';
import { testModelPath } from '../engine/helpers/models.js';
import { caseMessage, loadCorpus } from './corpus-loader.js';
import { ensureBuilt } from './build.js';
import { GREEDY_SAMPLING as GREEDY } from '../../src/engine/sampling.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

// In-process merges here must match the server's worker, which loads the grammars it needs.
await ensureAllGrammars();

const KEY = 'sk-apply-llm-test-0123456789';
const cases = loadCorpus();
const byName = (n: string) => {
  const c = cases.find((x) => x.name === n);
  if (!c) throw new Error(`no corpus case ${n}`);
  return c;
};

let dataDir: string;
let services: Services;
let server: HttpServer;
let url: string;
let client: OpenAI;
let llm: EngineModel;

/** The LLM alone (no draft) on the apply prompt: what svc-v3-large must return. */
async function plainLlm(content: string, merged: string, maxTokens: number | null) {
  const prompt = await applyPromptTokens(llm, content);
  const draft = await applyDraftTokens(llm, merged);
  const max = maxTokens ?? defaultApplyMaxTokens(draft.length, llm.info.contextLength - prompt.length);
  let text = '';
  const r = await llm.generate({ prompt, maxTokens: max, sampling: GREEDY }, (ev) => {
    text += ev.text;
  });
  return { text, promptTokens: prompt.length, completionTokens: r.completionTokens, finishReason: r.finishReason };
}

function mergedBy(content: string, mode: 'large' | 'auto', maxTokens: number | null = null) {
  const r = runApplyTask({ content, mode, maxTokens });
  if (!r.ok) throw new Error(r.message);
  return r;
}

beforeAll(async () => {
  ensureBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'apply-llm-'));
  // Weights at 5x the default scale so greedy output does not just repeat one token.
  const path = await testModelPath('apply-llm', { scale: 0.1 });
  const config = parseServeConfig(['--port', '0', '--no-predict', '--data-dir', dataDir, '--api-key', KEY, '--apply-model', path, '--threads', '2', '--kv-cache-mb', '64']);
  services = await createServices(config, { logger: createLogger({ level: 'error', sink: () => {} }), loadModels: async () => [] });
  server = await startMainServer(services);
  url = `http://127.0.0.1:${server.port}`;
  client = new OpenAI({ baseURL: `${url}/v1`, apiKey: KEY, maxRetries: 0, timeout: 120_000 });
  llm = services.applyModel as EngineModel;
}, 600_000);

afterAll(async () => {
  await server?.shutdown(2000);
  await services?.close();
  (services?.applyModel as EngineModel | undefined)?.unload();
  await closeTextPool();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('svc-v3-large with --apply-model', () => {
  it('loads the model given by --apply-model into Services.applyModel', () => {
    expect(services.config.applyModel).toMatch(/apply-llm-.*\.gguf$/);
    expect(services.applyModel).not.toBeNull();
  });

  it('returns exactly the LLM\'s own greedy output, with draft acceptance in headers and usage', async () => {
    for (const name of ['ts-two-hunks', 'py-two-ends', 'go-delete-between']) {
      const c = byName(name);
      const content = caseMessage(c);
      const expected = await plainLlm(content, mergedBy(content, 'large').content, 48);
      const { data: r, response } = await client.chat.completions
        .create({ model: 'svc-v3-large', messages: [{ role: 'user', content }], max_tokens: 48 })
        .withResponse();
      expect(r.model).toBe('svc-v3-large');
      expect(r.choices[0]!.message.content).toBe(expected.text);
      expect(r.choices[0]!.finish_reason).toBe(expected.finishReason === 'length' ? 'length' : 'stop');
      expect(r.usage).toMatchObject({ prompt_tokens: expected.promptTokens, completion_tokens: expected.completionTokens });
      expect(r.usage!.total_tokens).toBe(expected.promptTokens + expected.completionTokens);
      expect(response.headers.get('x-apply-model')).toBe('svc-v3-large');
      expect(response.headers.get('x-apply-llm')).toBe(llm.info.id);
      const drafted = Number(response.headers.get('x-apply-draft-tokens'));
      const accepted = Number(response.headers.get('x-apply-draft-accepted'));
      const steps = Number(response.headers.get('x-apply-llm-steps'));
      expect(Number(response.headers.get('x-apply-draft-length'))).toBeGreaterThan(0);
      expect(accepted).toBeLessThanOrEqual(drafted);
      // Every step emits its accepted draft tokens plus at most one of the model's own.
      expect(accepted + steps).toBeGreaterThanOrEqual(expected.completionTokens);
      expect(r.usage!.completion_tokens_details).toMatchObject({ accepted_prediction_tokens: accepted, rejected_prediction_tokens: drafted - accepted });
    }
  }, 120_000);

  it('streams the LLM output as content deltas that join to the same text, with acceptance in the usage chunk', async () => {
    const content = caseMessage(byName('ts-two-hunks'));
    const expected = await plainLlm(content, mergedBy(content, 'large').content, 40);
    const stream = await client.chat.completions.create({
      model: 'svc-v3-large',
      messages: [{ role: 'user', content }],
      max_tokens: 40,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let deltas = 0;
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined = null;
    for await (const chunk of stream) {
      expect(chunk.model).toBe('svc-v3-large');
      const ch = chunk.choices[0];
      if (ch?.delta.content) {
        text += ch.delta.content;
        deltas++;
      }
      if (ch?.finish_reason) finish = ch.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(expected.text);
    expect(deltas).toBeGreaterThan(1);
    expect(finish).toBe('length');
    expect(usage).toMatchObject({ prompt_tokens: expected.promptTokens, completion_tokens: 40 });
    expect(usage!.completion_tokens_details!.accepted_prediction_tokens).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it('without max_tokens the budget is twice the draft plus 256 tokens (or the LLM\'s own end of turn)', async () => {
    const content = caseMessage(byName('ts-two-hunks'));
    const merged = mergedBy(content, 'large').content;
    const expected = await plainLlm(content, merged, null);
    const r = await client.chat.completions.create({ model: 'svc-v3-large', messages: [{ role: 'user', content }] });
    expect(r.choices[0]!.message.content).toBe(expected.text);
    expect(r.usage!.completion_tokens).toBe(expected.completionTokens);
  }, 120_000);

  it('svc-v3-fast stays the merge engine alone; auto uses the LLM only when it picks large', async () => {
    const c = byName('ts-two-hunks');
    const fast = await client.chat.completions.create({ model: 'svc-v3-fast', messages: [{ role: 'user', content: caseMessage(c) }] });
    expect(fast.choices[0]!.message.content).toBe(c.expected);
    expect(fast.model).toBe('svc-v3-fast');
    // One case auto hands to large, one it keeps on fast.
    const toLarge = cases.find((x) => mergedBy(caseMessage(x), 'auto').model === 'svc-v3-large');
    const toFast = cases.find((x) => mergedBy(caseMessage(x), 'auto').model === 'svc-v3-fast');
    expect(toLarge && toFast).toBeTruthy();
    const a = await client.chat.completions.create({ model: 'auto', messages: [{ role: 'user', content: caseMessage(toFast!) }] });
    expect(a.model).toBe('svc-v3-fast');
    expect(a.choices[0]!.message.content).toBe(toFast!.expected);
    const content = caseMessage(toLarge!);
    const expected = await plainLlm(content, mergedBy(content, 'auto').content, 32);
    const { data: b, response } = await client.chat.completions
      .create({ model: 'auto', messages: [{ role: 'user', content }], max_tokens: 32 })
      .withResponse();
    expect(b.model).toBe('svc-v3-large');
    expect(response.headers.get('x-apply-llm')).toBe(llm.info.id);
    expect(b.choices[0]!.message.content).toBe(expected.text);
  }, 120_000);

  it('a client that goes away mid-stream cancels the LLM sequence and frees its KV', async () => {
    const content = caseMessage(byName('ts-two-hunks'));
    // The whole run, for scale.
    const { response: full } = await client.chat.completions
      .create({ model: 'svc-v3-large', messages: [{ role: 'user', content }], max_tokens: 1000 })
      .withResponse();
    const fullSteps = Number(full.headers.get('x-apply-llm-steps'));
    const stepsBefore = llm.nativeStats().steps;
    const ac = new AbortController();
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'svc-v3-large', stream: true, max_tokens: 1000, messages: [{ role: 'user', content }] }),
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('"content":"') || seen.split('"content":"').length < 4) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    ac.abort();
    await reader.cancel().catch(() => undefined);
    const deadline = Date.now() + 20_000;
    while (llm.stats().runningSequences > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(llm.stats().runningSequences).toBe(0);
    expect(llm.stats().kvBlocksUsed).toBe(0);
    // It stopped early.
    const steps = llm.nativeStats().steps - stepsBefore;
    expect(steps).toBeGreaterThan(0);
    expect(steps).toBeLessThan(fullSteps * 0.8);
  }, 60_000);

  it('bad input is still a 400 invalid_request_error, and a max_tokens past the LLM context is refused', async () => {
    const post = (body: unknown) =>
      fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const noUpdate = await post({ model: 'svc-v3-large', messages: [{ role: 'user', content: '<code>a\n</code>' }] });
    expect(noUpdate.status).toBe(400);
    expect(((await noUpdate.json()) as { error: { code: string; message: string } }).error.message).toMatch(/update/);
    const two = await post({ model: 'svc-v3-large', messages: [{ role: 'user', content: 'x' }, { role: 'user', content: 'y' }] });
    expect(two.status).toBe(400);
    const huge = await post({ model: 'svc-v3-large', messages: [{ role: 'user', content: caseMessage(byName('ts-two-hunks')) }], max_tokens: 10_000_000 });
    expect(huge.status).toBe(400);
    expect(((await huge.json()) as { error: { code: string; message: string } }).error.message).toMatch(/max_tokens/);
    expect(llm.stats().kvBlocksUsed).toBe(0);
  }, 60_000);
});
