// End to end per model family, through the official SDKs: generated models with each family's
// real vocabulary and chat template (test/helpers/models.ts, vocab option) on the real engine and
// server. Random weights write meaningless text, so the checks rest on what the format and the
// grammar guarantee: streamed chats finish with the right accounting, forced tool calls come back
// as calls of the family's syntax with arguments valid under the schema and go round trip through
// the template, json_schema answers parse, and reasoning plumbing reaches the wire formats.
// gpt-oss: a gpt-oss model (sinks, windows, MXFP4 experts) whose template the model maker writes,
// since the vocabulary package carries none; Mistral: no vocabulary package (its format is covered
// by the template, parser and runner tests).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type OpenAI from 'openai';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { modelChatFormat, type ChatFamily } from '../../src/chat/chat-format.js';
import { chatCompletionRequestSchema, planFromOpenAI } from '../../src/chat/openai-request.js';
import { buildPrompt } from '../../src/chat/prompt.js';
import { getTestModel, type TestModelOptions } from '../helpers/models.js';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { resolvePreTokenizer } from '../../src/tokenizer/pre-tokenizers.js';

/** The engine's tokenizer knows the pre-tokenizer the family's vocabulary names (deepseek-v3 and
 *  gpt-4o are not there yet: those families' tests run once it does). */
function loadable(pre: string): boolean {
  try {
    resolvePreTokenizer(pre);
    return true;
  } catch {
    return false;
  }
}
const PRE: Record<string, string> = { qwen3: 'qwen2', llama3: 'llama-bpe', gemma3: 'default', llama2: 'default', deepseek_v3: 'deepseek-v3', gptoss: 'gpt-4o' };
import { MODEL_ID, startChatServer, type ChatHarness } from './harness.js';
import { withChatTemplate } from './gguf-template.js';
import { TEMPLATES } from './templates/index.js';

interface Case {
  vocab: TestModelOptions['vocab'];
  family: ChatFamily;
  reasoning: 'think' | 'harmony' | null;
  /** A template written into the model (its vocabulary package has none). */
  template?: string;
  /** The model's own shape where it is not the built-in preset's (an architecture of the family). */
  model?: TestModelOptions;
}

const CASES: Case[] = [
  { vocab: 'qwen3', family: 'hermes', reasoning: 'think' },
  { vocab: 'llama3', family: 'json', reasoning: null },
  { vocab: 'gemma3', family: 'json', reasoning: null },
  { vocab: 'deepseek_v3', family: 'deepseek', reasoning: null },
  // The gpt-oss architecture; the model maker writes gpt-oss's own template (openai/gpt-oss-120b).
  { vocab: 'gptoss', family: 'harmony', reasoning: 'harmony', model: { preset: 'gpt-oss-tiny' } },
];

const CITY_SCHEMA = { type: 'object', properties: { city: { type: 'string', enum: ['Paris', 'Rome'] } }, required: ['city'], additionalProperties: false };
const WEATHER: OpenAI.Chat.Completions.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', description: 'Current weather in a city', parameters: CITY_SCHEMA },
};
// Bounded (an enum, an integer range): greedy decoding of random weights cannot run on in it.
const ANSWER_SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string', enum: ['yes', 'no'] }, n: { type: 'integer', minimum: 1, maximum: 9 } },
  required: ['answer', 'n'],
  additionalProperties: false,
};

