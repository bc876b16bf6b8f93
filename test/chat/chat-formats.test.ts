// Each model family's chat format through its REAL chat template (templates/index.ts): detection,
// the prompt a request renders to (tools, tool turns, reasoning switches), and realistic model
// output (hand-written in each family's syntax) through the output parser, fed whole, one
// character at a time and split at every boundary.
import { describe, expect, it } from 'vitest';
import { ChatTemplate } from '../../src/engine/chat-template.js';
import type { ChatTemplateInput, LoadedModel } from '../../src/engine/types.js';
import { answerPrefix, detectChatFormat, type ChatFormat } from '../../src/chat/chat-format.js';
import { chatCompletionRequestSchema, planFromOpenAI } from '../../src/chat/openai-request.js';
import { messagesRequestSchema, planFromAnthropic } from '../../src/chat/anthropic-request.js';
import { buildPrompt } from '../../src/chat/prompt.js';
import { outputParser } from '../../src/chat/runner.js';
import { adaptTemplateInput, alnum9 } from '../../src/chat/template-input.js';
import type { ChatOutputParser, OutputEvent } from '../../src/chat/output-parser.js';
import type { ChatPlan } from '../../src/chat/plan.js';
import { TEMPLATES, type FamilyTemplate } from './templates/index.js';

const WEATHER = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
  },
};
const TIME = { type: 'function' as const, function: { name: 'get_time', description: 'Current time', parameters: { type: 'object', properties: {} } } };

/** A stand-in for a loaded model: its template rendered with @huggingface/jinja as the engine does,
 *  and a tokenizer that knows each marker as one token (ids from 1000) and other text per char. */
function fakeModel(t: FamilyTemplate): LoadedModel {
  const tmpl = new ChatTemplate(t.template, { bosToken: t.bos, eosToken: t.eos, literal: (s) => s });
  const markers = detectChatFormat(t.template).markers;
  return {
    info: { id: 'm', path: '', architecture: 'x', contextLength: 1 << 20, vocabSize: 1 << 16, chatTemplate: t.template, bosToken: null, eosTokens: [] },
    tokenize: async (text: string) => {
      const i = markers.indexOf(text);
      return i >= 0 ? Uint32Array.of(1000 + i) : Uint32Array.from(Array.from(text, (c) => c.codePointAt(0)!));
    },
    renderChat: async (input: ChatTemplateInput) => tmpl.render(input),
  } as unknown as LoadedModel;
}

function openaiPlan(body: Record<string, unknown>): ChatPlan {
  return planFromOpenAI(chatCompletionRequestSchema.parse({ model: 'm', ...body }));
}

function anthropicPlan(body: Record<string, unknown>): ChatPlan {
  const req = messagesRequestSchema.parse({ model: 'm', max_tokens: 4096, ...body });
  return planFromAnthropic(req, req);
}

async function prompt(t: FamilyTemplate, plan: ChatPlan) {
  return buildPrompt(fakeModel(t), plan);
}

/** Consecutive text/thinking events merged, so that assertions ignore chunking. */
function merged(evs: OutputEvent[]): OutputEvent[] {
  const out: OutputEvent[] = [];
  for (const e of evs) {
    const last = out[out.length - 1];
    if (last && e.type !== 'tool_call' && last.type === e.type) (last as { text: string }).text += (e as { text: string }).text;
    else out.push({ ...e });
  }
  return out;
}

function run(make: () => ChatOutputParser, pieces: string[]): OutputEvent[] {
  const p = make();
  const out: OutputEvent[] = [];
  for (const s of pieces) out.push(...p.push(s));
  out.push(...p.finish());
  return merged(out);
}

/** The parse of `output`: the same whole, one character at a time and split in two anywhere. */
function parseEverySplit(make: () => ChatOutputParser, output: string): OutputEvent[] {
  const whole = run(make, [output]);
  const chars = Array.from(output);
  expect(run(make, chars)).toEqual(whole);
  for (let i = 1; i < chars.length; i++) {
    expect(run(make, [chars.slice(0, i).join(''), chars.slice(i).join('')]), `split at ${i}`).toEqual(whole);
  }
  return whole;
}

/** A parser for a model with template `t` under `plan` (as the runner builds it). */
async function parserFor(t: FamilyTemplate, plan: ChatPlan): Promise<() => ChatOutputParser> {
  const p = await prompt(t, plan);
  return () => outputParser(plan, p);
}

