// Batch gauges: batches by status, and the request counts of the batches still running. Read from
// the store at scrape time, one pass over the batch records, remembered for a couple of seconds so
// that several scrapes (or several series of one scrape) share the pass.
import { TERMINAL_STATUSES } from '../batch/types.js';
import type { BatchSystem } from '../batch/system.js';
import type { GaugeSample, Metrics } from '../metrics.js';

const PAGE = 1000;
const FRESH_MS = 2000;

interface BatchCounts {
  byStatus: Map<string, number>;
  /** Over non-terminal batches: lines, answered, failed. */
  total: number;
  completed: number;
  failed: number;
}

function countBatches(system: BatchSystem): BatchCounts {
  const c: BatchCounts = { byStatus: new Map(), total: 0, completed: 0, failed: 0 };
  let after: string | undefined;
  for (;;) {
    const page = system.batches.list(after === undefined ? { limit: PAGE } : { after, limit: PAGE });
    for (const b of page.data) {
      c.byStatus.set(b.status, (c.byStatus.get(b.status) ?? 0) + 1);
      if (TERMINAL_STATUSES.has(b.status)) continue;
      c.total += b.request_counts.total;
      c.completed += b.request_counts.completed;
      c.failed += b.request_counts.failed;
    }
    if (!page.has_more || page.data.length === 0) return c;
    after = page.data[page.data.length - 1]!.id;
  }
}

const STATUSES = ['validating', 'in_progress', 'finalizing', 'completed', 'failed', 'expired', 'cancelling', 'cancelled'];

export function registerBatchMetrics(metrics: Metrics, system: () => BatchSystem | null): void {
  let cached: { at: number; counts: BatchCounts } | null = null;
  const counts = (): BatchCounts | null => {
    const s = system();
    if (!s) return null;
    const now = performance.now();
    if (!cached || now - cached.at > FRESH_MS) cached = { at: now, counts: countBatches(s) };
    return cached.counts;
  };
  metrics.gauge('svc_batches', 'Batches in the store by status.', (): GaugeSample[] => {
    const c = counts();
    return c ? STATUSES.map((status) => ({ labels: { status }, value: c.byStatus.get(status) ?? 0 })) : [];
  });
  metrics.gauge('svc_batch_requests', 'Requests of the batches not yet terminal: lines (total), answered (completed), failed.', (): GaugeSample[] => {
    const c = counts();
    if (!c) return [];
    return [
      { labels: { state: 'total' }, value: c.total },
      { labels: { state: 'completed' }, value: c.completed },
      { labels: { state: 'failed' }, value: c.failed },
    ];
  });
}
