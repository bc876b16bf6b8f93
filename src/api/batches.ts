// OpenAI Batch API: create, list (newest first, cursor `after`), retrieve, cancel (SPEC.md's table).
import { apiError } from '../errors.js';
import type { Route, RequestContext } from '../http/types.js';
import type { BatchSystem } from '../batch/system.js';
import { createBatchRequestSchema } from '../batch/batch-request.js';
import { parseBody } from '../chat/validate.js';
import { fileRoutes } from './files.js';
import { parseListQuery } from './list-query.js';

const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 100;

async function create(sys: BatchSystem, ctx: RequestContext): Promise<void> {
  const req = parseBody(createBatchRequestSchema, await ctx.readJson());
  ctx.json(200, await sys.createBatch({ input_file_id: req.input_file_id, metadata: req.metadata }));
}

function list(sys: BatchSystem, ctx: RequestContext): void {
  const page = sys.batches.list(parseListQuery(ctx.query, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT));
  ctx.json(200, { object: 'list', data: page.data, first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null, has_more: page.has_more });
}

function retrieve(sys: BatchSystem, ctx: RequestContext): void {
  const id = ctx.params.batch_id ?? '';
  const batch = sys.batches.get(id);
  if (!batch) throw apiError('unknown_batch', { id });
  ctx.json(200, batch);
}

async function cancel(sys: BatchSystem, ctx: RequestContext): Promise<void> {
  const id = ctx.params.batch_id ?? '';
  const r = await sys.runner.cancel(id);
  if (r.kind === 'missing') throw apiError('unknown_batch', { id });
  if (r.kind === 'terminal') throw apiError('batch_not_cancellable', { id, status: r.batch.status });
  ctx.json(200, r.batch);
}

export function batchRoutes(sys: BatchSystem): Route[] {
  return [
    { method: 'POST', path: '/v1/batches', handler: (ctx) => create(sys, ctx) },
    { method: 'GET', path: '/v1/batches', handler: (ctx) => list(sys, ctx) },
    { method: 'GET', path: '/v1/batches/:batch_id', handler: (ctx) => retrieve(sys, ctx) },
    { method: 'POST', path: '/v1/batches/:batch_id/cancel', handler: (ctx) => cancel(sys, ctx) },
  ];
}

/** The Files and Batches routes for the main API, when Services carries the batch subsystem. */
export function filesAndBatchesRoutes(services: { readonly batch: BatchSystem | null }): Route[] {
  return services.batch ? [...fileRoutes(services.batch), ...batchRoutes(services.batch)] : [];
}