const toolsAuto = { messages: [{ role: 'user', content: 'Weather in Paris?' }], tools: [WEATHER, TIME] };
const call = (name: string, args: Record<string, unknown>) => ({ type: 'tool_call', name, arguments: JSON.stringify(args) });

/** A finished tool round: the assistant's call and the tool's result, then a new user turn. */
const history = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_Xy12abCD34ef56GH', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
  { role: 'tool', tool_call_id: 'call_Xy12abCD34ef56GH', content: '18 C, sunny' },
  { role: 'assistant', content: 'It is 18 C and sunny.' },
  { role: 'user', content: 'And tomorrow?' },
];

/** The forced-call layout of a format, with arguments the grammar would produce, parses back into
 *  that call (what the runner's forced calls and a later turn's history rely on). */
function forcedText(format: ChatFormat, name: string, args: string, index = 0): string {
  const f = format.forced;
  return f.beforeName(index) + f.name(name) + f.afterName + args + f.afterArguments;
}

describe('format detection from the template', () => {
  it('picks each family by its markers', () => {
    const got = Object.fromEntries(Object.entries(TEMPLATES).map(([k, f]) => [k, detectChatFormat(f().template)]));
    expect(Object.fromEntries(Object.entries(got).map(([k, f]) => [k, [f.family, f.reasoning, f.rendersTools, f.rendersToolTurns, f.callIds]]))).toEqual({
      qwen3: ['hermes', 'think', true, true, 'any'],
      llama3: ['json', null, false, false, 'any'],
      gemma3: ['json', null, false, false, 'any'],
      deepseekV3: ['deepseek', null, false, true, 'any'],
      llama31: ['llama3', null, true, true, 'any'],
      mistralNemo: ['mistral', null, true, true, 'alnum9'],
      mistralSmall32: ['mistral-args', null, true, true, 'alnum9'],
      gptOss: ['harmony', 'harmony', true, true, 'any'],
      deepseekR1: ['deepseek', 'think', false, true, 'any'],
    });
    expect(detectChatFormat(null).family).toBe('json');
  });
});

describe('Qwen3 (Hermes <tool_call>, <think>)', () => {
  const t = TEMPLATES.qwen3();

  it('lists the tools and drives enable_thinking from reasoning_effort and Anthropic thinking', async () => {
    const on = await prompt(t, openaiPlan({ ...toolsAuto, reasoning_effort: 'high' }));
    expect(on.text).toContain('<tools>\n{"type": "function", "function": {"name": "get_weather"');
    expect(on.text.endsWith('<|im_start|>assistant\n')).toBe(true);
    for (const effort of ['none', 'minimal']) {
      const off = await prompt(t, openaiPlan({ ...toolsAuto, reasoning_effort: effort }));
      expect(off.text.endsWith('<|im_start|>assistant\n<think>\n\n</think>\n\n')).toBe(true);
    }
    const disabled = await prompt(t, anthropicPlan({ messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'disabled' } }));
    expect(disabled.text.endsWith('<think>\n\n</think>\n\n')).toBe(true);
    const enabled = await prompt(t, anthropicPlan({ messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'enabled', budget_tokens: 2048 } }));
    expect(enabled.text.endsWith('<|im_start|>assistant\n')).toBe(true);
    expect(enabled.reasoningTemplate).toBe(true);
  });

  it('renders a tool round of the history', async () => {
    const p = await prompt(t, openaiPlan({ messages: history, tools: [WEATHER] }));
    expect(p.text).toContain('<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>');
    expect(p.text).toContain('<|im_start|>user\n<tool_response>\n18 C, sunny\n</tool_response><|im_end|>');
  });

  it('splits reasoning, answer and calls at every boundary', async () => {
    const make = await parserFor(t, openaiPlan({ ...toolsAuto, reasoning_effort: 'high' }));
    const out = '<think>\nThe user wants the weather.\n</think>\n\nLet me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n<tool_call>\n{"name": "get_time", "arguments": {}}\n</tool_call>';
    expect(parseEverySplit(make, out)).toEqual([
      { type: 'thinking', text: '\nThe user wants the weather.\n' },
      { type: 'text', text: 'Let me check.' },
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
    // A block that does not parse is text, markers included.
    expect(parseEverySplit(make, 'Hi <tool_call>{"name": oops}</tool_call>')).toEqual([{ type: 'text', text: 'Hi <tool_call>{"name": oops}</tool_call>' }]);
  });
});

