// The direct rendering of the Qwen2.5 template's plain-chat case must equal the interpreter's.
import { Template } from '@huggingface/jinja';
import { describe, expect, it } from 'vitest';
import { ChatTemplate } from '../../src/engine/chat-template.js';
import { QWEN25_CHAT_TEMPLATE } from '../../src/assets/qwen25-chat-template.js';
import { seededRandom } from '../../src/bench/stats.js';

describe('ChatTemplate direct Qwen2.5 rendering', () => {
  it('equals @huggingface/jinja on generated plain chats', () => {
    const tokens = { bosToken: '', eosToken: '<|im_end|>', literal: (t: string) => t };
    const fast = new ChatTemplate(QWEN25_CHAT_TEMPLATE, tokens);
    const jinja = new Template(QWEN25_CHAT_TEMPLATE);
    const rand = seededRandom(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    for (let i = 0; i < 2000; i++) {
      const messages = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => ({
        role: pick(['system', 'user', 'assistant']),
        content: pick(['', 'hi', 'two\nlines', ' spaced ', '{{ not jinja }}', '<|im_end|>', 'ünïcode']),
      }));
      const addGenerationPrompt = rand() < 0.8;
      const extra = rand() < 0.3 ? { reasoning_effort: 'low' } : undefined;
      const expected = jinja.render({
        ...(extra ?? {}),
        messages,
        add_generation_prompt: addGenerationPrompt,
        bos_token: tokens.bosToken,
        eos_token: tokens.eosToken,
      });
      expect(fast.render({ messages, addGenerationPrompt, ...(extra ? { extra } : {}) })).toBe(expected);
    }
  });

  it('leaves tools, tool calls and other roles to the interpreter', () => {
    const t = new ChatTemplate(QWEN25_CHAT_TEMPLATE, { bosToken: '', eosToken: '<|im_end|>', literal: (t: string) => t });
    const withTools = t.render({
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
      addGenerationPrompt: true,
    });
    expect(withTools).toContain('<tools>');
    const toolTurn = t.render({
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: {} } }] },
        { role: 'tool', content: 'result', tool_call_id: 'c' },
      ],
      addGenerationPrompt: true,
    });
    expect(toolTurn).toContain('<tool_call>');
    expect(toolTurn).toContain('<tool_response>\nresult\n</tool_response>');
  });
});
