// Unit tests of the runner and the wire framing, driven by a scripted token source standing in for
// the engine (the integration tests in server.test.ts use the real engine).
import { describe, expect, it } from 'vitest';
import type { GenerateRequest, GenerateResult, LoadedModel, TokenEvent } from '../../src/engine/types.js';
import { runChoice, type ChoiceEvent } from '../../src/chat/runner.js';
import { defaultSampling, type ChatPlan } from '../../src/chat/plan.js';
import { OpenAIChunker, chatCompletionBody } from '../../src/chat/openai-response.js';
import { BlockBuilder, messageBody, messageDelta, thinkingSignature } from '../../src/chat/anthropic-response.js';
import type { BuiltPrompt } from '../../src/chat/prompt.js';
import { detectChatFormat, type ModelChatFormat } from '../../src/chat/chat-format.js';
import { QWEN25_CHAT_TEMPLATE } from '../../src/assets/qwen25-chat-template.js';

/** The Qwen2.5 template's format (Hermes <tool_call>), as the scripted outputs are written. */
const HERMES: ModelChatFormat = { format: detectChatFormat(QWEN25_CHAT_TEMPLATE), markerText: new Map() };

/** Emits the next script (list of token texts) per generate() call; records the requests. */
class ScriptedModel {
  readonly requests: GenerateRequest[] = [];
  constructor(private readonly scripts: string[][]) {}
  readonly info = { id: 's', path: '', architecture: 'x', contextLength: 4096, vocabSize: 256, chatTemplate: null, bosToken: null, eosTokens: [] };
  async tokenize(text: string): Promise<Uint32Array> {
    return Uint32Array.from(Array.from(text, (c) => c.charCodeAt(0)));
  }
  async detokenize(t: ArrayLike<number>): Promise<string> {
    return String.fromCharCode(...Array.from(t));
  }
  async renderChat(): Promise<string> {
    return 'PROMPT';
  }
  async generate(req: GenerateRequest, onToken: (ev: TokenEvent) => void): Promise<GenerateResult> {
    this.requests.push(req);
    const script = this.scripts.shift() ?? [];
    let n = 0;
    let finishReason: GenerateResult['finishReason'] = 'stop';
    for (const text of script) {
      if (req.signal?.aborted) {
        finishReason = 'cancelled';
        break;
      }
      if (n >= req.maxTokens) {
        finishReason = 'length';
        break;
      }
      onToken({ token: n, text, logprob: -0.5 });
      n++;
    }
    if (req.grammar && finishReason === 'stop') finishReason = 'grammar_end';
    return { finishReason, promptTokens: req.prompt.length, cachedTokens: 2, completionTokens: n };
  }
  async checkGrammar(): Promise<void> {}
  stats(): never {
    throw new Error('unused');
  }
}

function mkPlan(over: Partial<ChatPlan> = {}): ChatPlan {
  return {
    model: 'm',
    template: { messages: [], addGenerationPrompt: true },
    tools: [],
    toolMode: { kind: 'none' },
    parallelToolCalls: true,
    maxTokens: 50,
    maxTokensParam: 'max_tokens',
    sampling: defaultSampling(),
    stop: [],
    n: 1,
    logprobs: false,
    topLogprobs: 0,
    ...over,
  };
}

async function run(scripts: string[][], plan: ChatPlan, maxTokens = 50) {
  const model = new ScriptedModel(scripts);
  const prompt: BuiltPrompt = { text: 'PROMPT', tokens: await model.tokenize('PROMPT'), format: HERMES, reasoningTemplate: false, thinkingOpen: false };
  const events: ChoiceEvent[] = [];
  let ids = 0;
  const result = await runChoice(model as unknown as LoadedModel, plan, prompt, {
    maxTokens,
    newToolCallId: () => `id${ids++}`,
    onEvent: (e) => events.push(e),
  });
  return { model, events, result };
}

