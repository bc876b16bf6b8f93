// Batch input validation in its worker thread gives exactly what the same validation on this
// thread gives, whatever the chunk boundaries (a line, a CRLF or a multi-byte character split
// across chunks), stops early when cancelled, and falls back to this thread when the worker fails.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateInput } from '../../src/batch/validate.js';
import { BatchSystem } from '../../src/batch/system.js';
import { closeMultipartPool } from '../../src/http/multipart-pool.js';
import { closeValidationWorker, spareValidationWorkerId, VALIDATE_WORKER_FILE, validatesOffThread } from '../../src/batch/input-worker.js';
import { validateInputOffLoop } from '../../src/batch/validate-offload.js';

const limits = { maxRequests: 50, maxLineBytes: 300, maxListedErrors: 100 };
const body = { model: 'm', messages: [{ role: 'user', content: 'héllo – 世界' }] };
const line = (id: string, b: object = body): string => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: b });

const FILE = Buffer.from(
  '\uFEFF' +
    [
      line('a'),
      '{not json',
      '',
      line('a'), // duplicate
      line('b', { ...body, model: 'other' }), // model mismatch
      line('c', { ...body, messages: [{ role: 'user', content: 'x'.repeat(400) }] }), // too long
      line('d'),
    ].join('\r\n') +
    '\n' +
    line('e'), // no final newline
);

function chunked(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(Buffer.from(bytes.subarray(i, i + size)));
  return out;
}

describe('batch validation off the event loop', () => {
  it.skipIf(!existsSync(VALIDATE_WORKER_FILE))('a started batch system has the worker ready; closing it ends the worker', async () => {
    await closeValidationWorker();
    const dir = mkdtempSync(join(tmpdir(), 'svc-validate-prestart-'));
    const sys = new BatchSystem({ dataDir: dir, executor: () => Promise.reject(new Error('no executor here')) });
    try {
      expect(spareValidationWorkerId()).toBeNull();
      await sys.start();
      expect(spareValidationWorkerId()).not.toBeNull();
    } finally {
      await sys.close();
      await closeMultipartPool();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(spareValidationWorkerId()).toBeNull();
  });

  it.skipIf(!existsSync(VALIDATE_WORKER_FILE))('keeps its worker for the next validation, which starts afresh', async () => {
    await closeValidationWorker();
    const expected = await validateInput([FILE], limits, () => Promise.resolve());
    expect(await validateInputOffLoop(() => chunked(FILE, 100), limits)).toEqual(expected);
    const kept = spareValidationWorkerId();
    expect(kept).not.toBeNull();
    // Same thread, no state carried over (duplicates are per file), other limits honoured.
    expect(await validateInputOffLoop(() => chunked(FILE, 37), limits)).toEqual(expected);
    expect(spareValidationWorkerId()).toBe(kept);
    const tight = { ...limits, maxRequests: 2 };
    expect(await validateInputOffLoop(() => chunked(FILE, 64), tight)).toEqual(await validateInput([FILE], tight, () => Promise.resolve()));
    expect(spareValidationWorkerId()).toBe(kept);
    // A cancelled validation's worker is not kept.
    expect(await validateInputOffLoop(() => chunked(FILE, 16), limits, { cancelled: () => true })).toBeNull();
    expect(spareValidationWorkerId()).toBeNull();
    await closeValidationWorker();
  });

  it.skipIf(!existsSync(VALIDATE_WORKER_FILE))('runs in the worker and agrees with the inline validation at any chunk size', async () => {
    expect(validatesOffThread()).toBe(true);
    const expected = await validateInput([FILE], limits, () => Promise.resolve());
    expect(expected.total).toBe(7);
    expect(expected.model).toBe('m');
    expect(expected.errors.map((e) => [e.code, e.line])).toEqual([
      ['invalid_json_line', 2],
      ['duplicate_custom_id', 4],
      ['model_mismatch', 5],
      ['line_too_large', 6],
    ]);
    for (const size of [1, 7, 64, 1 << 20]) {
      expect(await validateInputOffLoop(() => chunked(FILE, size), limits)).toEqual(expected);
    }
  });

  it.skipIf(!existsSync(VALIDATE_WORKER_FILE))('validates here when the worker fails, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-validate-'));
    const broken = join(dir, 'broken-worker.mjs');
    writeFileSync(broken, "throw new Error('worker broke while loading');\n");
    try {
      const failures: string[] = [];
      const expected = await validateInput([FILE], limits, () => Promise.resolve());
      const got = await validateInputOffLoop(() => chunked(FILE, 64), limits, { workerFile: broken, onWorkerFailure: (e) => failures.push(e.message) });
      expect(got).toEqual(expected);
      expect(failures).toEqual([expect.stringContaining('worker broke while loading')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!existsSync(VALIDATE_WORKER_FILE))('stops when cancelled, and with many chunks keeps only a few in flight', async () => {
    let read = 0;
    let cancel = false;
    function* source(): Generator<Buffer> {
      for (let i = 0; i < 1000; i++) {
        read++;
        if (i === 20) cancel = true;
        yield Buffer.from(line(`id-${i}`) + '\n');
      }
    }
    expect(await validateInputOffLoop(source, limits, { cancelled: () => cancel })).toBeNull();
    expect(read).toBeLessThan(30);
  });
});
