// Graceful shutdown mid-batch: requests in flight are aborted and left without a result, the
// next start on the same data dir resumes the batch and runs exactly the lines without one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyBody, Gate, line, readJsonl, realExecutor, startBatchServer, uploadJsonl, waitFor, waitTerminal } from './harness.js';
import { isUnparsedBody } from '../../src/batch/types.js';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-batch-resume-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('resume after shutdown', () => {
  it('finishes the batch on the next start with every custom_id once', async () => {
    const N = 30;
    const gate = new Gate();
    gate.releaseFor(7); // 7 requests run, the 8th and 9th are held in flight
    // count executions per custom_id through the real executor
    const runs = new Map<string, number>();
    const counting = (inner: ReturnType<typeof realExecutor>): ReturnType<typeof realExecutor> => async (body, opts) => {
      if (isUnparsedBody(body)) throw new Error('short lines arrive parsed');
      const id = String((body.messages as Array<{ content: string }>)[0]!.content.match(/change f(\d+)/)![1]);
      const res = await inner(body, opts);
      if (!opts.signal.aborted) runs.set(id, (runs.get(id) ?? 0) + 1);
      return res;
    };
    const first = await startBatchServer({ dataDir, executor: gate.wrap(counting(realExecutor())), limits: { concurrency: 2 } });
    const lines = [];
    for (let i = 0; i < N; i++) lines.push(line(`r-${i}`, applyBody(i)));
    const input = await uploadJsonl(first.client, lines);
    const b = await first.client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
    await waitFor(async () => gate.waiting, (w) => w === 2);
    await waitFor(() => first.client.batches.retrieve(b.id), (x) => x.request_counts!.completed === 7);
    const before = await first.client.batches.retrieve(b.id);
    expect(before.status).toBe('in_progress');
    await first.close();

    gate.release();
    const second = await startBatchServer({ dataDir, executor: gate.wrap(counting(realExecutor())), limits: { concurrency: 2 } });
    try {
      const done = await waitTerminal(second.client, b.id);
      expect(done.status).toBe('completed');
      expect(done.request_counts).toEqual({ total: N, completed: N, failed: 0 });
      expect(done.request_counts!.completed).toBeGreaterThanOrEqual(before.request_counts!.completed);
      const out = await readJsonl(second.client, done.output_file_id);
      expect(out.map((o) => o.custom_id).sort()).toEqual(lines.map((_, i) => `r-${i}`).sort());
      // every request produced exactly one counted response: none lost, none run twice
      expect([...runs.values()].every((n) => n === 1)).toBe(true);
      expect(runs.size).toBe(N);
    } finally {
      await second.close();
    }
  });
});