describe('DeepSeek (tool-call blocks; R1 <think>)', () => {
  it('V3: lists tools as instructions in its syntax, renders tool turns, parses its blocks', async () => {
    const t = TEMPLATES.deepseekV3();
    const p = await prompt(t, openaiPlan({ messages: history, tools: [WEATHER] }));
    expect(p.text).toContain('"name":"get_weather"');
    expect(p.text).toContain('<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city":"Paris"}\n```<｜tool▁call▁end｜>');
    expect(p.text).toContain('<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>18 C, sunny<｜tool▁output▁end｜>');
    const make = await parserFor(t, openaiPlan(toolsAuto));
    const out = 'Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n{}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    expect(parseEverySplit(make, out)).toEqual([{ type: 'text', text: 'Checking.' }, call('get_weather', { city: 'Paris' }), call('get_time', {})]);
  });

  it('R1: the prompt leaves <think> open when thinking is on; reasoning comes out as thinking', async () => {
    const t = TEMPLATES.deepseekR1();
    const on = await prompt(t, openaiPlan({ ...toolsAuto, reasoning_effort: 'medium' }));
    expect(on.text.endsWith('<｜Assistant｜><think>\n')).toBe(true);
    expect(on.thinkingOpen).toBe(true);
    const off = await prompt(t, openaiPlan({ ...toolsAuto, reasoning_effort: 'none' }));
    expect(off.text.endsWith('<think>\n</think>')).toBe(true);
    expect(off.thinkingOpen).toBe(false);
    const make = () => outputParser(openaiPlan({ ...toolsAuto, reasoning_effort: 'medium' }), on);
    expect(parseEverySplit(make, 'Paris, so call it.\n</think>\n\n<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city":"Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>')).toEqual([
      { type: 'thinking', text: 'Paris, so call it.\n' },
      call('get_weather', { city: 'Paris' }),
    ]);
    // json_schema: the open <think> is closed before the constrained answer.
    const schema = await prompt(t, openaiPlan({ messages: toolsAuto.messages, reasoning_effort: 'high', response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } } }));
    expect(schema.text.endsWith('<think>\n</think>\n\n')).toBe(true);
  });
});