describe('runChoice', () => {
  it('ends at a stop sequence split across tokens, cancels generation and excludes the stop text', async () => {
    const { model, events, result } = await run([['Hel', 'lo ST', 'OP more', 'never']], mkPlan({ stop: ['STOP'] }));
    expect(events.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe('Hello ');
    expect(result).toMatchObject({ text: 'Hello ', finish: 'stop_sequence', stopSequence: 'STOP', completionTokens: 3, promptTokens: 6, cachedTokens: 2 });
    expect(model.requests[0]!.signal!.aborted).toBe(true);
  });

  it('gives the tokens of a matched stop sequence no logprobs, streamed or not', async () => {
    const script = ['Hel', 'lo', ' S', 'TOP', 'x'];
    const plan = mkPlan({ stop: ['STOP'], logprobs: true });
    const streamed = await run([script], plan);
    const sent = streamed.events.flatMap((e) => (e.type === 'text' ? (e.logprobs ?? []) : []));
    // ' S' carries the ' ' that was let out; 'TOP' lies wholly inside the stop sequence.
    expect([...sent, ...streamed.result.logprobs].map((e) => e.token)).toEqual(['Hel', 'lo', ' S']);
    expect(streamed.result.text).toBe('Hello ');

    const model = new ScriptedModel([script]);
    const prompt: BuiltPrompt = { text: 'PROMPT', tokens: await model.tokenize('PROMPT'), format: HERMES, reasoningTemplate: false, thinkingOpen: false };
    const whole = await runChoice(model as unknown as LoadedModel, plan, prompt, { maxTokens: 50, newToolCallId: () => 'id' });
    expect(whole.logprobs.map((e) => e.token)).toEqual(['Hel', 'lo', ' S']);
    expect(whole).toMatchObject({ text: 'Hello ', finish: 'stop_sequence', completionTokens: 4 });
  });

  it('streams a logprob with the text event that lets its token\'s text out', async () => {
    // 'C' is held (it may start 'CD') while the 'A' held before it goes out; then 'CD' matches.
    const { events, result } = await run([['A', 'C', 'D', 'x']], mkPlan({ stop: ['AB', 'CD'], logprobs: true }));
    const texts = events.map((e) => (e.type === 'text' ? [e.text, (e.logprobs ?? []).map((l) => l.token)] : null));
    expect(texts).toEqual([['A', ['A']]]);
    expect(result).toMatchObject({ text: 'A', stopSequence: 'CD', logprobs: [] });
  });

  it('reports length when max tokens run out', async () => {
    const { result } = await run([['a', 'b', 'c']], mkPlan(), 2);
    expect(result).toMatchObject({ text: 'ab', finish: 'length', completionTokens: 2 });
  });

  it('parses tool calls in auto mode', async () => {
    const tools = [{ name: 'f', parameters: null }];
    const { events, result } = await run([['<tool_call>', '{"name": "f", "arguments": {"a": 1}}', '</tool_call>']], mkPlan({ tools, toolMode: { kind: 'auto' } }));
    expect(result.finish).toBe('tool_calls');
    expect(result.toolCalls).toEqual([{ id: 'id0', name: 'f', arguments: '{"a":1}' }]);
    expect(events).toEqual([
      { type: 'tool_start', index: 0, id: 'id0', name: 'f' },
      { type: 'tool_args', index: 0, fragment: '{"a":1}' },
    ]);
  });

  it('stops after the first tool call when parallel calls are off', async () => {
    const tools = [{ name: 'f', parameters: null }];
    const script = ['<tool_call>{"name":"f","arguments":{}}</tool_call>', '<tool_call>{"name":"f","arguments":{"b":2}}</tool_call>', 'more'];
    const one = await run([script], mkPlan({ tools, toolMode: { kind: 'auto' }, parallelToolCalls: false }));
    expect(one.result.toolCalls.map((c) => c.arguments)).toEqual(['{}']);
    expect(one.result).toMatchObject({ finish: 'tool_calls', completionTokens: 1 });
    expect(one.model.requests[0]!.signal!.aborted).toBe(true);
    const both = await run([script], mkPlan({ tools, toolMode: { kind: 'auto' } }));
    expect(both.result.toolCalls.map((c) => c.arguments)).toEqual(['{}', '{"b":2}']);
  });

  it('forces a named tool: prefilled call, arguments generated under its schema and streamed', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const tools = [{ name: 'get_weather', parameters: schema }];
    const { model, events, result } = await run([['{"city"', ': "Paris"}']], mkPlan({ tools, toolMode: { kind: 'forced', names: ['get_weather'], named: true } }));
    const req = model.requests[0]!;
    expect(req.grammar).toEqual({ kind: 'json_schema', schema: { ...schema, additionalProperties: false } });
    expect(String.fromCharCode(...req.prompt)).toBe('PROMPT<tool_call>\n{"name": "get_weather", "arguments": ');
    expect(events).toEqual([
      { type: 'tool_start', index: 0, id: 'id0', name: 'get_weather' },
      { type: 'tool_args', index: 0, fragment: '{"city"' },
      { type: 'tool_args', index: 0, fragment: ': "Paris"}' },
    ]);
    expect(result).toMatchObject({ finish: 'tool_calls', forcedNamed: true, completionTokens: 2, promptTokens: 6 });
    expect(JSON.parse(result.toolCalls[0]!.arguments)).toEqual({ city: 'Paris' });
  });

  it('drops the leading whitespace a grammar allows before the arguments object', async () => {
    const tools = [{ name: 'f', parameters: null }];
    const { events, result } = await run([['\n', ' \t', '\n{"a"', ':1}']], mkPlan({ tools, toolMode: { kind: 'forced', names: ['f'], named: false } }));
    expect(events.filter((e) => e.type === 'tool_args').map((e) => (e as { fragment: string }).fragment)).toEqual(['{"a"', ':1}']);
    expect(result.toolCalls[0]!.arguments).toBe('{"a":1}');
    expect(result.completionTokens).toBe(4);
  });

  it('forced parallel calls: the next two tokens decide; a budget spent there ends the turn as length', async () => {
    const tools = [{ name: 'f', parameters: null }];
    const plan = mkPlan({ tools, toolMode: { kind: 'forced', names: ['f'], named: false } });
    const two = await run([['{}'], ['\n', '<tool_call>'], ['{"a":2}'], ['<|im_end|>']], plan);
    expect(two.result.toolCalls.map((c) => c.arguments)).toEqual(['{}', '{"a":2}']);
    expect(two.result).toMatchObject({ finish: 'tool_calls', completionTokens: 5 });
    // Another call opened with no budget to make it, or cut before the model could say.
    expect((await run([['{}'], ['<tool_call>']], plan, 2)).result).toMatchObject({ finish: 'length', completionTokens: 2 });
    expect((await run([['{}'], ['\n', '<tool_call>']], plan, 2)).result).toMatchObject({ finish: 'length', completionTokens: 2 });
    // The turn ended within the budget: the calls are complete.
    expect((await run([['{}'], ['<|im_end|>']], plan, 2)).result).toMatchObject({ finish: 'tool_calls', completionTokens: 2 });
  });

  it('with several candidate tools, picks the name under an enum grammar first', async () => {
    const tools = [
      { name: 'a', parameters: null },
      { name: 'b', parameters: { type: 'object' } },
    ];
    const { model, result } = await run([[' "b"'], ['{}']], mkPlan({ tools, toolMode: { kind: 'forced', names: ['a', 'b'], named: false } }));
    expect(model.requests[0]!.grammar).toEqual({ kind: 'json_schema', schema: { type: 'string', enum: ['a', 'b'] } });
    expect(String.fromCharCode(...model.requests[0]!.prompt)).toBe('PROMPT<tool_call>\n{"name": ');
    expect(String.fromCharCode(...model.requests[1]!.prompt)).toBe('PROMPT<tool_call>\n{"name": "b", "arguments": ');
    expect(result.toolCalls).toEqual([{ id: 'id0', name: 'b', arguments: '{}' }]);
    expect(result).toMatchObject({ finish: 'tool_calls', completionTokens: 2 });
  });
});

