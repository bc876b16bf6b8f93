// Cancel, exactly as SPEC.md's table: validating / in_progress → cancelling (cancelling_at),
// in-flight requests drain, then cancelled (cancelled_at) with finished requests in the output
// file and the rest in the error file as batch_cancelled; cancel while cancelling is a no-op;
// terminal → 400; unknown → 404. A gate in front of the real executor holds requests in flight.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyBody, createApplyBatch, Gate, line, readJsonl, realExecutor, startBatchServer, uploadJsonl, waitFor, waitTerminal, type BatchServer } from './harness.js';

const gate = new Gate();
let s: BatchServer;
beforeAll(async () => {
  s = await startBatchServer({ executor: gate.wrap(realExecutor()), limits: { concurrency: 2, maxActiveBatches: 1 } });
});
afterAll(async () => {
  gate.release();
  await s?.close();
});
beforeEach(() => gate.hold());

describe('cancel', () => {
  it('in_progress → cancelling (no-op when repeated) → drained → cancelled; then terminal → 400', async () => {
    const b = await createApplyBatch(s.client, 6, 'a');
    await waitFor(async () => gate.waiting, (w) => w === 2);
    expect((await s.client.batches.retrieve(b.id)).status).toBe('in_progress');

    const c1 = await s.client.batches.cancel(b.id);
    expect(c1.status).toBe('cancelling');
    expect(c1.cancelling_at).toBeTypeOf('number');
    expect(c1.cancelled_at).toBeNull();
    // cancel while cancelling: 200, unchanged
    const c2 = await s.client.batches.cancel(b.id);
    expect(c2).toEqual(c1);
    // the two held requests keep it cancelling until they drain
    await new Promise((r) => setTimeout(r, 100));
    expect((await s.client.batches.retrieve(b.id)).status).toBe('cancelling');
    expect(gate.started).toBeGreaterThanOrEqual(2);
    const startedBefore = gate.started;

    gate.release();
    const done = await waitTerminal(s.client, b.id);
    expect(gate.started).toBe(startedBefore); // nothing new was dispatched after the cancel
    expect(done.status).toBe('cancelled');
    expect(done.cancelled_at).toBeTypeOf('number');
    expect(done.cancelling_at).toBe(c1.cancelling_at);
    expect(done.completed_at).toBeNull();
    expect(done.request_counts).toEqual({ total: 6, completed: 2, failed: 4 });
    const out = await readJsonl(s.client, done.output_file_id);
    const err = await readJsonl(s.client, done.error_file_id);
    expect(out.map((o) => o.response!.status_code)).toEqual([200, 200]);
    expect(err).toHaveLength(4);
    for (const e of err) expect(e).toMatchObject({ response: null, error: { code: 'batch_cancelled', message: expect.any(String) } });
    expect(new Set([...out, ...err].map((l) => l.custom_id))).toEqual(new Set(['a-0', 'a-1', 'a-2', 'a-3', 'a-4', 'a-5']));
    // completed requests are billed
    expect(done.usage!.total_tokens).toBeGreaterThan(0);

    await expect(s.client.batches.cancel(b.id)).rejects.toMatchObject({ status: 400, error: { code: 'invalid_request_error' } });
  });

  it('validating → cancelling → cancelled with every request as batch_cancelled', async () => {
    const running = await createApplyBatch(s.client, 3, 'r');
    await waitFor(async () => gate.waiting, (w) => w === 2);
    // only one batch runs at a time, so this one waits in validating
    const queued = await createApplyBatch(s.client, 4, 'q');
    await new Promise((r) => setTimeout(r, 100));
    expect((await s.client.batches.retrieve(queued.id)).status).toBe('validating');

    const c = await s.client.batches.cancel(queued.id);
    expect(c.status).toBe('cancelling');
    expect(c.cancelling_at).toBeTypeOf('number');
    const done = await waitTerminal(s.client, queued.id);
    expect(done).toMatchObject({ status: 'cancelled', output_file_id: null, in_progress_at: null, request_counts: { total: 4, completed: 0, failed: 4 }, usage: null });
    const err = await readJsonl(s.client, done.error_file_id);
    expect(err.map((e) => [e.custom_id, e.error!.code])).toEqual([
      ['q-0', 'batch_cancelled'],
      ['q-1', 'batch_cancelled'],
      ['q-2', 'batch_cancelled'],
      ['q-3', 'batch_cancelled'],
    ]);

    gate.release();
    const other = await waitTerminal(s.client, running.id);
    expect(other).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 3, failed: 0 } });
    // terminal by completion: cancel is refused
    await expect(s.client.batches.cancel(running.id)).rejects.toMatchObject({ status: 400 });
  });

  it('aborts requests still running past the drain timeout; they go to the error file as batch_cancelled', async () => {
    const held = new Gate();
    const quick = await startBatchServer({ executor: held.wrap(realExecutor()), limits: { concurrency: 2, drainTimeoutMs: 300 } });
    try {
      const lines = [];
      for (let i = 0; i < 4; i++) lines.push(line(`t-${i}`, applyBody(i)));
      const f = await uploadJsonl(quick.client, lines);
      const b = await quick.client.batches.create({ input_file_id: f.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
      await waitFor(async () => held.waiting, (w) => w === 2);
      expect((await quick.client.batches.cancel(b.id)).status).toBe('cancelling');
      const done = await waitTerminal(quick.client, b.id);
      expect(held.waiting).toBe(0); // the two held requests were aborted, not left hanging
      expect(done).toMatchObject({ status: 'cancelled', output_file_id: null, request_counts: { total: 4, completed: 0, failed: 4 }, usage: null });
      expect(done.cancelled_at! - done.cancelling_at!).toBeLessThan(5);
      const err = await readJsonl(quick.client, done.error_file_id);
      expect(err.map((e) => [e.custom_id, e.error!.code])).toEqual([
        ['t-0', 'batch_cancelled'],
        ['t-1', 'batch_cancelled'],
        ['t-2', 'batch_cancelled'],
        ['t-3', 'batch_cancelled'],
      ]);
    } finally {
      held.release();
      await quick.close();
    }
  });

  it('unknown batch → 404 not_found', async () => {
    await expect(s.client.batches.cancel('batch_does_not_exist')).rejects.toMatchObject({ status: 404, error: { code: 'not_found' } });
  });
});
