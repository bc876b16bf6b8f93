// Long input lines (past OFFLOAD_LINE_BYTES) are decoded and parsed in the batch line worker, at
// dispatch and for the error file of requests that never ran: the same request as parsing here,
// and the batch's results are those of short lines.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeLinePool, LINE_WORKER_FILE, OFFLOAD_LINE_BYTES, parseRawLine } from '../../src/batch/line-pool.js';
import { applyBody, Gate, line, readJsonl, realExecutor, startBatchServer, uploadJsonl, waitFor, waitTerminal, type BatchServer } from './harness.js';

/** An apply request whose code is over the offload size: many small functions and the one the update changes. */
function longApplyBody(i: number): Record<string, unknown> {
  const filler: string[] = [];
  for (let k = 0; filler.join('\n').length < OFFLOAD_LINE_BYTES + 4096; k++) filler.push(`function keep${k}() {\n  return ${k};\n}\n`);
  const code = `${filler.join('\n')}\nfunction f${i}() {\n  return ${i};\n}\n`;
  const update = `// ... existing code ...\nfunction f${i}() {\n  return ${i + 1};\n}\n`;
  return { model: 'svc-v3-fast', messages: [{ role: 'user', content: `<code>${code}</code>\n<update>${update}</update>` }] };
}

const worker = existsSync(LINE_WORKER_FILE);

describe('a long input line, parsed in the worker', () => {
  afterAll(() => closeLinePool());

  it.skipIf(!worker)('gives what parsing here gives: valid, blank, invalid, CRLF, a BOM on line 1', async () => {
    const long = line('long-1', longApplyBody(1));
    const texts = [long, `\uFEFF${long}\r`, ' '.repeat(OFFLOAD_LINE_BYTES + 10), `{${long}`];
    for (const [k, text] of texts.entries()) {
      const bytes = Buffer.from(text);
      expect(bytes.length).toBeGreaterThanOrEqual(OFFLOAD_LINE_BYTES);
      const inWorker = parseRawLine({ line: 1, bytes: Buffer.from(bytes) });
      expect(inWorker).toBeInstanceOf(Promise);
      // A short copy of the same content is parsed here; its result is the reference.
      const here = JSON.parse(JSON.stringify(await inWorker));
      expect(here.ok).toBe(k < 2);
      if (k < 2) expect(here.value).toEqual({ line: 1, customId: 'long-1', body: longApplyBody(1) });
      if (k === 2) expect(here).toEqual({ ok: false, blank: true });
      if (k === 3) expect(here.error.code).toBe('invalid_json_line');
    }
  });

  it.skipIf(!worker)('leaves the chunk a line is a view of intact (the bytes are copied, not moved)', async () => {
    const chunk = Buffer.from(`${line('long-2', longApplyBody(2))}\n{"tail":1}`);
    const view = chunk.subarray(0, chunk.indexOf(0x0a));
    const r = await parseRawLine({ line: 3, bytes: view });
    expect(r).toMatchObject({ ok: true, value: { line: 3, customId: 'long-2' } });
    expect(chunk.buffer.byteLength).toBeGreaterThan(0);
    expect(chunk.subarray(chunk.indexOf(0x0a) + 1).toString()).toBe('{"tail":1}');
  });
});

describe('a batch with long lines', () => {
  const gate = new Gate();
  let s: BatchServer;
  beforeAll(async () => {
    s = await startBatchServer({ executor: gate.wrap(realExecutor()), limits: { concurrency: 1, maxActiveBatches: 1 } });
  });
  afterAll(async () => {
    gate.release();
    await s?.close();
  });
  beforeEach(() => gate.release());

  it('runs long and short lines alike; the merge sees the whole request', async () => {
    const input = await uploadJsonl(s.client, [line('long-a', longApplyBody(3)), line('short', applyBody(4)), '', line('long-b', longApplyBody(5))]);
    const b = await s.client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    const done = await waitTerminal(s.client, b.id, 60_000);
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 3, failed: 0 } });
    const out = await readJsonl(s.client, done.output_file_id);
    expect(out.map((o) => o.custom_id).sort()).toEqual(['long-a', 'long-b', 'short']);
    for (const o of out) {
      const content: string = o.response!.body.choices[0].message.content;
      const i = o.custom_id === 'long-a' ? 3 : o.custom_id === 'short' ? 4 : 5;
      expect(content).toContain(`return ${i + 1};`);
      if (o.custom_id !== 'short') expect(content).toContain('function keep0() {');
    }
  });

  it('writes long lines that never ran to the error file with their custom ids', async () => {
    gate.hold();
    const input = await uploadJsonl(s.client, [line('held', applyBody(6)), line('never-1', longApplyBody(7)), line('never-2', longApplyBody(8))]);
    const b = await s.client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await waitFor(async () => gate.waiting, (w) => w === 1);
    await s.client.batches.cancel(b.id);
    gate.release();
    const done = await waitTerminal(s.client, b.id, 60_000);
    expect(done).toMatchObject({ status: 'cancelled', request_counts: { total: 3, completed: 1, failed: 2 } });
    const err = await readJsonl(s.client, done.error_file_id);
    expect(err.map((e) => [e.custom_id, e.error?.code])).toEqual([
      ['never-1', 'batch_cancelled'],
      ['never-2', 'batch_cancelled'],
    ]);
  });
});