describe('Llama 3.x', () => {
  it('3.1: the template lists tools and asks for {"name", "parameters"}; history renders its format', async () => {
    const t = TEMPLATES.llama31();
    const p = await prompt(t, openaiPlan({ messages: history, tools: [WEATHER] }));
    expect(p.text).toContain('Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}');
    expect(p.text).toContain('{"name": "get_weather", "parameters": {"city": "Paris"}}<|eot_id|>');
    expect(p.text).toContain('<|start_header_id|>ipython<|end_header_id|>\n\n"18 C, sunny"<|eot_id|>');
  });

  it('3.1: parses a bare JSON call, <|python_tag|> calls and keeps other JSON as text', async () => {
    const make = await parserFor(TEMPLATES.llama31(), openaiPlan(toolsAuto));
    expect(parseEverySplit(make, '{"name": "get_weather", "parameters": {"city": "Paris"}}')).toEqual([call('get_weather', { city: 'Paris' })]);
    expect(parseEverySplit(make, '<|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": "get_time", "parameters": {}}')).toEqual([
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
    expect(parseEverySplit(make, '<|python_tag|>brave_search.call(query="weather Paris", count=3)')).toEqual([call('brave_search', { query: 'weather Paris', count: 3 })]);
    // JSON that names no offered tool, or comes after text, is the answer.
    expect(parseEverySplit(make, '{"name": "Alice", "parameters": {}}')).toEqual([{ type: 'text', text: '{"name": "Alice", "parameters": {}}' }]);
    expect(parseEverySplit(make, 'Use {"name": "get_weather", "parameters": {}}')).toEqual([{ type: 'text', text: 'Use {"name": "get_weather", "parameters": {}}' }]);
    expect(parseEverySplit(make, '<|python_tag|>print(1)')).toEqual([{ type: 'text', text: '<|python_tag|>print(1)' }]);
    // Plain code is a call where a python tool is offered.
    const PY = { type: 'function', function: { name: 'python', parameters: { type: 'object', properties: { code: { type: 'string' } } } } };
    const withPython = await parserFor(TEMPLATES.llama31(), openaiPlan({ ...toolsAuto, tools: [WEATHER, PY] }));
    expect(parseEverySplit(withPython, '<|python_tag|>print(1)\n')).toEqual([call('python', { code: 'print(1)' })]);
  });

  it('3.0 (no tool syntax): tools as instructions, tool turns as text, calls as ```json blocks', async () => {
    const t = TEMPLATES.llama3();
    const p = await prompt(t, openaiPlan({ messages: history, tools: [WEATHER] }));
    expect(p.text).toContain('<|start_header_id|>system<|end_header_id|>\n\nBe brief.\n\n# Tools');
    expect(p.text).toContain('{"type":"function","function":{"name":"get_weather"');
    expect(p.text).toContain('<|start_header_id|>assistant<|end_header_id|>\n\n```json\n{"name":"get_weather","arguments":{"city":"Paris"}}\n```<|eot_id|>');
    expect(p.text).toContain('<|start_header_id|>user<|end_header_id|>\n\nTool result (get_weather):\n18 C, sunny<|eot_id|>');
  });
});

describe('Mistral', () => {
  it('Nemo: tools in [AVAILABLE_TOOLS], call ids mapped to 9 alphanumerics on both sides', async () => {
    const t = TEMPLATES.mistralNemo();
    const p = await prompt(t, openaiPlan({ messages: history, tools: [WEATHER] }));
    const id = alnum9('call_Xy12abCD34ef56GH');
    expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(p.text).toContain('[AVAILABLE_TOOLS][{"type": "function", "function": {"name": "get_weather"');
    expect(p.text).toContain(`[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "${id}"}]</s>`);
    expect(p.text).toContain(`[TOOL_RESULTS]{"content": 18 C, sunny, "call_id": "${id}"}[/TOOL_RESULTS]`);
    const make = await parserFor(t, openaiPlan(toolsAuto));
    expect(parseEverySplit(make, '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "a1B2c3D4e"}, {"name": "get_time", "arguments": {}}]')).toEqual([
      call('get_weather', { city: 'Paris' }),
      call('get_time', {}),
    ]);
    expect(parseEverySplit(make, '[TOOL_CALLS] [{"name": broken')).toEqual([{ type: 'text', text: '[TOOL_CALLS] [{"name": broken' }]);
  });

  it('Small 3.2: [TOOL_CALLS]name[CALL_ID]id[ARGS]{…} in history and output', async () => {
    const t = TEMPLATES.mistralSmall32();
    const p = await prompt(t, openaiPlan({ messages: history, tools: [WEATHER] }));
    expect(p.text).toContain(`[TOOL_CALLS]get_weather[CALL_ID]${alnum9('call_Xy12abCD34ef56GH')}[ARGS]{"city": "Paris"}</s>`);
    const make = await parserFor(t, openaiPlan(toolsAuto));
    expect(parseEverySplit(make, '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}')).toEqual([call('get_weather', { city: 'Paris' }), call('get_time', {})]);
  });
});

describe('Gemma 3 (no tool syntax: the ```json convention)', () => {
  const t = TEMPLATES.gemma3();

  it('puts tool instructions in the first user turn and keeps user/model alternation', async () => {
    const p = await prompt(t, openaiPlan({ messages: history, tools: [WEATHER] }));
    expect(p.text).toContain('<start_of_turn>user\nBe brief.\n\n# Tools\n\nYou can call the functions listed below.');
    expect(p.text).toContain('<start_of_turn>model\n```json\n{"name":"get_weather","arguments":{"city":"Paris"}}\n```<end_of_turn>');
    expect(p.text).toContain('<start_of_turn>user\nTool result (get_weather):\n18 C, sunny<end_of_turn>\n<start_of_turn>model\nIt is 18 C and sunny.<end_of_turn>');
    // Anthropic turns too: tool_use / tool_result blocks.
    const a = await prompt(
      t,
      anthropicPlan({
        tools: [{ name: 'get_weather', input_schema: WEATHER.function.parameters }],
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '2 C' }, { type: 'text', text: 'Warm?' }] },
        ],
      }),
    );
    // The result and the user's text are one user turn.
    expect(a.text).toContain('<start_of_turn>user\nTool result (get_weather):\n2 C\n\nWarm?<end_of_turn>\n<start_of_turn>model\n');
  });

  it('parses fenced and bare JSON calls of offered tools; anything else stays text', async () => {
    const make = await parserFor(t, openaiPlan(toolsAuto));
    expect(parseEverySplit(make, 'Sure.\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```')).toEqual([
      { type: 'text', text: 'Sure.' },
      call('get_weather', { city: 'Paris' }),
    ]);
    expect(parseEverySplit(make, '```json\n[{"name": "get_weather", "arguments": {"city": "Rome"}}, {"name": "get_time", "arguments": {}}]\n```')).toEqual([
      call('get_weather', { city: 'Rome' }),
      call('get_time', {}),
    ]);
    expect(parseEverySplit(make, '  {"name": "get_time", "arguments": {}}')).toEqual([call('get_time', {})]);
    const answer = 'Here:\n```json\n{"name": "Bob", "arguments": {"age": 3}}\n```\nDone.';
    expect(parseEverySplit(make, answer)).toEqual([{ type: 'text', text: answer }]);
  });
});

