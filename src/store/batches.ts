// Batches and their per-request results. A result and the counters it moves are written in one
// transaction, and only if no result exists for that [batch, line] yet: a request is counted
// exactly once, and never before its result is durable.
import { isStorableId, sortableId } from './ids.js';
import {
  BATCH_SCHEMA_VERSION,
  decodeBatchRecord,
  decodeResultRecord,
  type FileRecord,
  type ResultRecord,
} from './records.js';
import type { Store } from './store.js';
import { TERMINAL_STATUSES, type BatchObject, type BatchUsage } from './batch-record.js';

export const BATCH_ID_PREFIX = 'batch_';

export interface NewBatch {
  input_file_id: string;
  metadata: Record<string, string> | null;
  created_at: number;
  expires_at: number;
}

/** Token counts of one chat completion response body (missing fields count 0). */
export function usageOfResponse(body: unknown): BatchUsage | null {
  const u = (body as { usage?: Record<string, unknown> } | null)?.usage;
  if (!u || typeof u !== 'object') return null;
  const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const input = num(u.prompt_tokens);
  const output = num(u.completion_tokens);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: num((u.prompt_tokens_details as Record<string, unknown> | undefined)?.cached_tokens) },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: num((u.completion_tokens_details as Record<string, unknown> | undefined)?.reasoning_tokens) },
    total_tokens: u.total_tokens === undefined ? input + output : num(u.total_tokens),
  };
}

function addUsage(a: BatchUsage | null, b: BatchUsage): BatchUsage {
  if (!a) return b;
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    input_tokens_details: { cached_tokens: a.input_tokens_details.cached_tokens + b.input_tokens_details.cached_tokens },
    output_tokens: a.output_tokens + b.output_tokens,
    output_tokens_details: { reasoning_tokens: a.output_tokens_details.reasoning_tokens + b.output_tokens_details.reasoning_tokens },
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

function zeroUsage(): BatchUsage {
  return { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };
}

export class BatchStore {
  constructor(readonly store: Store) {}

  get(id: string): BatchObject | undefined {
    if (!isStorableId(id)) return undefined;
    return decodeBatchRecord(this.store.batches.get(id))?.batch;
  }

  async create(n: NewBatch): Promise<BatchObject> {
    const batch: BatchObject = {
      id: sortableId(BATCH_ID_PREFIX),
      object: 'batch',
      endpoint: '/v1/chat/completions',
      input_file_id: n.input_file_id,
      completion_window: '24h',
      metadata: n.metadata,
      created_at: n.created_at,
      status: 'validating',
      model: null,
      output_file_id: null,
      error_file_id: null,
      in_progress_at: null,
      finalizing_at: null,
      completed_at: null,
      failed_at: null,
      expired_at: null,
      expires_at: n.expires_at,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
      errors: null,
      usage: null,
    };
    await this.store.batches.put(batch.id, { schemaVersion: BATCH_SCHEMA_VERSION, batch });
    return batch;
  }

  /** Newest first; `after` is the id of the last batch of the previous page. */
  list(q: { after?: string; limit: number }): { data: BatchObject[]; has_more: boolean } {
    const data: BatchObject[] = [];
    let hasMore = false;
    for (const { key, value } of this.store.batches.getRange({ start: q.after ?? BATCH_ID_PREFIX + '\uffff', end: BATCH_ID_PREFIX, reverse: true })) {
      if (key === q.after) continue;
      if (data.length === q.limit) {
        hasMore = true;
        break;
      }
      const rec = decodeBatchRecord(value);
      if (rec) data.push(rec.batch);
    }
    return { data, has_more: hasMore };
  }

  /** Non-terminal batches, oldest first (what a restarted runner must pick up). */
  unfinished(): BatchObject[] {
    const out: BatchObject[] = [];
    for (const { value } of this.store.batches.getRange({ start: BATCH_ID_PREFIX, end: BATCH_ID_PREFIX + '\uffff' })) {
      const b = decodeBatchRecord(value)?.batch;
      if (b && !TERMINAL_STATUSES.has(b.status)) out.push(b);
    }
    return out;
  }

  /**
   * Read-modify-write in one transaction. `change` gets the current batch and returns the new one,
   * or null to leave it; `extra` runs in the same transaction (e.g. publishing output files).
   * Resolves to [batch as stored afterwards, whether it changed].
   */
  async update(
    id: string,
    change: (b: BatchObject) => BatchObject | null,
    extra?: (b: BatchObject) => void,
  ): Promise<{ batch: BatchObject | undefined; changed: boolean }> {
    if (!isStorableId(id)) return { batch: undefined, changed: false };
    return this.store.root.transaction(() => {
      const cur = decodeBatchRecord(this.store.batches.get(id))?.batch;
      if (!cur) return { batch: undefined, changed: false };
      const next = change(structuredClone(cur));
      if (!next) return { batch: cur, changed: false };
      extra?.(next);
      this.store.batches.put(id, { schemaVersion: BATCH_SCHEMA_VERSION, batch: next });
      return { batch: next, changed: true };
    });
  }

  /**
   * Ends a batch: publishes its output files (their ready records), applies the change, and drops
   * the per-request results (now copied into the files), all in one commit.
   */
  async finish(id: string, files: FileRecord[], change: (b: BatchObject) => BatchObject | null) {
    return this.update(id, change, () => {
      for (const f of files) this.store.files.put(f.id, f);
      for (const key of this.store.results.getKeys({ start: [id, 0], end: [id, Number.MAX_SAFE_INTEGER] })) this.store.results.remove(key);
    });
  }

  /**
   * Stores one request's result and counts it, atomically, unless that line already has a result.
   * Resolves false when it was a duplicate (then nothing changed).
   */
  async recordResult(batchId: string, rec: ResultRecord): Promise<boolean> {
    const ok = rec.status_code >= 200 && rec.status_code < 300;
    const usage = ok ? (usageOfResponse(rec.body) ?? zeroUsage()) : null;
    return this.store.root.transaction(() => {
      const key: [string, number] = [batchId, rec.line];
      if (this.store.results.doesExist(key)) return false;
      const cur = decodeBatchRecord(this.store.batches.get(batchId))?.batch;
      if (!cur) return false;
      this.store.results.put(key, rec);
      if (ok) {
        cur.request_counts.completed++;
        cur.usage = addUsage(cur.usage, usage!);
      } else {
        cur.request_counts.failed++;
      }
      this.store.batches.put(batchId, { schemaVersion: BATCH_SCHEMA_VERSION, batch: cur });
      return true;
    });
  }

  hasResult(batchId: string, line: number): boolean {
    return this.store.results.doesExist([batchId, line]);
  }

  result(batchId: string, line: number): ResultRecord | undefined {
    return decodeResultRecord(this.store.results.get([batchId, line]));
  }
}
