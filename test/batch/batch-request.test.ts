// POST /v1/batches bodies through the same zod path as chat: each bad field is a 400 naming it.
import { describe, expect, it } from 'vitest';
import { createBatchRequestSchema } from '../../src/batch/batch-request.js';
import { parseBody } from '../../src/chat/validate.js';

const base = { input_file_id: 'file_1', endpoint: '/v1/chat/completions', completion_window: '24h' };

function paramOf(body: unknown): string | null {
  try {
    parseBody(createBatchRequestSchema, body);
    return 'accepted';
  } catch (e) {
    expect((e as { status: number }).status).toBe(400);
    return (e as { param: string | null }).param;
  }
}

describe('batch create request', () => {
  it('accepts a valid body, metadata absent, null or within the limits', () => {
    expect(parseBody(createBatchRequestSchema, base).metadata).toBeNull();
    expect(parseBody(createBatchRequestSchema, { ...base, metadata: null }).metadata).toBeNull();
    expect(parseBody(createBatchRequestSchema, { ...base, metadata: { team: 'x'.repeat(512) } }).metadata).toEqual({ team: 'x'.repeat(512) });
  });

  it.each([
    [{ ...base, input_file_id: undefined }, 'input_file_id'],
    [{ ...base, input_file_id: '' }, 'input_file_id'],
    [{ ...base, endpoint: '/v1/embeddings' }, 'endpoint'],
    [{ ...base, completion_window: '1h' }, 'completion_window'],
    [{ ...base, metadata: [1] }, 'metadata'],
    [{ ...base, metadata: { a: 1 } }, 'metadata.a'],
    [{ ...base, metadata: { a: 'x'.repeat(513) } }, 'metadata.a'],
    [{ ...base, metadata: { ['k'.repeat(65)]: 'v' } }, 'metadata'],
    [{ ...base, metadata: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, 'v'])) }, 'metadata'],
    [[base], null],
  ])('refuses %j naming %s', (body, param) => {
    expect(paramOf(body)).toBe(param);
  });
});