describe('gpt-oss (harmony)', () => {
  const t = TEMPLATES.gptOss();

  it('passes reasoning_effort to the template and lists tools in its namespace', async () => {
    const high = await prompt(t, openaiPlan({ ...toolsAuto, reasoning_effort: 'high' }));
    expect(high.text).toContain('Reasoning: high');
    expect(high.text).toContain("Calls to these tools must go to the commentary channel: 'functions'.");
    expect(high.text).toContain('namespace functions {\n\n// Current weather in a city\ntype get_weather = (_: {\n// City name\ncity: string,\n}) => any;');
    expect(high.text.endsWith('<|start|>assistant')).toBe(true);
    expect((await prompt(t, openaiPlan({ ...toolsAuto, reasoning_effort: 'none' }))).text).toContain('Reasoning: low');
    expect((await prompt(t, anthropicPlan({ max_tokens: 40000, messages: [{ role: 'user', content: 'Hi' }], thinking: { type: 'enabled', budget_tokens: 30000 } }))).text).toContain('Reasoning: high');
  });

  it('renders a tool round with its reasoning', async () => {
    // Up to the tool's result: the template keeps a call's reasoning until a final answer follows.
    const msgs = history.slice(0, 4).map((m) => (m.role === 'assistant' ? { ...m, reasoning_content: 'Need the weather.' } : m));
    const p = await prompt(t, openaiPlan({ messages: msgs, tools: [WEATHER] }));
    expect(p.text).toContain('<|start|>assistant<|channel|>analysis<|message|>Need the weather.<|end|>');
    expect(p.text).toContain('<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Paris"}<|call|>');
    expect(p.text).toContain('<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>"18 C, sunny"<|end|>');
  });

  it('parses channels: analysis as reasoning, final as the answer, commentary to functions.* as calls', async () => {
    const make = await parserFor(t, openaiPlan({ ...toolsAuto, reasoning_effort: 'low' }));
    expect(parseEverySplit(make, '<|channel|>analysis<|message|>User greets.<|end|><|start|>assistant<|channel|>final<|message|>Hello!')).toEqual([
      { type: 'thinking', text: 'User greets.' },
      { type: 'text', text: 'Hello!' },
    ]);
    expect(parseEverySplit(make, '<|channel|>analysis<|message|>Need weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Paris"}')).toEqual([
      { type: 'thinking', text: 'Need weather.' },
      call('get_weather', { city: 'Paris' }),
    ]);
    // The recipient in the role part of the header, as the template writes history.
    expect(parseEverySplit(make, '<|start|>assistant to=functions.get_time<|channel|>commentary json<|message|>{}<|call|>')).toEqual([call('get_time', {})]);
    // Arguments that do not parse, and text outside any message, come back as text.
    expect(parseEverySplit(make, '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": ')).toEqual([
      { type: 'text', text: '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": ' },
    ]);
    expect(parseEverySplit(make, 'plain words')).toEqual([{ type: 'text', text: 'plain words' }]);
    // A built-in tool's call (not a function) and any call under tool_choice none: text, header included.
    expect(parseEverySplit(make, '<|channel|>analysis<|message|>x<|end|><|start|>assistant<|channel|>commentary to=browser.search <|constrain|>json<|message|>{"query":"a"}')).toEqual([
      { type: 'thinking', text: 'x' },
      { type: 'text', text: '<|start|>assistant<|channel|>commentary to=browser.search <|constrain|>json<|message|>{"query":"a"}' },
    ]);
    const none = await parserFor(t, openaiPlan({ ...toolsAuto, tool_choice: 'none' }));
    expect(parseEverySplit(none, '<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{}')).toEqual([
      { type: 'text', text: '<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{}' },
    ]);
  });

  it('starts inside the message an assistant prefill opened', async () => {
    const plan = anthropicPlan({ tools: [{ name: 'get_time', input_schema: { type: 'object' } }], messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: '<|channel|>analysis<|message|>Let me' }] });
    const p = await prompt(t, plan);
    expect(p.text.endsWith('<|start|>assistant<|channel|>analysis<|message|>Let me')).toBe(true);
    expect(parseEverySplit(() => outputParser(plan, p), ' think.<|end|><|start|>assistant<|channel|>final<|message|>Hi!')).toEqual([
      { type: 'thinking', text: ' think.' },
      { type: 'text', text: 'Hi!' },
    ]);
    const plain = await prompt(t, anthropicPlan({ messages: [{ role: 'user', content: 'Hi' }] }));
    expect(parseEverySplit(() => outputParser(plan, plain), 'Hi!')).toEqual([{ type: 'text', text: 'Hi!' }]);
  });

  it('opens the final channel for a json_schema answer', async () => {
    const p = await prompt(t, openaiPlan({ messages: toolsAuto.messages, response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } } }));
    expect(p.text.endsWith('<|start|>assistant<|channel|>final<|message|>')).toBe(true);
  });
});

