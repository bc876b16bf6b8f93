// The zod fast path must return exactly what the schema returns, for every request it accepts,
// and leave everything else to the schema.
import { describe, expect, it } from 'vitest';
import { chatCompletionRequestSchema } from '../../src/chat/openai-request.js';
import { fastChatCompletionRequest } from '../../src/chat/openai-request-fast.js';
import { seededRandom } from '../../src/bench/stats.js';

function generated(rand: () => number): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const maybe = (p = 0.5) => rand() < p;
  const num = (lo: number, hi: number, int = false) => {
    const v = lo - 1 + rand() * (hi - lo + 2); // sometimes just out of range
    return int ? Math.round(v) : v;
  };
  const message = (): unknown => {
    const m: Record<string, unknown> = { role: maybe(0.9) ? pick(['system', 'developer', 'user', 'assistant']) : pick(['tool', 'function', 'bogus']) };
    if (maybe(0.97)) m.content = maybe(0.9) ? pick(['hi', '', 'multi\nline', 'ünï "q"']) : pick([42, null, [{ type: 'text', text: 'part' }]]);
    if (maybe(0.2)) m.name = pick(['bob', 7]);
    if (maybe(0.05)) m.tool_call_id = 'call_1';
    if (maybe(0.05)) m.extra = true;
    return maybe(0.97) ? m : pick(['str', null, 3]);
  };
  const body: Record<string, unknown> = {};
  if (maybe(0.97)) body.model = pick(['builtin', '', 5]);
  if (maybe(0.97)) body.messages = maybe(0.95) ? Array.from({ length: Math.floor(rand() * 3) + (maybe(0.9) ? 1 : 0) }, message) : 'nope';
  const scalar: Array<[string, () => unknown]> = [
    ['max_tokens', () => num(1, 100, true)],
    ['max_completion_tokens', () => pick([num(1, 100, true), 2.5])],
    ['temperature', () => num(0, 2)],
    ['top_p', () => num(0, 1)],
    ['n', () => num(1, 16, true)],
    ['stop', () => pick(['x', ['a', 'b'], ['a', 'b', 'c', 'd', 'e'], [1], ''])],
    ['seed', () => pick([num(-5, 5, true), 1.5, 2 ** 60])],
    ['presence_penalty', () => num(-2, 2)],
    ['frequency_penalty', () => num(-2, 2)],
    ['logit_bias', () => pick([{ '12': -100, '7': 5 }, { a: 1 }, { '3': 101 }, {}, [1]])],
    ['logprobs', () => pick([true, false, 'yes'])],
    ['top_logprobs', () => num(0, 20, true)],
    ['stream', () => pick([true, false, 1])],
    ['stream_options', () => pick([{ include_usage: true }, { include_usage: false, include_obfuscation: true }, { other: 1 }, { include_usage: 'y' }, {}])],
    ['parallel_tool_calls', () => pick([true, false, 0])],
    ['reasoning_effort', () => pick(['low', 'high', 'none', 'ultra', 3])],
    ['tools', () => [{ type: 'function', function: { name: 'f' } }]],
    ['response_format', () => ({ type: 'text' })],
    ['user', () => 'someone'],
  ];
  for (const [k, gen] of scalar) if (maybe(0.15)) body[k] = maybe(0.1) ? null : gen();
  return body;
}

describe('fastChatCompletionRequest', () => {
  it('agrees with the zod schema on every request it accepts, and accepts the common ones', () => {
    const rand = seededRandom(7);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const body = generated(rand);
      const fast = fastChatCompletionRequest(body);
      if (fast === null) continue;
      accepted++;
      const slow = chatCompletionRequestSchema.safeParse(body);
      expect(slow.success, JSON.stringify(body)).toBe(true);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(slow.data));
      expect(fast).toStrictEqual(slow.data);
    }
    expect(accepted).toBeGreaterThan(500);
  });

  it('takes a typical SDK request and leaves tool requests to zod', () => {
    const body = {
      model: 'builtin',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi', name: 'ann' },
      ],
      max_tokens: 32,
      temperature: 0,
      stream: true,
      stream_options: { include_usage: true },
      logit_bias: { '151643': -100 },
    };
    expect(fastChatCompletionRequest(body)).toStrictEqual(chatCompletionRequestSchema.parse(body));
    expect(fastChatCompletionRequest({ ...body, tools: [] })).toBeNull();
    expect(fastChatCompletionRequest({ ...body, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] })).toBeNull();
  });
});
