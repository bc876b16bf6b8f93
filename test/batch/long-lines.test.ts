// Reading a validated file's requests back (request-reader.ts): in the input worker, the same
// requests in the same order as on this thread, whatever the chunk boundaries, with long lines
// (spanning several chunks) among short ones; bodies left out when asked; read here when the worker
// fails. End to end: a batch of long and short lines runs,
// and long lines that never ran reach the error file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readRequests } from '../../src/batch/request-reader.js';
import type { ReadOptions, ReadRequest } from '../../src/batch/read-requests.js';
import { closeValidationWorker, VALIDATE_WORKER_FILE } from '../../src/batch/input-worker.js';
import { applyBody, Gate, line, readJsonl, realExecutor, startBatchServer, uploadJsonl, waitFor, waitTerminal, type BatchServer } from './harness.js';

/** Long lines: several chunks each at the chunk sizes below (the store's are 256 KiB, its lines up to 8 MiB). */
const LONG = 40 * 1024;

/** An apply request whose code is over `size` characters: many small functions and the one the update changes. */
function longApplyBody(i: number, size = LONG): Record<string, unknown> {
  const filler: string[] = [];
  for (let k = 0; filler.join('\n').length < size; k++) filler.push(`function keep${k}() {\n  return ${k};\n}\n`);
  const code = `${filler.join('\n')}\nfunction f${i}() {\n  return ${i};\n}\n`;
  const update = `// ... existing code ...\nfunction f${i}() {\n  return ${i + 1};\n}\n`;
  return { model: 'svc-v3-fast', messages: [{ role: 'user', content: `<code>${code}</code>\n<update>${update}</update>` }] };
}

const FILE = Buffer.from(
  '\uFEFF' + [line('a', applyBody(1)), '', line('long-1', longApplyBody(2)), '   ', line('é-世界', applyBody(3)), line('long-2', longApplyBody(4))].join('\r\n') + '\n' + line('last', applyBody(5)),
);

function chunked(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(Buffer.from(bytes.subarray(i, i + size)));
  return out;
}

async function readAll(chunks: () => Buffer[], o: ReadOptions, onWorkerFailure?: (e: Error) => void, workerFile?: string): Promise<ReadRequest[]> {
  const out: ReadRequest[] = [];
  for await (const r of readRequests(chunks, o, onWorkerFailure, workerFile)) out.push(r);
  return out;
}

const worker = existsSync(VALIDATE_WORKER_FILE);
const opts: ReadOptions = { maxLineBytes: 8 << 20, bodies: true };

describe("reading a file's requests back", () => {
  afterAll(() => closeValidationWorker());

  it.skipIf(!worker)('gives in the worker what this thread gives, at any chunk size', async () => {
    process.env.SVC_BATCH_VALIDATE_INLINE = '1';
    const here = await readAll(() => [FILE], opts);
    delete process.env.SVC_BATCH_VALIDATE_INLINE;
    expect(here.map((r) => [r.line, r.customId])).toEqual([
      [1, 'a'],
      [3, 'long-1'],
      [5, 'é-世界'],
      [6, 'long-2'],
      [7, 'last'],
    ]);
    expect(here[1]!.body).toEqual(longApplyBody(2));
    for (const size of [1000, 16 * 1024, 1 << 20]) expect(await readAll(() => chunked(FILE, size), opts)).toEqual(here);
    const ids = await readAll(() => chunked(FILE, 16 * 1024), { ...opts, bodies: false });
    expect(ids).toEqual(here.map((r) => ({ ...r, body: null })));
  });

  it.skipIf(!worker)('stops reading when the caller stops, with only a few chunks ahead', async () => {
    let read = 0;
    function* source(): Generator<Buffer> {
      for (let i = 0; i < 1000; i++) {
        read++;
        yield Buffer.from(line(`id-${i}`, applyBody(i)) + '\n');
      }
    }
    const got: string[] = [];
    for await (const r of readRequests(source, opts)) {
      got.push(r.customId);
      if (got.length === 3) break;
    }
    expect(got).toEqual(['id-0', 'id-1', 'id-2']);
    expect(read).toBeLessThan(12);
  });

  it.skipIf(!worker)('reads here when the worker fails, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-read-'));
    const broken = join(dir, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('worker broke while loading');\n");
    try {
      const failures: string[] = [];
      const got = await readAll(() => chunked(FILE, 4096), opts, (e) => failures.push(e.message), broken);
      expect(got.map((r) => r.customId)).toEqual(['a', 'long-1', 'é-世界', 'long-2', 'last']);
      expect(failures).toEqual([expect.stringContaining('worker broke while loading')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a batch with long lines', () => {
  const gate = new Gate();
  let s: BatchServer;
  beforeAll(async () => {
    // 4 KiB chunks: a 40 KiB line spans several, as a long line spans the store's 256 KiB ones.
    s = await startBatchServer({ executor: gate.wrap(realExecutor()), chunkSize: 4096, limits: { concurrency: 1, maxActiveBatches: 1 } });
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
