// Validation: a bad input file is accepted at create time (OpenAI validates asynchronously),
// then the batch ends `failed` with every problem in errors.data, one-based line numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFile } from 'openai';
import { applyBody, line, startBatchServer, uploadJsonl, waitTerminal, type BatchServer } from './harness.js';

let s: BatchServer;
beforeAll(async () => {
  s = await startBatchServer({ limits: { maxRequests: 20, maxLineBytes: 4096 } });
});
afterAll(async () => {
  await s?.close();
});

async function runFile(content: string) {
  const f = await s.client.files.create({ file: await toFile(Buffer.from(content), 'in.jsonl'), purpose: 'batch' });
  const b = await s.client.batches.create({ input_file_id: f.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
  expect(b.status).toBe('validating');
  return waitTerminal(s.client, b.id);
}

describe('batch validation', () => {
  it('lists each bad line with its code, param and one-based line number', async () => {
    const body = applyBody(1);
    const lines = [
      line('ok-1', body), // 1
      '{not json', // 2
      '', // 3: blank lines are skipped, but still count for numbering
      line('ok-1', body), // 4: duplicate custom_id
      JSON.stringify({ custom_id: 'u', method: 'POST', url: '/v1/embeddings', body }), // 5
      line('m', { ...body, model: 'svc-v3-large' }), // 6: model differs from line 1
      JSON.stringify({ custom_id: 'g', method: 'GET', url: '/v1/chat/completions', body }), // 7
      JSON.stringify({ custom_id: 'nb', method: 'POST', url: '/v1/chat/completions', body: { model: 'svc-v3-fast' } }), // 8
      JSON.stringify({ method: 'POST', url: '/v1/chat/completions', body }), // 9
    ];
    const done = await runFile(lines.join('\n'));
    expect(done.status).toBe('failed');
    expect(done.failed_at).toBeTypeOf('number');
    expect(done.in_progress_at).toBeNull();
    expect(done.output_file_id).toBeNull();
    expect(done.error_file_id).toBeNull();
    const got = done.errors!.data!.map((e) => [e.code, e.line, e.param]);
    expect(done.errors!.object).toBe('list');
    expect(got).toEqual(
      expect.arrayContaining([
        ['invalid_json_line', 2, null],
        ['duplicate_custom_id', 4, 'custom_id'],
        ['url_mismatch', 5, 'url'],
        ['model_mismatch', 6, 'body.model'],
        ['invalid_request', 7, 'method'],
        ['invalid_request', 8, 'body.messages'],
        ['invalid_request', 9, 'custom_id'],
      ]),
    );
    expect(got).toHaveLength(7);
    for (const e of done.errors!.data!) expect(e.message!.length).toBeGreaterThan(0);
  });

  it('fails a file with more requests than the limit with too_many_tasks', async () => {
    const lines = [];
    for (let i = 0; i < 21; i++) lines.push(line(`r${i}`, applyBody(i)));
    const done = await runFile(lines.join('\n'));
    expect(done.status).toBe('failed');
    expect(done.errors!.data!).toEqual([{ code: 'too_many_tasks', message: expect.stringContaining('20'), param: null, line: null }]);
  });

  it('fails an empty file with empty_file', async () => {
    const done = await runFile('\n\n');
    expect(done.status).toBe('failed');
    expect(done.errors!.data!).toEqual([{ code: 'empty_file', message: expect.any(String), param: null, line: null }]);
  });

  it('reports a line over the byte limit without reading it whole', async () => {
    const done = await runFile([line('a', applyBody(1)), 'x'.repeat(10_000)].join('\n'));
    expect(done.status).toBe('failed');
    expect(done.errors!.data!.map((e) => [e.code, e.line])).toEqual([['line_too_large', 2]]);
  });

  it('accepts CRLF line endings and a missing final newline', async () => {
    const done = await runFile([line('a', applyBody(1)), line('b', applyBody(2))].join('\r\n'));
    expect(done.errors).toBeNull();
    expect(done.request_counts!.total).toBe(2);
  });

  it('keeps a well-formed file at in_progress → completed (control)', async () => {
    const f = await uploadJsonl(s.client, [line('a', applyBody(3))]);
    const b = await s.client.batches.create({ input_file_id: f.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const done = await waitTerminal(s.client, b.id);
    expect(done.status).toBe('completed');
  });
});