describe('OpenAI framing', () => {
  const meta = { id: 'chatcmpl-1', created: 1, model: 'm', logprobs: false, legacyFunctions: false };

  it('puts the role in the first delta, then finish_reason, and usage only when asked', async () => {
    const { events, result } = await run([['Hi', ' there']], mkPlan());
    for (const includeUsage of [false, true]) {
      const c = new OpenAIChunker(meta, includeUsage);
      const chunks = [...events.map((e) => c.event(0, e)), ...c.finish(0, result)];
      const u = c.usage([result]);
      if (u) chunks.push(u);
      const choices = chunks.map((x) => (x.choices as Array<Record<string, unknown>>)[0]);
      expect(choices[0]).toEqual({ index: 0, delta: { role: 'assistant', content: 'Hi' }, logprobs: null, finish_reason: null });
      expect(choices[1]).toEqual({ index: 0, delta: { content: ' there' }, logprobs: null, finish_reason: null });
      expect(choices[2]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' });
      expect(chunks.every((x) => x.object === 'chat.completion.chunk' && x.id === 'chatcmpl-1')).toBe(true);
      if (includeUsage) {
        expect(chunks.length).toBe(4);
        expect(chunks[3]!.choices).toEqual([]);
        expect(chunks[3]!.usage).toMatchObject({ prompt_tokens: 6, completion_tokens: 2, total_tokens: 8, prompt_tokens_details: { cached_tokens: 2 } });
        expect(chunks.slice(0, 3).every((x) => x.usage === null)).toBe(true);
      } else {
        expect(chunks.length).toBe(3);
        expect(chunks.some((x) => 'usage' in x)).toBe(false);
      }
    }
  });

  it('streams a tool call as id/type/name first, then argument fragments', async () => {
    const tools = [{ name: 'f', parameters: null }];
    const { events, result } = await run([['{"x"', ':1}']], mkPlan({ tools, toolMode: { kind: 'forced', names: ['f'], named: false } }));
    const c = new OpenAIChunker(meta, false);
    const deltas = [...events.map((e) => c.event(0, e)), ...c.finish(0, result)].map((x) => (x.choices as Array<Record<string, unknown>>)[0]);
    expect(deltas[0]!.delta).toEqual({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'id0', type: 'function', function: { name: 'f', arguments: '' } }] });
    expect(deltas[1]!.delta).toEqual({ tool_calls: [{ index: 0, function: { arguments: '{"x"' } }] });
    expect(deltas[3]!.finish_reason).toBe('tool_calls');
    const body = chatCompletionBody(meta, [result]) as { choices: Array<{ message: Record<string, unknown>; finish_reason: string }> };
    expect(body.choices[0]!.message.content).toBeNull();
    expect(body.choices[0]!.message.tool_calls).toEqual([{ id: 'id0', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }]);
  });

  it('answers the legacy functions API with function_call deltas and finish_reason function_call', async () => {
    const tools = [{ name: 'f', parameters: null }];
    const script = ['<tool_call>{"name":"f","arguments":{"x":1}}</tool_call>'];
    const { events, result } = await run([script], mkPlan({ tools, toolMode: { kind: 'auto' }, parallelToolCalls: false }));
    const legacy = { ...meta, legacyFunctions: true };
    const c = new OpenAIChunker(legacy, false);
    const deltas = [...events.map((e) => c.event(0, e)), ...c.finish(0, result)].map((x) => (x.choices as Array<Record<string, unknown>>)[0]);
    expect(deltas.map((d) => d!.delta)).toEqual([
      { role: 'assistant', content: null, function_call: { name: 'f', arguments: '' } },
      { function_call: { arguments: '{"x":1}' } },
      {},
    ]);
    expect(deltas[2]!.finish_reason).toBe('function_call');
    const body = chatCompletionBody(legacy, [result]) as { choices: Array<{ message: Record<string, unknown>; finish_reason: string }> };
    expect(body.choices[0]).toMatchObject({ message: { content: null, function_call: { name: 'f', arguments: '{"x":1}' } }, finish_reason: 'function_call' });
    expect(body.choices[0]!.message.tool_calls).toBeUndefined();
  });
});

