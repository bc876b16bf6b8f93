import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { countTokensRequestSchema, messagesRequestSchema, planFromAnthropic } from '../../src/chat/anthropic-request.js';
import { effortForBudget } from '../../src/chat/plan.js';
import { parseBody } from '../../src/chat/validate.js';

function plan(body: unknown) {
  const req = parseBody(messagesRequestSchema, body);
  return planFromAnthropic(req, req);
}

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

const base = { model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] };

describe('Messages request', () => {
  it('builds template messages from blocks, system and tool round trips', () => {
    const p = plan({
      ...base,
      system: [{ type: 'text', text: 'sys' }],
      metadata: { user_id: 'u' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'weather?', cache_control: { type: 'ephemeral' } }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 's' },
            { type: 'text', text: 'checking' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '15C' }] }] },
      ],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    });
    expect(p.template.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'weather?' },
      {
        role: 'assistant',
        content: 'checking',
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } }],
        reasoning_content: 'hmm',
      },
      { role: 'tool', content: '15C', tool_call_id: 'toolu_1' },
    ]);
    expect(p.toolMode).toEqual({ kind: 'auto' });
    expect(p.template.assistantPrefill).toBeUndefined();
  });

  it('checks tool turns as the API does: a tool_result answers the message before, every tool_use is answered', () => {
    const use = (id: string) => ({ type: 'tool_use', id, name: 'f', input: {} });
    const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
    const asked = { role: 'assistant', content: [{ type: 'text', text: 'calling' }, use('toolu_1'), use('toolu_2')] };
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    const ok = plan({ ...base, tools, messages: [...base.messages, asked, { role: 'user', content: [result('toolu_2'), result('toolu_1'), { type: 'text', text: 'and?' }] }] });
    expect(ok.template.messages).toHaveLength(5);
    // A final assistant message with tool_use is a prefill: nothing to answer yet.
    expect(() => plan({ ...base, tools, messages: [...base.messages, asked] })).not.toThrow();
    const stray = apiError(() => plan({ ...base, messages: [{ role: 'user', content: [result('toolu_1')] }] }));
    expect([stray.status, stray.param]).toEqual([400, 'messages[0].content[0].tool_use_id']);
    expect(stray.message).toMatch(/unexpected `tool_use_id` found in `tool_result` blocks: toolu_1\. Each `tool_result` block must have a corresponding `tool_use` block in the previous message/);
    const missing = apiError(() => plan({ ...base, tools, messages: [...base.messages, asked, { role: 'user', content: [result('toolu_1')] }] }));
    expect([missing.param, missing.message]).toEqual(['messages[1].content', expect.stringMatching(/without `tool_result` blocks immediately after: toolu_2\./)]);
    const late = apiError(() => plan({ ...base, tools, messages: [...base.messages, asked, { role: 'user', content: 'wait' }, { role: 'assistant', content: 'x' }, { role: 'user', content: [result('toolu_1')] }] }));
    expect(late.param).toBe('messages[1].content');
    // Messages name where they point, as the API's do.
    expect(stray.message).toMatch(/^messages\[0\]\.content\[0\]: /);
    expect(missing.message).toMatch(/^messages\[1\]: /);
    // One result per tool_use; tool_use ids unique across the conversation.
    const twice = apiError(() => plan({ ...base, tools, messages: [...base.messages, asked, { role: 'user', content: [result('toolu_1'), result('toolu_2'), result('toolu_1')] }] }));
    expect([twice.param, twice.message]).toEqual(['messages[2].content[2].tool_use_id', expect.stringMatching(/single result\. Found multiple `tool_result` blocks with id: toolu_1$/)]);
    const sameId = { role: 'assistant', content: [use('toolu_1'), use('toolu_1')] };
    expect(apiError(() => plan({ ...base, tools, messages: [...base.messages, sameId] })).param).toBe('messages[1].content[1].id');
    const reused = [...base.messages, asked, { role: 'user', content: [result('toolu_1'), result('toolu_2')] }, { role: 'assistant', content: [use('toolu_2')] }];
    expect(apiError(() => plan({ ...base, tools, messages: reused })).message).toMatch(/^messages\[3\]\.content\[0\]: `tool_use` ids must be unique: toolu_2$/);
  });

  it('treats a trailing assistant message as a prefill', () => {
    const p = plan({ ...base, messages: [...base.messages, { role: 'assistant', content: 'The answer is' }] });
    expect(p.template.assistantPrefill).toBe('The answer is');
    expect(p.template.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('refuses what the Messages API refuses: empty content, a prefill ending in whitespace, a non-object input_schema', () => {
    const user = (content: unknown) => ({ role: 'user', content });
    expect(apiError(() => plan({ ...base, messages: [user('')] })).param).toBe('messages[0].content');
    expect(apiError(() => plan({ ...base, messages: [user([])] })).param).toBe('messages[0].content');
    expect(apiError(() => plan({ ...base, messages: [user([{ type: 'text', text: '' }])] })).param).toBe('messages[0].content[0].text');
    expect(apiError(() => plan({ ...base, messages: [user('hi'), { role: 'assistant', content: 'Hello ' }] })).message).toMatch(/trailing whitespace/);
    expect(apiError(() => plan({ ...base, tools: [{ name: 'f', input_schema: { type: 'string' } }] })).param).toBe('tools[0].input_schema.type');
    // An empty final assistant message is allowed (a prefill of nothing).
    expect(plan({ ...base, messages: [user('hi'), { role: 'assistant', content: '' }] }).template.assistantPrefill).toBeUndefined();
  });

  it('rejects images: the model has no vision', () => {
    const e = apiError(() =>
      plan({ ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] }] }),
    );
    expect([e.status, e.param]).toEqual([400, 'messages[0].content[0]']);
    expect(e.message).toMatch(/vision/);
  });

  it('maps tool_choice', () => {
    const tools = [
      { name: 'a', input_schema: { type: 'object' } },
      { name: 'b', input_schema: { type: 'object' } },
    ];
    expect(plan({ ...base, tools, tool_choice: { type: 'any' } }).toolMode).toEqual({ kind: 'forced', names: ['a', 'b'], named: false });
    expect(plan({ ...base, tools, tool_choice: { type: 'tool', name: 'b' } }).toolMode).toEqual({ kind: 'forced', names: ['b'], named: false });
    expect(plan({ ...base, tools, tool_choice: { type: 'none' } }).toolMode).toEqual({ kind: 'none' });
    expect(plan({ ...base, tools }).parallelToolCalls).toBe(true);
    expect(plan({ ...base, tools, tool_choice: { type: 'auto', disable_parallel_tool_use: true } }).parallelToolCalls).toBe(false);
    expect(apiError(() => plan({ ...base, tools, tool_choice: { type: 'tool', name: 'c' } })).param).toBe('tool_choice.name');
  });

  it('maps the thinking budget to an effort tier passed to the template', () => {
    expect([effortForBudget(1024), effortForBudget(8191), effortForBudget(8192), effortForBudget(24575), effortForBudget(24576)]).toEqual([
      'low',
      'low',
      'medium',
      'medium',
      'high',
    ]);
    const p = plan({ ...base, max_tokens: 20000, thinking: { type: 'enabled', budget_tokens: 10000 } });
    expect(p.reasoningEffort).toBe('medium');
    expect(p.template.extra).toEqual({ enable_thinking: true, reasoning_effort: 'medium' });
    expect(apiError(() => plan({ ...base, thinking: { type: 'enabled', budget_tokens: 512 } })).param).toBe('thinking.budget_tokens');
    expect(apiError(() => plan({ ...base, thinking: { type: 'enabled', budget_tokens: 2000 } })).param).toBe('thinking.budget_tokens');
    // Thinking with a forced tool call is refused, as Anthropic does; with auto tools it is fine.
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    const thinking = { type: 'enabled', budget_tokens: 2000 };
    for (const tool_choice of [{ type: 'any' }, { type: 'tool', name: 'f' }]) {
      expect(apiError(() => plan({ ...base, max_tokens: 4000, tools, tool_choice, thinking })).message).toMatch(/Thinking may not be enabled when tool_choice forces tool use/);
    }
    expect(plan({ ...base, max_tokens: 4000, tools, tool_choice: { type: 'auto' }, thinking }).reasoningEffort).toBe('low');
  });

  it('maps sampling and stop sequences', () => {
    const p = plan({ ...base, temperature: 0.2, top_p: 0.9, top_k: 5, stop_sequences: ['END'] });
    expect(p.sampling).toMatchObject({ temperature: 0.2, topP: 0.9, topK: 5 });
    expect(p.stop).toEqual(['END']);
    expect(apiError(() => plan({ ...base, temperature: 1.5 })).param).toBe('temperature');
    expect(apiError(() => plan({ model: 'm', messages: base.messages })).param).toBe('max_tokens');
  });

  it('count_tokens builds the same prompt plan as a request', () => {
    const body = { ...base, system: 'sys', tools: [{ name: 'a', input_schema: { type: 'object' } }] };
    const a = plan(body);
    const b = planFromAnthropic(parseBody(countTokensRequestSchema, body));
    expect(b.template).toEqual(a.template);
  });
});
