// The runner in each family's format, driven by a scripted token source in place of the engine:
// control tokens that render no text reach the parser as their markers, harmony's turn goes on
// after an <|end|> that ended generation, and forced calls are prefilled in the family's syntax.
import { describe, expect, it } from 'vitest';
import { ChatTemplate } from '../../src/engine/chat-template.js';
import type { ChatTemplateInput, GenerateRequest, GenerateResult, LoadedModel, TokenEvent } from '../../src/engine/types.js';
import { detectChatFormat } from '../../src/chat/chat-format.js';
import { chatCompletionRequestSchema, planFromOpenAI } from '../../src/chat/openai-request.js';
import { buildPrompt } from '../../src/chat/prompt.js';
import { runChoice } from '../../src/chat/runner.js';
import { TEMPLATES, type FamilyTemplate } from './templates/index.js';

const MARKER_BASE = 100000;

/** A token of a script: text, or [id, text] for a control token (text '' as the engine gives it). */
type Tok = string | [number, string];

/** The real template, prompts tokenized one code point per token (markers one token each, ids
 *  from MARKER_BASE), and one script of tokens per generate() call. */
class ScriptedModel {
  readonly requests: GenerateRequest[] = [];
  readonly info: LoadedModel['info'];
  private readonly tmpl: ChatTemplate;
  private readonly markers: string[];
  constructor(
    t: FamilyTemplate,
    private readonly scripts: Tok[][],
  ) {
    this.info = { id: 's', path: '', architecture: 'x', contextLength: 1 << 20, vocabSize: 1 << 20, chatTemplate: t.template, bosToken: null, eosTokens: [] };
    this.tmpl = new ChatTemplate(t.template, { bosToken: t.bos, eosToken: t.eos, literal: (s) => s });
    this.markers = detectChatFormat(t.template).markers;
  }
  markerId(text: string): number {
    return MARKER_BASE + this.markers.indexOf(text);
  }
  async tokenize(text: string): Promise<Uint32Array> {
    const i = this.markers.indexOf(text);
    return i >= 0 ? Uint32Array.of(MARKER_BASE + i) : Uint32Array.from(Array.from(text, (c) => c.codePointAt(0)!));
  }
  /** A request's prompt as text (markers and code points). */
  promptText(i: number): string {
    return Array.from(this.requests[i]!.prompt, (id) => (id >= MARKER_BASE ? this.markers[id - MARKER_BASE]! : String.fromCodePoint(id))).join('');
  }
  async renderChat(input: ChatTemplateInput): Promise<string> {
    return this.tmpl.render(input);
  }
  async generate(req: GenerateRequest, onToken: (ev: TokenEvent) => void): Promise<GenerateResult> {
    this.requests.push(req);
    const script = this.scripts.shift() ?? [];
    let n = 0;
    for (const tok of script) {
      if (req.signal?.aborted) return { finishReason: 'cancelled', promptTokens: req.prompt.length, cachedTokens: 0, completionTokens: n };
      if (n >= req.maxTokens) return { finishReason: 'length', promptTokens: req.prompt.length, cachedTokens: 0, completionTokens: n };
      const [token, text] = typeof tok === 'string' ? [65, tok] : tok;
      onToken({ token, text });
      n++;
    }
    return { finishReason: req.grammar ? 'grammar_end' : 'stop', promptTokens: req.prompt.length, cachedTokens: 0, completionTokens: n };
  }
  async checkGrammar(): Promise<void> {}
}

const WEATHER = { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } };
const TIME = { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } };

async function runWith(t: FamilyTemplate, scripts: (m: ScriptedModel) => Tok[][], body: Record<string, unknown>, maxTokens = 100) {
  const model = new ScriptedModel(t, []);
  model['scripts'].push(...scripts(model));
  const plan = planFromOpenAI(chatCompletionRequestSchema.parse({ model: 'm', messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER, TIME], ...body }));
  const prompt = await buildPrompt(model as unknown as LoadedModel, plan);
  let ids = 0;
  const result = await runChoice(model as unknown as LoadedModel, plan, prompt, { maxTokens, newToolCallId: () => `call_${ids++}` });
  return { model, result, prompt };
}

