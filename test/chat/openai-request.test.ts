import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { chatCompletionRequestSchema, planFromOpenAI } from '../../src/chat/openai-request.js';
import { parseBody } from '../../src/chat/validate.js';

const plan = (body: unknown) => planFromOpenAI(parseBody(chatCompletionRequestSchema, body));

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

const base = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

describe('Chat Completions request', () => {
  it('accepts unknown and unsupported-but-documented fields', () => {
    const p = plan({ ...base, store: true, metadata: { a: 'b' }, service_tier: 'auto', user: 'u', prediction: { type: 'content', content: 'x' }, whatever: 1 });
    expect(p.model).toBe('m');
    expect(p.template.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('maps sampling fields and both max token fields', () => {
    const p = plan({ ...base, temperature: 0, top_p: 0.5, seed: 7, presence_penalty: 1, frequency_penalty: -1, logit_bias: { '42': -100 }, max_tokens: 9 });
    expect(p.sampling).toMatchObject({ temperature: 0, topP: 0.5, seed: 7, presencePenalty: 1, frequencyPenalty: -1, logitBias: { 42: -100 } });
    expect(p.maxTokens).toBe(9);
    expect(p.maxTokensParam).toBe('max_tokens');
    const q = plan({ ...base, max_completion_tokens: 5 });
    expect([q.maxTokens, q.maxTokensParam]).toEqual([5, 'max_completion_tokens']);
  });

  it('normalises roles and content parts for the template', () => {
    const p = plan({
      model: 'm',
      messages: [
        { role: 'developer', content: [{ type: 'text', text: 'be brief' }] },
        { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '42' },
      ],
    });
    expect(p.template.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'a\nb' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: { x: 1 } } }] },
      { role: 'tool', content: '42', tool_call_id: 'call_1' },
    ]);
  });

  it('checks tool turns as the API does: each tool message answers a call just made, every call is answered', () => {
    const call = (id: string) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } });
    const asked = { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_2')] };
    const answer = (id: string) => ({ role: 'tool', tool_call_id: id, content: 'ok' });
    const user = { role: 'user', content: 'go' };
    // Both answered (any order), then the conversation goes on.
    expect(plan({ model: 'm', messages: [user, asked, answer('call_2'), answer('call_1'), user] }).template.messages).toHaveLength(5);
    const orphan = apiError(() => plan({ model: 'm', messages: [user, answer('call_1')] }));
    expect([orphan.status, orphan.param]).toEqual([400, 'messages[1].role']);
    expect(orphan.message).toMatch(/role 'tool' must be a response to a preceding message with 'tool_calls'/);
    const unknown = apiError(() => plan({ model: 'm', messages: [user, asked, answer('call_9')] }));
    expect([unknown.param, unknown.message]).toEqual(['messages[2].tool_call_id', expect.stringMatching(/'call_9' was not found/)]);
    const twice = apiError(() => plan({ model: 'm', messages: [user, asked, answer('call_1'), answer('call_1')] }));
    expect(twice.param).toBe('messages[3].tool_call_id');
    const missing = apiError(() => plan({ model: 'm', messages: [user, asked, answer('call_1'), user] }));
    expect([missing.param, missing.message]).toEqual(['messages[1].role', expect.stringMatching(/did not have response messages: call_2$/)]);
    expect(apiError(() => plan({ model: 'm', messages: [user, asked] })).message).toMatch(/call_1, call_2$/);
    const sameId = { role: 'assistant', content: null, tool_calls: [call('call_1'), call('call_1')] };
    expect(apiError(() => plan({ model: 'm', messages: [user, sameId, answer('call_1')] })).param).toBe('messages[1].tool_calls[1].id');
  });

  it('refuses what the API refuses: an unknown reasoning_effort, an assistant message with neither content nor calls', () => {
    const user = { role: 'user', content: 'go' };
    expect(apiError(() => plan({ model: 'm', messages: [user], reasoning_effort: 'ultra' })).param).toBe('reasoning_effort');
    expect(plan({ model: 'm', messages: [user], reasoning_effort: 'none' }).reasoningEffort).toBeUndefined();
    const empty = apiError(() => plan({ model: 'm', messages: [user, { role: 'assistant' }, user] }));
    expect([empty.status, empty.param]).toEqual([400, 'messages[1].content']);
    // content '' is content; name: null is no name.
    expect(plan({ model: 'm', messages: [{ ...user, name: null }, { role: 'assistant', content: '' }, user] }).template.messages).toHaveLength(3);
  });

  it('rejects images with a clear message naming the part', () => {
    const e = apiError(() => plan({ model: 'm', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:,' } }] }] }));
    expect(e.status).toBe(400);
    expect(e.param).toBe('messages[0].content[0]');
    expect(e.message).toMatch(/vision/);
  });

  it('names the offending field on schema errors', () => {
    expect(apiError(() => plan({ messages: base.messages })).param).toBe('model');
    expect(apiError(() => plan({ ...base, temperature: 3 })).param).toBe('temperature');
    expect(apiError(() => plan({ ...base, stop: ['a', 'b', 'c', 'd', 'e'] })).param).toBe('stop');
    expect(apiError(() => plan({ ...base, messages: [] })).param).toBe('messages');
    expect(apiError(() => plan({ ...base, messages: [{ role: 'tool', content: 'x' }] })).param).toBe('messages[0].tool_call_id');
    // a union (string or parts): the part that is wrong, not "messages[0].content: Invalid input"
    const part = apiError(() => plan({ ...base, messages: [{ role: 'user', content: [{ type: 'text' }] }] }));
    expect(part.param).toBe('messages[0].content[0].text');
    expect(part.message).toMatch(/^messages\[0\]\.content\[0\]\.text: .*string/);
    // neither alternative got inside the value: the union's own message
    expect(apiError(() => plan({ ...base, stop: 42 })).message).toMatch(/stop must be a string or an array/);
    expect(apiError(() => plan({ ...base, top_logprobs: 3 })).param).toBe('top_logprobs');
    expect(apiError(() => plan({ ...base, max_tokens: 5, max_completion_tokens: 7 })).message).toMatch(/at the same time is not supported/);
    const stringArgs = apiError(() => plan({ ...base, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'string' } } }] }));
    expect([stringArgs.param, stringArgs.message]).toEqual(['tools[0].function.parameters', expect.stringContaining('must be a JSON Schema of \'type: "object"\'')]);
    expect(apiError(() => plan({ ...base, stream_options: { include_usage: true } })).param).toBe('stream_options');
  });

  const tools = [
    { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    { type: 'function', function: { name: 'get_time' } },
  ];

  it('resolves tool_choice', () => {
    expect(plan({ ...base }).toolMode).toEqual({ kind: 'none' });
    expect(plan({ ...base, tools }).toolMode).toEqual({ kind: 'auto' });
    expect(plan({ ...base, tools, tool_choice: 'none' }).toolMode).toEqual({ kind: 'none' });
    expect(plan({ ...base, tools, tool_choice: 'required' }).toolMode).toEqual({ kind: 'forced', names: ['get_weather', 'get_time'], named: false });
    expect(plan({ ...base, tools, tool_choice: { type: 'function', function: { name: 'get_time' } } }).toolMode).toEqual({
      kind: 'forced',
      names: ['get_time'],
      named: true,
    });
    expect(apiError(() => plan({ ...base, tools, tool_choice: { type: 'function', function: { name: 'nope' } } })).param).toBe('tool_choice');
    expect(apiError(() => plan({ ...base, tool_choice: 'required' })).param).toBe('tool_choice');
    expect(plan({ ...base, tools }).parallelToolCalls).toBe(true);
    expect(plan({ ...base, tools, parallel_tool_calls: false }).parallelToolCalls).toBe(false);
    const p = plan({ ...base, tools });
    expect(p.template.tools).toEqual([
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
      { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
    ]);
  });

  it('maps response_format to a grammar', () => {
    expect(plan({ ...base, response_format: { type: 'text' } }).grammar).toBeUndefined();
    expect(plan({ ...base, response_format: { type: 'json_object' } }).grammar).toEqual({ kind: 'json_object' });
    const schema = { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] };
    expect(plan({ ...base, response_format: { type: 'json_schema', json_schema: { name: 'x', schema, strict: true } } }).grammar).toEqual({
      kind: 'json_schema',
      schema: { ...schema, additionalProperties: false },
    });
    expect(apiError(() => plan({ ...base, response_format: { type: 'json_schema', json_schema: { name: 'bad name!' } } })).param).toBe(
      'response_format.json_schema.name',
    );
  });

  it('normalises stop and logprobs', () => {
    expect(plan({ ...base, stop: 'x' }).stop).toEqual(['x']);
    expect(plan({ ...base, stop: ['a', ''] }).stop).toEqual(['a']);
    expect(plan({ ...base, logprobs: true, top_logprobs: 3 })).toMatchObject({ logprobs: true, topLogprobs: 3 });
  });

  it('passes reasoning_effort to the template', () => {
    const p = plan({ ...base, reasoning_effort: 'high' });
    expect(p.template.extra).toEqual({ reasoning_effort: 'high', enable_thinking: true });
    expect(p.reasoningEffort).toBe('high');
    // none and minimal turn a hybrid template's thinking off.
    expect(plan({ ...base, reasoning_effort: 'minimal' }).template.extra).toEqual({ reasoning_effort: 'low', enable_thinking: false });
    expect(plan({ ...base, reasoning_effort: 'none' }).template.extra).toEqual({ enable_thinking: false });
  });
});
