// Files and Batches end to end through the official openai client: upload, create, poll to
// completed, download output and error files, list with pagination, delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFile } from 'openai';
import { applyBody, badApplyBody, line, readJsonl, startBatchServer, uploadJsonl, waitTerminal, type BatchServer } from './harness.js';

let s: BatchServer;
beforeAll(async () => {
  s = await startBatchServer({ chunkSize: 4096, limits: { concurrency: 4 } });
});
afterAll(async () => {
  await s?.close();
});

const BATCH_FIELDS = [
  'id', 'object', 'endpoint', 'input_file_id', 'completion_window', 'metadata', 'created_at', 'status', 'model',
  'output_file_id', 'error_file_id', 'in_progress_at', 'finalizing_at', 'completed_at', 'failed_at', 'expired_at',
  'expires_at', 'cancelling_at', 'cancelled_at', 'request_counts', 'errors', 'usage',
];

describe('files', () => {
  it('uploads in chunks, retrieves, downloads byte-exact, lists with pagination, deletes', async () => {
    // 3 MB of non-ASCII text spans many 4 KiB chunks and the body reader's pauses
    const content = Buffer.from('héllo wörld ✓ '.repeat(200_000));
    const f = await s.client.files.create({ file: await toFile(content, 'notes.txt'), purpose: 'user_data' });
    expect(f).toMatchObject({ object: 'file', bytes: content.length, filename: 'notes.txt', purpose: 'user_data', status: 'processed' });
    expect(f.id).toMatch(/^file_/);
    expect(Math.abs(f.created_at - Date.now() / 1000)).toBeLessThan(60);
    expect(await s.client.files.retrieve(f.id)).toEqual(f);
    const got = Buffer.from(await (await s.client.files.content(f.id)).arrayBuffer());
    expect(got.equals(content)).toBe(true);
    const head = await fetch(`${s.url}/v1/files/${f.id}/content`, { method: 'HEAD', headers: { authorization: `Bearer ${s.client.apiKey}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(content.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);

    const more = [];
    for (let i = 0; i < 3; i++) more.push(await s.client.files.create({ file: await toFile(Buffer.from(`f${i}`), `f${i}.txt`), purpose: 'assistants' }));
    // newest first by default; pages of 2 via `after`
    const page1 = await s.client.files.list({ purpose: 'assistants', limit: 2 });
    expect(page1.data.map((x) => x.id)).toEqual([more[2]!.id, more[1]!.id]);
    expect(page1.has_more).toBe(true);
    const all = [];
    for await (const x of s.client.files.list({ purpose: 'assistants', limit: 2 })) all.push(x.id);
    expect(all).toEqual([more[2]!.id, more[1]!.id, more[0]!.id]);
    const asc = await s.client.files.list({ purpose: 'assistants', order: 'asc' });
    expect(asc.data.map((x) => x.id)).toEqual(more.map((x) => x.id));

    expect(await s.client.files.delete(more[0]!.id)).toEqual({ id: more[0]!.id, object: 'file', deleted: true });
    await expect(s.client.files.retrieve(more[0]!.id)).rejects.toMatchObject({ status: 404 });
    await expect(s.client.files.content(more[0]!.id)).rejects.toMatchObject({ status: 404 });
    await expect(s.client.files.delete(more[0]!.id)).rejects.toMatchObject({ status: 404 });
  });

  it('shortens a very long filename but keeps its extension', async () => {
    const f = await s.client.files.create({ file: await toFile(Buffer.from('{}\n'), `${'n'.repeat(3000)}.jsonl`), purpose: 'batch' });
    expect(f.filename).toHaveLength(255);
    expect(f.filename.endsWith('n.jsonl')).toBe(true);
  });

  it('rejects bad uploads with 400 in the OpenAI envelope', async () => {
    await expect(s.client.files.create({ file: await toFile(Buffer.from('x'), 'x.txt'), purpose: 'nope' as 'batch' })).rejects.toMatchObject({
      status: 400,
      error: { code: 'invalid_request_error', param: 'purpose' },
    });
    await expect(s.client.files.create({ file: await toFile(Buffer.from('{}'), 'x.json'), purpose: 'batch' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Must be .jsonl'),
    });
    const res = await fetch(`${s.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${s.client.apiKey}`, 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
    // a multipart body cut before its closing boundary
    const boundary = 'xyz';
    const cut = `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n{}\n`;
    const res2 = await fetch(`${s.url}/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${s.client.apiKey}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: cut });
    expect(res2.status).toBe(400);
    // nothing half-written became visible
    const listed = await s.client.files.list({ purpose: 'batch' });
    expect(listed.data.filter((f) => f.filename === 'a.jsonl')).toEqual([]);
  });
});

describe('upload size limit', () => {
  it('answers 413 past the file limit, by Content-Length or while streaming, and keeps nothing', async () => {
    const small = await startBatchServer({ maxFileBytes: 64 * 1024, chunkSize: 4096 });
    try {
      // over the route's body limit: refused from Content-Length before the body is read
      await expect(small.client.files.create({ file: await toFile(Buffer.alloc(300 * 1024, 0x61), 'big.txt'), purpose: 'user_data' })).rejects.toMatchObject({
        status: 413,
      });
      // under the body limit (which allows for multipart framing) but over the file limit: refused mid-stream
      await expect(small.client.files.create({ file: await toFile(Buffer.alloc(100 * 1024, 0x61), 'mid.txt'), purpose: 'user_data' })).rejects.toMatchObject({
        status: 413,
      });
      const ok = await small.client.files.create({ file: await toFile(Buffer.alloc(64 * 1024, 0x61), 'fits.txt'), purpose: 'user_data' });
      expect(ok.bytes).toBe(64 * 1024);
      expect((await small.client.files.list()).data.map((f) => f.filename)).toEqual(['fits.txt']);
    } finally {
      await small.close();
    }
  });

  it('does not bind the batch output file: results larger than the upload limit are all kept', async () => {
    const small = await startBatchServer({ maxFileBytes: 4 * 1024, chunkSize: 1024 });
    try {
      const n = 12;
      const input = await uploadJsonl(small.client, Array.from({ length: n }, (_, i) => line(`r-${i}`, applyBody(i))));
      expect(input.bytes).toBeLessThanOrEqual(4 * 1024);
      const created = await small.client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
      const done = await waitTerminal(small.client, created.id);
      expect(done.status).toBe('completed');
      const out = await readJsonl(small.client, done.output_file_id);
      expect(out.map((o) => o.custom_id).sort()).toEqual(Array.from({ length: n }, (_, i) => `r-${i}`).sort());
      expect((await small.client.files.retrieve(done.output_file_id!)).bytes).toBeGreaterThan(4 * 1024);
    } finally {
      await small.close();
    }
  });
});

describe('batches', () => {
  it('runs a batch to completed with output and error files in the OpenAI line formats', async () => {
    const n = 40;
    const lines = [];
    for (let i = 0; i < n; i++) lines.push(line(`req-${i}`, i % 8 === 7 ? badApplyBody() : applyBody(i)));
    const input = await uploadJsonl(s.client, lines);
    const created = await s.client.batches.create({
      input_file_id: input.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: { team: 'edits' },
    });
    expect(Object.keys(created).sort()).toEqual([...BATCH_FIELDS].sort());
    expect(created).toMatchObject({
      object: 'batch',
      status: 'validating',
      input_file_id: input.id,
      metadata: { team: 'edits' },
      output_file_id: null,
      error_file_id: null,
      in_progress_at: null,
      completed_at: null,
      errors: null,
      usage: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
    });
    expect(created.id).toMatch(/^batch_/);
    expect(created.expires_at).toBe(created.created_at + 86400);

    const done = await waitTerminal(s.client, created.id);
    expect(done.status).toBe('completed');
    expect(done.model).toBe('svc-v3-fast');
    const bad = lines.filter((_, i) => i % 8 === 7).length;
    expect(done.request_counts).toEqual({ total: n, completed: n - bad, failed: bad });
    for (const k of ['in_progress_at', 'finalizing_at', 'completed_at'] as const) expect(done[k]).toBeTypeOf('number');
    expect(done.in_progress_at!).toBeLessThanOrEqual(done.finalizing_at!);
    expect(done.finalizing_at!).toBeLessThanOrEqual(done.completed_at!);

    const out = await readJsonl(s.client, done.output_file_id);
    const err = await readJsonl(s.client, done.error_file_id);
    expect(out).toHaveLength(n - bad);
    expect(err).toHaveLength(bad);
    let inputTokens = 0;
    let outputTokens = 0;
    for (const o of out) {
      expect(o.id).toMatch(/^batch_req_/);
      expect(o.error).toBeNull();
      expect(o.response!.status_code).toBe(200);
      expect(o.response!.request_id).toBeTypeOf('string');
      expect(o.response!.body.object).toBe('chat.completion');
      const i = Number(o.custom_id.slice(4));
      // the merge really ran: the updated function body is in the merged code
      expect(o.response!.body.choices[0].message.content).toContain(`return ${i + 1};`);
      inputTokens += o.response!.body.usage.prompt_tokens;
      outputTokens += o.response!.body.usage.completion_tokens;
    }
    for (const e of err) {
      expect(e.error).toBeNull();
      expect(e.response!.status_code).toBeGreaterThanOrEqual(400);
      expect(e.response!.body.error.message).toBeTypeOf('string');
    }
    expect(done.usage).toMatchObject({ input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens });
    expect(done.usage!.input_tokens_details.cached_tokens).toBeTypeOf('number');
    expect(done.usage!.output_tokens_details.reasoning_tokens).toBeTypeOf('number');
    expect(new Set([...out, ...err].map((l) => l.custom_id)).size).toBe(n);

    const outFile = await s.client.files.retrieve(done.output_file_id!);
    expect(outFile.purpose).toBe('batch_output');
    // the input of a finished batch can be deleted
    await s.client.files.delete(input.id);
  });

  it('leaves error_file_id null when every request succeeded', async () => {
    const input = await uploadJsonl(s.client, [line('a', applyBody(1)), line('b', applyBody(2))]);
    const b = await s.client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const done = await waitTerminal(s.client, b.id);
    expect(done).toMatchObject({ status: 'completed', error_file_id: null, metadata: null, request_counts: { total: 2, completed: 2, failed: 0 } });
    expect(done.output_file_id).toMatch(/^file_/);
  });

  it('lists batches newest first with after / limit / has_more', async () => {
    const input = await uploadJsonl(s.client, [line('a', applyBody(1))]);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await s.client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' })).id);
    }
    const first = await s.client.batches.list({ limit: 2 });
    expect(first.data.map((b) => b.id)).toEqual([ids[4], ids[3]]);
    expect(first.has_more).toBe(true);
    const raw = await (await fetch(`${s.url}/v1/batches?limit=2&after=${ids[3]}`, { headers: { authorization: `Bearer ${s.client.apiKey}` } })).json();
    expect(raw).toMatchObject({ object: 'list', first_id: ids[2], last_id: ids[1], has_more: true });
    const seen: string[] = [];
    for await (const b of s.client.batches.list({ limit: 2 })) seen.push(b.id);
    expect(seen.slice(0, 5)).toEqual([...ids].reverse());
    await expect(s.client.batches.list({ limit: 101 })).rejects.toMatchObject({ status: 400 });
    await expect(s.client.batches.retrieve('batch_nope')).rejects.toMatchObject({ status: 404, error: { code: 'not_found' } });
    // an empty cursor is the first page, not a cursor before every id
    const empty = await (await fetch(`${s.url}/v1/batches?limit=2&after=`, { headers: { authorization: `Bearer ${s.client.apiKey}` } })).json();
    expect(empty).toMatchObject({ first_id: ids[4], last_id: ids[3], has_more: true });
    for (const id of ids) await waitTerminal(s.client, id);
  });

  it('answers ids too long to be ours with 404 (400 for a cursor or an input file), not 500', async () => {
    const long = 'a'.repeat(5000);
    await expect(s.client.files.retrieve(`file_${long}`)).rejects.toMatchObject({ status: 404, error: { code: 'not_found' } });
    await expect(s.client.files.content(`file_${long}`)).rejects.toMatchObject({ status: 404 });
    await expect(s.client.files.delete(`file_${long}`)).rejects.toMatchObject({ status: 404 });
    await expect(s.client.batches.retrieve(`batch_${long}`)).rejects.toMatchObject({ status: 404, error: { code: 'not_found' } });
    await expect(s.client.batches.cancel(`batch_${long}`)).rejects.toMatchObject({ status: 404 });
    await expect(s.client.batches.list({ after: `batch_${long}` })).rejects.toMatchObject({ status: 400, error: { param: 'after' } });
    await expect(s.client.files.list({ after: `file_${long}` })).rejects.toMatchObject({ status: 400, error: { param: 'after' } });
    await expect(
      s.client.batches.create({ input_file_id: `file_${long}`, endpoint: '/v1/chat/completions', completion_window: '24h' }),
    ).rejects.toMatchObject({ status: 400, error: { param: 'input_file_id' } });
  });

  it('refuses invalid create parameters with 400 and the offending param', async () => {
    const input = await uploadJsonl(s.client, [line('a', applyBody(1))]);
    const base = { input_file_id: input.id, endpoint: '/v1/chat/completions' as const, completion_window: '24h' as const };
    await expect(s.client.batches.create({ ...base, endpoint: '/v1/embeddings' })).rejects.toMatchObject({ status: 400, error: { param: 'endpoint' } });
    await expect(s.client.batches.create({ ...base, completion_window: '48h' as '24h' })).rejects.toMatchObject({ status: 400, error: { param: 'completion_window' } });
    await expect(s.client.batches.create({ ...base, input_file_id: 'file_missing' })).rejects.toMatchObject({ status: 400, error: { param: 'input_file_id' } });
    const meta: Record<string, string> = {};
    for (let i = 0; i < 17; i++) meta[`k${i}`] = 'v';
    await expect(s.client.batches.create({ ...base, metadata: meta })).rejects.toMatchObject({ status: 400, error: { param: 'metadata' } });
    const notBatch = await s.client.files.create({ file: await toFile(Buffer.from('{}\n'), 'x.jsonl'), purpose: 'user_data' });
    await expect(s.client.batches.create({ ...base, input_file_id: notBatch.id })).rejects.toMatchObject({ status: 400 });
  });
});