describe('runner, per family', () => {
  it('Mistral: [TOOL_CALLS], a control token with no text, still opens the call', async () => {
    const { result } = await runWith(TEMPLATES.mistralNemo(), (m) => [[[m.markerId('[TOOL_CALLS]'), ''], '[{"name": "get_weather", ', '"arguments": {"city": "Paris"}}]']], {});
    expect(result.toolCalls).toEqual([{ id: 'call_0', name: 'get_weather', arguments: '{"city":"Paris"}' }]);
    expect(result).toMatchObject({ text: '', finish: 'tool_calls', completionTokens: 3 });
  });

  it('Llama 3.1: <|python_tag|> as a control token', async () => {
    const { result } = await runWith(TEMPLATES.llama31(), (m) => [[[m.markerId('<|python_tag|>'), ''], '{"name": "get_time", "parameters": {}}']], {});
    expect(result.toolCalls.map((c) => c.name)).toEqual(['get_time']);
  });

  it('gpt-oss: the analysis message, its <|end|>, then the final answer in one generation', async () => {
    const { model, result } = await runWith(
      TEMPLATES.gptOss(),
      (m) => [
        [[m.markerId('<|channel|>'), '<|channel|>'], 'analysis', [m.markerId('<|message|>'), '<|message|>'], 'Greeting.', [m.markerId('<|end|>'), ''],
         [m.markerId('<|start|>'), '<|start|>'], 'assistant', [m.markerId('<|channel|>'), '<|channel|>'], 'final', [m.markerId('<|message|>'), '<|message|>'], 'Hello!'],
      ],
      { reasoning_effort: 'low' },
    );
    expect(result).toMatchObject({ thinking: 'Greeting.', text: 'Hello!', finish: 'stop', completionTokens: 11, reasoningTokens: 2 }); // 'Greeting.' and the <|end|> closing it
    expect(model.requests).toHaveLength(1);
  });

  it('gpt-oss: a forced call is prefilled in the commentary channel', async () => {
    const { model, result } = await runWith(TEMPLATES.gptOss(), () => [['{"city":', ' "Paris"}']], { tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    expect(model.promptText(0).endsWith('<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>')).toBe(true);
    expect(model.requests[0]!.grammar).toMatchObject({ kind: 'json_schema' });
    expect(result.toolCalls).toEqual([{ id: 'call_0', name: 'get_weather', arguments: '{"city": "Paris"}' }]);
  });

  it('Llama 3.1: tool_choice required picks the name, then the arguments, in its {"name", "parameters"} layout', async () => {
    const { model, result } = await runWith(TEMPLATES.llama31(), () => [['"get_time"'], ['{}']], { tool_choice: 'required' });
    expect(model.promptText(0).endsWith('<|start_header_id|>assistant<|end_header_id|>\n\n{"name": ')).toBe(true);
    expect(model.promptText(1).endsWith('{"name": "get_time", "parameters": ')).toBe(true);
    expect(result).toMatchObject({ finish: 'tool_calls', toolCalls: [{ name: 'get_time', arguments: '{}' }] });
  });

  it('Mistral: a second forced call continues the array after ", "', async () => {
    const { model, result } = await runWith(TEMPLATES.mistralNemo(), () => [['"get_weather"'], ['{"city": "Rome"}'], [', {'], ['"get_time"'], ['{}'], [']']], { tool_choice: 'required' });
    expect(model.promptText(1).endsWith('[TOOL_CALLS][{"name": "get_weather", "arguments": ')).toBe(true);
    expect(model.promptText(3).endsWith('[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Rome"}}, {"name": ')).toBe(true);
    expect(result.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['get_weather', '{"city": "Rome"}'],
      ['get_time', '{}'],
    ]);
  });

  it('DeepSeek R1: a forced call closes the open <think> first', async () => {
    const { model } = await runWith(TEMPLATES.deepseekR1(), () => [['{"city": "Paris"}']], { reasoning_effort: 'high', tool_choice: { type: 'function', function: { name: 'get_weather' } } });
    expect(model.promptText(0).endsWith('<｜Assistant｜><think>\n</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n')).toBe(true);
  });

  it('Gemma: a json_schema answer is the constrained text, not parsed for calls', async () => {
    const { result } = await runWith(TEMPLATES.gemma3(), () => [['{"name": "get_time", "arguments": {}}']], {
      response_format: { type: 'json_schema', json_schema: { name: 'o', schema: { type: 'object' } } },
    });
    expect(result).toMatchObject({ text: '{"name": "get_time", "arguments": {}}', toolCalls: [] });
  });
});

function m(model: ScriptedModel, marker: string): number {
  return model.markerId(marker);
}