for (const c of CASES) {
  describe.skipIf(!loadable(PRE[c.vocab!]!))(`${c.vocab} (${c.family})`, () => {
    let h: ChatHarness;
    let model: EngineModel;

    beforeAll(async () => {
      let path = await getTestModel({ vocab: c.vocab, vocabLimit: 4096, ctx: 8192, ...c.model });
      if (c.template) path = withChatTemplate(path, c.template, path.replace(/\.gguf$/, '-template.gguf'));
      model = await loadModel(path, { id: MODEL_ID, threads: 2, kvCacheMb: 32 });
      h = await startChatServer({}, model);
    }, 240_000);

    afterAll(async () => {
      await h?.close();
      model?.unload();
    });

    it('detects the family from the template in the GGUF', async () => {
      const f = await modelChatFormat(model);
      expect(f.format.family).toBe(c.family);
      expect(f.format.reasoning).toBe(c.reasoning);
    });

    it('streams a chat (Chat Completions and Messages) with the prompt counted as built', async () => {
      const messages = [
        { role: 'system' as const, content: 'Be brief.' },
        { role: 'user' as const, content: 'Hello there' },
      ];
      const stream = await h.openai.chat.completions.create({ model: MODEL_ID, messages, max_tokens: 6, temperature: 0, stream: true, stream_options: { include_usage: true } });
      let finish: string | null = null;
      let usage: OpenAI.Completions.CompletionUsage | undefined;
      for await (const chunk of stream) {
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(['stop', 'length']).toContain(finish);
      const built = await buildPrompt(model, planFromOpenAI(chatCompletionRequestSchema.parse({ model: MODEL_ID, messages })));
      expect(usage?.prompt_tokens).toBe(built.tokens.length);
      expect(usage?.completion_tokens).toBeGreaterThan(0);

      const events: string[] = [];
      const ms = h.anthropic.messages.stream({ model: MODEL_ID, temperature: 0, max_tokens: 6, system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }] });
      for await (const ev of ms) events.push(ev.type);
      const final = await ms.finalMessage();
      expect(events[0]).toBe('message_start');
      expect(events[events.length - 1]).toBe('message_stop');
      expect(['end_turn', 'max_tokens']).toContain(final.stop_reason);
      // The Messages API counts prompt tokens the cache served apart.
      expect(final.usage.input_tokens + (final.usage.cache_read_input_tokens ?? 0)).toBe(built.tokens.length);
    });

    it('forced tool call round trip (Chat Completions)', async () => {
      const first = await h.openai.chat.completions.create({
        model: MODEL_ID,
        temperature: 0,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
        tools: [WEATHER],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        max_tokens: 40,
      });
      const msg = first.choices[0]!.message;
      expect(msg.tool_calls).toHaveLength(1);
      const tc = msg.tool_calls![0]! as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
      expect(tc.function.name).toBe('get_weather');
      const args = JSON.parse(tc.function.arguments) as { city: string };
      expect(['Paris', 'Rome']).toContain(args.city);
      // The call and its result go back through the template into the next prompt.
      const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: [tc] },
        { role: 'tool', tool_call_id: tc.id, content: 'Sunny, 18 C' },
      ];
      const second = await h.openai.chat.completions.create({ model: MODEL_ID, temperature: 0, messages, tools: [WEATHER], max_tokens: 4 });
      expect(second.choices[0]!.finish_reason).toMatch(/stop|length|tool_calls/);
      const built = await buildPrompt(model, planFromOpenAI(chatCompletionRequestSchema.parse({ model: MODEL_ID, messages, tools: [WEATHER] })));
      expect(built.text).toContain('Sunny, 18 C');
      expect(built.text).toContain(args.city);
      expect(second.usage?.prompt_tokens).toBe(built.tokens.length);
    });

    it('tool_choice required picks among the tools under the grammar', async () => {
      const TIME: OpenAI.Chat.Completions.ChatCompletionTool = { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {}, additionalProperties: false } } };
      const r = await h.openai.chat.completions.create({
        model: MODEL_ID,
        temperature: 0,
        messages: [{ role: 'user', content: 'Weather and time?' }],
        tools: [WEATHER, TIME],
        tool_choice: 'required',
        max_tokens: 60,
      });
      expect(r.choices[0]!.finish_reason).toBe('tool_calls');
      const calls = r.choices[0]!.message.tool_calls as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall[];
      expect(calls.length).toBeGreaterThan(0);
      for (const tc of calls) {
        expect(['get_weather', 'get_time']).toContain(tc.function.name);
        const args = JSON.parse(tc.function.arguments) as Record<string, unknown>;
        if (tc.function.name === 'get_weather') expect(['Paris', 'Rome']).toContain(args.city);
        else expect(args).toEqual({});
      }
    });

    it('forced tool_use round trip (Messages, streamed)', async () => {
      const tools = [{ name: 'get_weather', description: 'Current weather in a city', input_schema: CITY_SCHEMA as { type: 'object' } }];
      const ms = h.anthropic.messages.stream({
        model: MODEL_ID,
        temperature: 0,
        max_tokens: 40,
        tools,
        tool_choice: { type: 'tool', name: 'get_weather' },
        messages: [{ role: 'user', content: 'Weather in Rome?' }],
      });
      const first = await ms.finalMessage();
      const use = first.content.find((b) => b.type === 'tool_use');
      expect(use).toBeDefined();
      expect(first.stop_reason).toBe('tool_use');
      if (use?.type !== 'tool_use') return;
      expect(['Paris', 'Rome']).toContain((use.input as { city: string }).city);
      const second = await h.anthropic.messages.create({
        model: MODEL_ID,
        max_tokens: 4,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Rome?' },
          { role: 'assistant', content: first.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Rain, 9 C' }] },
        ],
      });
      expect(['end_turn', 'max_tokens', 'tool_use']).toContain(second.stop_reason);
    });

    it('json_schema answers parse (both APIs)', async () => {
      const r = await h.openai.chat.completions.create({
        model: MODEL_ID,
        temperature: 0,
        messages: [{ role: 'user', content: 'Answer in JSON.' }],
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: ANSWER_SCHEMA, strict: true } },
        // The grammar lets whitespace run a while between JSON tokens (greedy random weights take it).
        max_tokens: 300,
      });
      expect(r.choices[0]!.finish_reason).toBe('stop');
      const v = JSON.parse(r.choices[0]!.message.content!) as { answer: string; n: number };
      expect(['yes', 'no']).toContain(v.answer);
      expect(v.n >= 1 && v.n <= 9 && Number.isInteger(v.n)).toBe(true);

      const a = await h.anthropic.messages.create({
        model: MODEL_ID,
        temperature: 0,
        max_tokens: 300,
        messages: [{ role: 'user', content: 'Answer in JSON.' }],
        output_config: { format: { type: 'json_schema', schema: ANSWER_SCHEMA } },
      } as Parameters<typeof h.anthropic.messages.create>[0] & { stream?: false });
      const text = a.content.find((b) => b.type === 'text');
      expect(text?.type).toBe('text');
      if (text?.type === 'text') expect(Object.keys(JSON.parse(text.text) as object).sort()).toEqual(['answer', 'n']);
      expect(a.stop_reason).toBe('end_turn');
    });

    if (c.reasoning === 'harmony') {
      it('harmony: a gpt-oss model with gpt-oss\'s own template', () => {
        expect(model.nativeInfo.architecture).toBe('gpt-oss');
        expect(readGgufHeader(model.info.path).metadata['tokenizer.chat_template']).toBe(TEMPLATES.gptOss().template);
      });

      it('harmony: reasoning_effort reaches the template, an analysis prefill streams as thinking', async () => {
        const high = await buildPrompt(model, planFromOpenAI(chatCompletionRequestSchema.parse({ model: MODEL_ID, messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'high' })));
        expect(high.text).toContain('Reasoning: high');
        expect(high.text.endsWith('<|start|>assistant')).toBe(true);
        const ms = h.anthropic.messages.stream({
          model: MODEL_ID,
          temperature: 0,
          max_tokens: 8,
          messages: [
            { role: 'user', content: 'Think first.' },
            { role: 'assistant', content: '<|channel|>analysis<|message|>Hmm' },
          ],
        });
        const deltas: string[] = [];
        ms.on('thinking', (d) => deltas.push(d));
        const final = await ms.finalMessage();
        const block = final.content[0];
        expect(block?.type).toBe('thinking');
        if (block?.type === 'thinking') {
          expect(block.thinking.length).toBeGreaterThan(0);
          expect(block.thinking).toBe(deltas.join(''));
        }
      });

      it('harmony: <|end|> closes a message, not the turn: generation goes on to the budget', async () => {
        // The engine drops <|end|> from the end tokens of a vocabulary with <|return|> and <|call|>
        // (native/model/model_loader.cc, as llama.cpp). A logit bias makes every token <|end|>.
        const end = (await model.tokenize('<|end|>', { addSpecial: false, parseSpecial: true }))[0]!;
        const ret = (await model.tokenize('<|return|>', { addSpecial: false, parseSpecial: true }))[0]!;
        expect(model.info.eosTokens).not.toContain(end);
        expect(model.info.eosTokens).toContain(ret);
        const r = await h.openai.chat.completions.create({ model: MODEL_ID, messages: [{ role: 'user', content: 'Hi' }], logit_bias: { [String(end)]: 100 }, max_tokens: 4 });
        expect(r.choices[0]!.finish_reason).toBe('length');
        expect(r.usage?.completion_tokens).toBe(4);
        // Outside any message the marker is text: nothing the model wrote is lost.
        expect(r.choices[0]!.message.content).toBe('<|end|>'.repeat(4));
      });
    }

    if (c.reasoning === 'think') {
      it('reasoning reaches both wire formats', async () => {
        // An assistant prefill that opens <think> puts the output in reasoning: thinking blocks.
        const ms = h.anthropic.messages.stream({
          model: MODEL_ID,
          temperature: 0,
          max_tokens: 8,
          messages: [
            { role: 'user', content: 'Think first.' },
            { role: 'assistant', content: '<think>' },
          ],
        });
        const deltas: string[] = [];
        ms.on('thinking', (d) => deltas.push(d));
        const final = await ms.finalMessage();
        const block = final.content[0];
        expect(block?.type).toBe('thinking');
        if (block?.type === 'thinking') {
          expect(block.thinking).toBe(deltas.join(''));
          expect(block.signature.length).toBeGreaterThan(0);
        }
        // Chat Completions: the <think> token made certain (logit bias), so reasoning_content
        // carries the output and reasoning_tokens counts it; reasoning_effort 'none' closes the
        // template's thinking in the prompt.
        const think = (await model.tokenize('<think>', { addSpecial: false, parseSpecial: true }))[0]!;
        const stream = await h.openai.chat.completions.create({
          model: MODEL_ID,
          messages: [{ role: 'user', content: 'Think first.' }],
          reasoning_effort: 'high',
          logit_bias: { [String(think)]: 100 },
          max_tokens: 5,
          stream: true,
          stream_options: { include_usage: true },
        });
        let reasoning = '';
        let content = '';
        let usage: OpenAI.Completions.CompletionUsage | undefined;
        for await (const chunk of stream) {
          const d = chunk.choices[0]?.delta as { reasoning_content?: string; content?: string | null } | undefined;
          reasoning += d?.reasoning_content ?? '';
          content += d?.content ?? '';
          usage = chunk.usage ?? usage;
        }
        expect(reasoning).toBe('<think>'.repeat(4));
        expect(content).toBe('');
        expect(usage?.completion_tokens_details?.reasoning_tokens).toBe(4);
        const off = await buildPrompt(model, planFromOpenAI(chatCompletionRequestSchema.parse({ model: MODEL_ID, messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'none' })));
        expect(off.text.endsWith('<think>\n\n</think>\n\n')).toBe(true);
      });
    }
  });
}

describe('end-of-turn tokens stop generation in every family', () => {
  const END: Array<[TestModelOptions['vocab'], string[]]> = [
    ['qwen3', ['<|im_end|>']],
    ['llama3', ['<|eot_id|>']],
    ['gemma3', ['<end_of_turn>']],
    ['deepseek_v3', ['<｜end▁of▁sentence｜>']],
    ['llama2', ['</s>']],
    ['gptoss', ['<|return|>', '<|call|>']],
  ];
  for (const [vocab, texts] of END) {
    it.skipIf(!loadable(PRE[vocab!]!))(`${vocab}: ${texts.join(' ')}`, async () => {
      const m = await loadModel(await getTestModel({ vocab, vocabLimit: 4096, ctx: 8192 }), { id: `end-${vocab}`, threads: 1, kvCacheMb: 8 });
      try {
        for (const t of texts) {
          const ids = await m.tokenize(t, { addSpecial: false, parseSpecial: true });
          expect(ids).toHaveLength(1);
          expect(m.info.eosTokens).toContain(ids[0]);
        }
      } finally {
        m.unload();
      }
    }, 240_000);
  }
});