describe('Anthropic framing', () => {
  it('numbers blocks from 0 in order and closes each one', async () => {
    const tools = [{ name: 'f', parameters: null }];
    const { events, result } = await run([['Sure.', '<tool_call>{"name":"f","arguments":{"q":1}}</tool_call>']], mkPlan({ tools, toolMode: { kind: 'auto' } }));
    const seen: Array<[string, Record<string, unknown>]> = [];
    const b = new BlockBuilder((n, d) => seen.push([n, d]));
    for (const e of events) b.onEvent(e);
    b.close();
    expect(seen).toEqual([
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Sure.' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'id0', name: 'f', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"q":1}' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 1 }],
    ]);
    const body = messageBody({ id: 'msg_1', model: 'm' }, b.blocks, result);
    expect(body).toMatchObject({
      content: [
        { type: 'text', text: 'Sure.' },
        { type: 'tool_use', id: 'id0', name: 'f', input: { q: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 4, cache_read_input_tokens: 2, output_tokens: 2, cache_creation_input_tokens: 0 },
    });
  });

  it('turns <think> output into a thinking block before the text when reasoning was asked for', async () => {
    const { events, result } = await run([['<think>', 'let me see', '</think>', '\n\nAnswer']], mkPlan({ reasoningEffort: 'low' }));
    const seen: Array<Record<string, unknown>> = [];
    const b = new BlockBuilder((_, d) => seen.push(d));
    for (const e of events) b.onEvent(e);
    b.close();
    const signature = thinkingSignature('let me see');
    expect(signature).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(b.blocks).toEqual([
      { type: 'thinking', thinking: 'let me see', signature },
      { type: 'text', text: 'Answer' },
    ]);
    // As the API streams a thinking block: empty signature at the start, a signature_delta last.
    expect(seen.slice(0, 4)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'let me see' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } },
      { type: 'content_block_stop', index: 0 },
    ]);
    expect(result.reasoningTokens).toBe(2);
    const plain = await run([['<think>', 'x', '</think>']], mkPlan());
    expect(plain.result.text).toBe('<think>x</think>');
  });

  it('streams reasoning tokens\' logprobs on the reasoning deltas, in token order with the content\'s', async () => {
    const { events, result } = await run([['<think>', 'ab', '</think>', 'cd']], mkPlan({ reasoningEffort: 'low', logprobs: true }));
    const c = new OpenAIChunker({ id: 'chatcmpl-1', created: 1, model: 'm', logprobs: true, legacyFunctions: false }, false);
    const deltas = events.map((e) => (c.event(0, e).choices as Array<{ delta: Record<string, unknown>; logprobs: { content: Array<{ token: string }> } | null }>)[0]!);
    expect(deltas.map((d) => [d.delta.reasoning_content ?? d.delta.content, d.logprobs?.content.map((e) => e.token)])).toEqual([
      ['ab', ['<think>', 'ab']],
      ['cd', ['</think>', 'cd']],
    ]);
    expect(result.logprobs).toEqual([]); // all sent with the deltas
  });

  it('echoes the matched stop sequence', async () => {
    const { result } = await run([['a', 'XY', 'b']], mkPlan({ stop: ['XY'] }));
    expect(messageDelta(result)).toMatchObject({ delta: { stop_reason: 'stop_sequence', stop_sequence: 'XY' }, usage: { output_tokens: 2 } });
  });
});
