// A stored input file (real LMDB in a temp dir) read by the input worker itself (it opens the store
// read-only and reads the chunks; the loop posts only the file's reference) gives what reading it on
// this thread gives: the validation outcome, the requests read back, a line over the size limit, and
// the error of a file deleted or a store closed while it is read.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeValidationWorker, VALIDATE_WORKER_FILE } from '../../src/batch/input-worker.js';
import type { ReadOptions } from '../../src/batch/read-requests.js';
import { readRequests } from '../../src/batch/request-reader.js';
import { validateInputOffLoop } from '../../src/batch/validate-offload.js';
import { FileStore } from '../../src/store/files.js';
import type { FileRecord } from '../../src/store/records.js';
import { openStore, type Store } from '../../src/store/store.js';

const limits = { maxRequests: 1000, maxLineBytes: 300, maxListedErrors: 100 };
const readOpts: ReadOptions = { maxLineBytes: 300, bodies: true };
const body = { model: 'm', messages: [{ role: 'user', content: 'héllo – 世界' }] };
const line = (id: string, b: object = body): string => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: b });
const validLines = (n: number): string[] => Array.from({ length: n }, (_, i) => line(`r${i}`));
const tooLong = line('long', { ...body, messages: [{ role: 'user', content: 'x'.repeat(400) }] });

let dir: string;
let store: Store;
let files: FileStore;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-readback-'));
  store = openStore(dir);
  // Small chunks: lines and multi-byte characters cross chunk boundaries, and a file has many.
  files = new FileStore(store, { chunkSize: 61, maxFileBytes: 1 << 24, chunksPerCommit: 8, nowSeconds: () => 1 });
});

afterEach(async () => {
  delete process.env.SVC_BATCH_VALIDATE_INLINE;
  await store.close();
  await closeValidationWorker();
  rmSync(dir, { recursive: true, force: true });
});

async function upload(lines: string[]): Promise<FileRecord> {
  const w = await files.beginUpload('input.jsonl');
  await w.write(Buffer.from(lines.join('\n') + '\n'));
  const obj = await w.finish('batch');
  return files.record(obj.id)!;
}

/** Runs `f` with the worker (default) or on this thread (SVC_BATCH_VALIDATE_INLINE=1). */
async function mode<T>(inline: boolean, f: () => Promise<T>): Promise<T> {
  if (inline) process.env.SVC_BATCH_VALIDATE_INLINE = '1';
  else delete process.env.SVC_BATCH_VALIDATE_INLINE;
  try {
    return await f();
  } finally {
    delete process.env.SVC_BATCH_VALIDATE_INLINE;
  }
}

async function readAll(rec: FileRecord, o: ReadOptions, during?: (n: number) => Promise<void>): Promise<{ lines: number[]; ids: string[]; error?: string }> {
  const lines: number[] = [];
  const ids: string[] = [];
  try {
    for await (const r of readRequests(files.content(rec), o, (err) => {
      throw new Error(`worker failed: ${err.message}`);
    })) {
      lines.push(r.line);
      ids.push(r.customId);
      await during?.(lines.length);
    }
    return { lines, ids };
  } catch (err) {
    return { lines, ids, error: (err as Error).message };
  }
}

describe.skipIf(!existsSync(VALIDATE_WORKER_FILE))('a stored input file read by the input worker', () => {
  it('validates as on this thread, including a line over the size limit and bad lines', async () => {
    const rec = await upload([...validLines(40), tooLong, '{not json', line('r3'), ...validLines(5).map((l) => l.replace('"r', '"s'))]);
    expect(rec.chunkCount).toBeGreaterThan(20);
    const failures: Error[] = [];
    const inWorker = await mode(false, () => validateInputOffLoop(files.content(rec), limits, { onWorkerFailure: (e) => failures.push(e) }));
    const here = await mode(true, () => validateInputOffLoop(files.content(rec), limits));
    expect(failures).toEqual([]);
    expect(inWorker).toEqual(here);
    expect(JSON.stringify(inWorker)).toContain('long');
  });

  it('reads the requests back as on this thread', async () => {
    const rec = await upload(validLines(120));
    const inWorker = await mode(false, () => readAll(rec, readOpts));
    const here = await mode(true, () => readAll(rec, readOpts));
    expect(inWorker.error).toBeUndefined();
    expect(inWorker).toEqual(here);
    expect(inWorker.ids).toHaveLength(120);
  });

  it('a line over the size limit read back gives what it gives on this thread', async () => {
    const rec = await upload([...validLines(10), tooLong, ...validLines(3)]);
    const inWorker = await mode(false, () => readAll(rec, readOpts));
    const here = await mode(true, () => readAll(rec, readOpts));
    expect(inWorker).toEqual(here);
  });

  it('a file deleted while read back fails with the missing-chunk error, as on this thread', async () => {
    const results = [];
    for (const inline of [false, true]) {
      const rec = await upload(validLines(200));
      const r = await mode(inline, () => readAll(rec, readOpts, async (n) => (n === 2 ? void (await files.remove(rec.id)) : undefined)));
      expect(r.error).toMatch(new RegExp(`^file ${rec.id}: chunk \\d+ of ${rec.chunkCount} missing$`));
      results.push(r.ids.length);
    }
    // Either read stops a few chunks after the deletion (the worker reads at most IN_FLIGHT ahead).
    for (const n of results) expect(n).toBeLessThan(60);
  });

  it('a file deleted before it is validated fails with the missing-chunk error, as on this thread', async () => {
    // (Deleted mid-read: the read-back test above; validation on this thread has no hook mid-read.)
    for (const inline of [false, true]) {
      const rec = await upload(validLines(300));
      await files.remove(rec.id);
      const err = await mode(inline, () => validateInputOffLoop(files.content(rec), limits).then(() => null, (e: Error) => e));
      expect(err?.message).toBe(`file ${rec.id}: chunk 0 of ${rec.chunkCount} missing`);
    }
  });

  it('a store closed while read back gives the closed-store error, as on this thread', async () => {
    const errors: (string | undefined)[] = [];
    for (const inline of [false, true]) {
      const rec = await upload(validLines(200));
      const r = await mode(inline, () => readAll(rec, readOpts, async (n) => (n === 2 ? store.close() : undefined)));
      errors.push(r.error);
      store = openStore(dir);
      files = new FileStore(store, { chunkSize: 61, maxFileBytes: 1 << 24, chunksPerCommit: 8, nowSeconds: () => 1 });
    }
    expect(errors[0]).toBeDefined();
    expect(errors[0]).toEqual(errors[1]);
  });
});
