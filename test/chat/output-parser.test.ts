import { describe, expect, it } from 'vitest';
import { OutputParser, parseHermesToolCall, type OutputEvent } from '../../src/chat/output-parser.js';

function feed(p: OutputParser, pieces: string[]): OutputEvent[] {
  const out: OutputEvent[] = [];
  for (const s of pieces) out.push(...p.push(s));
  out.push(...p.finish());
  return out;
}

/** Merges consecutive events of the same text kind so assertions ignore chunking. */
function merged(evs: OutputEvent[]): OutputEvent[] {
  const out: OutputEvent[] = [];
  for (const e of evs) {
    const last = out[out.length - 1];
    if (last && e.type !== 'tool_call' && last.type === e.type) (last as { text: string }).text += (e as { text: string }).text;
    else out.push({ ...e });
  }
  return out;
}

describe('OutputParser', () => {
  it('passes plain text through when nothing is recognised', () => {
    const p = new OutputParser({ tools: false, thinking: false });
    expect(feed(p, ['Hello', ' <tool_call>x</tool_call> '])).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' <tool_call>x</tool_call> ' },
    ]);
  });

  it('parses a Hermes tool call split across tokens', () => {
    const p = new OutputParser({ tools: true, thinking: false });
    const evs = feed(p, ['Let me check.\n', '<tool', '_call>\n{"name": "get_weather", ', '"arguments": {"city": "Paris"}}\n</tool_', 'call>']);
    expect(merged(evs)).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_call', name: 'get_weather', arguments: '{"city":"Paris"}' },
    ]);
  });

  it('parses parallel tool calls and drops the whitespace between them', () => {
    const p = new OutputParser({ tools: true, thinking: false });
    const evs = feed(p, ['<tool_call>{"name":"a","arguments":{}}</tool_call>\n<tool_call>{"name":"b","arguments":{"x":1}}</tool_call>\n']);
    expect(evs).toEqual([
      { type: 'tool_call', name: 'a', arguments: '{}' },
      { type: 'tool_call', name: 'b', arguments: '{"x":1}' },
    ]);
  });

  it('returns a malformed tool call as text', () => {
    const p = new OutputParser({ tools: true, thinking: false });
    expect(merged(feed(p, ['<tool_call>{"name": oops}</tool_call>']))).toEqual([{ type: 'text', text: '<tool_call>{"name": oops}</tool_call>' }]);
  });

  it('accepts an unclosed tool call at the end of output when it parses', () => {
    const p = new OutputParser({ tools: true, thinking: false });
    expect(feed(p, ['<tool_call>\n{"name":"f","arguments":{"a":"b"}}\n'])).toEqual([{ type: 'tool_call', name: 'f', arguments: '{"a":"b"}' }]);
  });

  it('releases text as soon as it cannot start a marker', () => {
    const p = new OutputParser({ tools: true, thinking: true });
    expect(p.push('abc <')).toEqual([{ type: 'text', text: 'abc' }]);
    expect(p.push('b>')).toEqual([{ type: 'text', text: ' <b>' }]);
  });

  it('splits reasoning from the answer', () => {
    const p = new OutputParser({ tools: false, thinking: true });
    expect(merged(feed(p, ['<th', 'ink>step 1', ' step 2</thi', 'nk>\n\nAnswer.']))).toEqual([
      { type: 'thinking', text: 'step 1 step 2' },
      { type: 'text', text: 'Answer.' },
    ]);
  });

  it('starts in reasoning when the template opened <think>', () => {
    const p = new OutputParser({ tools: false, thinking: true, startInThinking: true });
    expect(p.inThinking).toBe(true);
    expect(merged(feed(p, ['hmm</think>ok']))).toEqual([
      { type: 'thinking', text: 'hmm' },
      { type: 'text', text: 'ok' },
    ]);
  });

  it('keeps trailing whitespace of a plain answer', () => {
    const p = new OutputParser({ tools: true, thinking: false });
    expect(merged(feed(p, ['line\n', '\n']))).toEqual([{ type: 'text', text: 'line\n\n' }]);
  });
});

describe('parseHermesToolCall', () => {
  it('accepts arguments given as a JSON string and "parameters"', () => {
    expect(parseHermesToolCall('{"name":"f","arguments":"{\\"a\\":1}"}')).toEqual({ name: 'f', arguments: '{"a":1}' });
    expect(parseHermesToolCall('{"name":"f","parameters":{"a":1}}')).toEqual({ name: 'f', arguments: '{"a":1}' });
    expect(parseHermesToolCall('{"name":"f"}')).toEqual({ name: 'f', arguments: '{}' });
  });
  it('rejects what is not a call', () => {
    expect(parseHermesToolCall('[1]')).toBeNull();
    expect(parseHermesToolCall('{"arguments":{}}')).toBeNull();
    expect(parseHermesToolCall('{"name":"f","arguments":[1]}')).toBeNull();
  });
});
