// The 24-hour window with an injected clock: at its close, requests not yet run go to the error
// file as batch_expired and the batch ends expired with the partial output it has.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApplyBatch, Gate, ManualClock, readJsonl, realExecutor, startBatchServer, waitFor, waitTerminal, type BatchServer } from './harness.js';

const gate = new Gate();
const clock = new ManualClock();
let s: BatchServer;
beforeAll(async () => {
  s = await startBatchServer({ executor: gate.wrap(realExecutor()), clock, limits: { concurrency: 2, maxActiveBatches: 1, expiryCheckMs: 10 } });
});
afterAll(async () => {
  gate.release();
  await s?.close();
});
beforeEach(() => gate.hold());

describe('expiry', () => {
  it('expires at created_at + 24h: queued requests → batch_expired, finished ones stay in the output', async () => {
    const b = await createApplyBatch(s.client, 5, 'e');
    expect(b.expires_at).toBe(b.created_at + 86400);
    expect(b.created_at).toBe(Math.floor(clock.now() / 1000));
    await waitFor(async () => gate.waiting, (w) => w === 2);
    // a queued batch that never started
    const waiting = await createApplyBatch(s.client, 3, 'w');

    clock.advance(86399);
    await new Promise((r) => setTimeout(r, 60));
    expect((await s.client.batches.retrieve(b.id)).status).toBe('in_progress');
    clock.advance(1);
    // the queued batch expires without running anything
    const w = await waitTerminal(s.client, waiting.id);
    expect(w).toMatchObject({ status: 'expired', output_file_id: null, request_counts: { total: 3, completed: 0, failed: 3 } });
    expect(w.expired_at).toBe(Math.floor(clock.now() / 1000));
    expect((await readJsonl(s.client, w.error_file_id)).map((e) => e.error!.code)).toEqual(['batch_expired', 'batch_expired', 'batch_expired']);

    // the running one drains its two in-flight requests, then expires
    gate.release();
    const done = await waitTerminal(s.client, b.id);
    expect(done.status).toBe('expired');
    expect(done.expired_at).toBeTypeOf('number');
    expect(done.completed_at).toBeNull();
    expect(done.request_counts).toEqual({ total: 5, completed: 2, failed: 3 });
    expect(gate.started).toBe(2);
    const out = await readJsonl(s.client, done.output_file_id);
    const err = await readJsonl(s.client, done.error_file_id);
    expect(out.map((o) => o.custom_id)).toEqual(['e-0', 'e-1']);
    expect(err.map((e) => [e.custom_id, e.response, e.error!.code])).toEqual([
      ['e-2', null, 'batch_expired'],
      ['e-3', null, 'batch_expired'],
      ['e-4', null, 'batch_expired'],
    ]);
    await expect(s.client.batches.cancel(b.id)).rejects.toMatchObject({ status: 400 });
  });
});
