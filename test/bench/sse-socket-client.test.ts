// The chat overhead bench's lean client reads stream payloads without JSON-parsing content chunks;
// it must classify them exactly as a full parse would (the takeSseData reader of the other clients).
import { describe, expect, it } from 'vitest';
import { scanChunkPayload } from '../../bench/chat/sse-socket-client.js';
import { takeSseData } from '../../src/bench/client.js';

const latin1 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

function chunkJson(delta: Record<string, unknown> | null, extra: Record<string, unknown> = {}): string {
  const choices = delta === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: null }];
  return JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices, ...extra });
}

describe('scanChunkPayload', () => {
  const payloads = [
    chunkJson({ role: 'assistant', content: '' }),
    chunkJson({ role: 'assistant', content: 'Hi' }),
    chunkJson({ content: '"quoted"' }),
    chunkJson({ content: '\n' }),
    chunkJson({ content: 'héllo — 海 🌊' }),
    chunkJson({ content: null }),
    chunkJson({ reasoning_content: 'thinking' }),
    chunkJson({ reasoning_content: '' }),
    chunkJson({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] }),
    chunkJson({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }),
    chunkJson({}, { usage: null }),
    chunkJson({ content: 'x' }, { usage: null }),
    chunkJson(null, { usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } }),
    chunkJson({}),
  ];

  it('agrees with a full JSON parse on output and usage', () => {
    for (const p of payloads) {
      const full = takeSseData(`data: ${p}\n\n`).data[0]!;
      if (full.done) throw new Error('unexpected [DONE]');
      const scanned = scanChunkPayload(latin1(p));
      expect(scanned.kind, p).toBe('chunk');
      if (scanned.kind !== 'chunk') continue;
      expect(scanned.hasOutput, p).toBe(full.hasOutput);
      expect(scanned.completionTokens, p).toBe(full.chunk.usage?.completion_tokens);
    }
  });

  it('reads [DONE] and error events, error text decoded as UTF-8', () => {
    expect(scanChunkPayload('[DONE]')).toEqual({ kind: 'done' });
    const err = JSON.stringify({ error: { message: 'überlastet', type: 'server_error', code: 'overloaded' } });
    expect(scanChunkPayload(latin1(err))).toEqual({ kind: 'error', message: 'überlastet' });
  });
});