describe('forced calls in each family\'s syntax parse back into the call', () => {
  const cases: Array<[string, FamilyTemplate]> = [
    ['qwen3', TEMPLATES.qwen3()],
    ['llama31', TEMPLATES.llama31()],
    ['llama3', TEMPLATES.llama3()],
    ['gemma3', TEMPLATES.gemma3()],
    ['mistralNemo', TEMPLATES.mistralNemo()],
    ['mistralSmall32', TEMPLATES.mistralSmall32()],
    ['deepseekV3', TEMPLATES.deepseekV3()],
    ['gptOss', TEMPLATES.gptOss()],
  ];
  for (const [name, t] of cases) {
    it(name, async () => {
      const format = detectChatFormat(t.template);
      const make = await parserFor(t, openaiPlan(toolsAuto));
      let out = forcedText(format, 'get_weather', '{"city": "Paris"}');
      const expected = [call('get_weather', { city: 'Paris' })];
      if (format.forced.next) {
        out += format.forced.next.join + forcedText(format, 'get_time', '{}', 1);
        expect(forcedText(format, 'get_time', '{}', 1).trimStart().startsWith(format.forced.next.marker) || format.forced.next.join.trim() !== '').toBe(true);
        expect(out.slice(forcedText(format, 'get_weather', '{"city": "Paris"}').length).trimStart().startsWith(format.forced.next.marker)).toBe(true);
        expected.push(call('get_time', {}));
      }
      // Mistral's array is closed by the conversation, not the call: the parse needs the `]`.
      if (format.family === 'mistral') out += ']';
      if (format.family === 'deepseek') out += '<｜tool▁calls▁end｜>';
      expect(parseEverySplit(make, out)).toEqual(expected);
    });
  }

  it('closes an open <think> before the call; harmony opens its own channel', () => {
    const think = detectChatFormat(TEMPLATES.qwen3().template);
    expect(answerPrefix(think, true, true)).toBe('</think>\n\n');
    expect(answerPrefix(think, false, true)).toBe('');
    const harmony = detectChatFormat(TEMPLATES.gptOss().template);
    expect(answerPrefix(harmony, false, true)).toBe('');
    expect(answerPrefix(harmony, false, false)).toBe('<|channel|>final<|message|>');
  });
});

describe('adaptTemplateInput', () => {
  it('puts the tool instructions in the first user message where the template takes no system message', async () => {
    // Mistral v0.1's template (docs.mistral.ai, "Tokenizer V1"): user and assistant roles only.
    const v1 =
      "{{ bos_token }}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if message['role'] == 'user' %}{{ ' [INST] ' + message['content'] + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ ' ' + message['content'] + eos_token }}{% else %}{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}{% endfor %}";
    const f = detectChatFormat(v1);
    expect([f.family, f.systemRole]).toEqual(['json', false]);
    const p = await prompt({ template: v1, bos: '<s>', eos: '</s>' }, openaiPlan(toolsAuto));
    expect(p.text.startsWith('<s> [INST] # Tools\n\nYou can call the functions listed below.')).toBe(true);
    expect(p.text.endsWith('\n\nWeather in Paris? [/INST]')).toBe(true);
  });

  it('leaves the input alone where the template renders everything', () => {
    const input: ChatTemplateInput = { messages: [{ role: 'user', content: 'x' }], addGenerationPrompt: true };
    expect(adaptTemplateInput(input, detectChatFormat(TEMPLATES.qwen3().template))).toBe(input);
  });
});
