// OpenAI Batch API: create, list (newest first, cursor `after`), retrieve, cancel (SPEC.md's table).
import { invalidRequest, notFound } from '../errors.js';
import type { Route, RequestContext } from '../http/types.js';
import type { BatchSystem } from '../batch/system.js';
import { BATCH_ENDPOINT } from '../batch/validate.js';
import { fileRoutes } from './files.js';
import { parseListQuery } from './list-query.js';

const MAX_METADATA_PAIRS = 16;
const MAX_METADATA_KEY_CHARS = 64;
const MAX_METADATA_VALUE_CHARS = 512;
const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 100;

function parseMetadata(v: unknown): Record<string, string> | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidRequest('metadata must be an object of string keys to string values.', 'metadata');
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > MAX_METADATA_PAIRS) throw invalidRequest(`metadata holds at most ${MAX_METADATA_PAIRS} pairs.`, 'metadata');
  const out: Record<string, string> = {};
  for (const [k, val] of entries) {
    if (k.length > MAX_METADATA_KEY_CHARS) throw invalidRequest(`metadata keys are at most ${MAX_METADATA_KEY_CHARS} characters.`, 'metadata');
    if (typeof val !== 'string') throw invalidRequest(`metadata.${k} must be a string.`, 'metadata');
    if (val.length > MAX_METADATA_VALUE_CHARS) throw invalidRequest(`metadata values are at most ${MAX_METADATA_VALUE_CHARS} characters.`, 'metadata');
    out[k] = val;
  }
  return out;
}

async function create(sys: BatchSystem, ctx: RequestContext): Promise<void> {
  const body = await ctx.readJson();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('Request body must be a JSON object.');
  const b = body as Record<string, unknown>;
  if (typeof b.input_file_id !== 'string' || b.input_file_id.length === 0) throw invalidRequest("Missing required parameter 'input_file_id'.", 'input_file_id');
  if (b.endpoint !== BATCH_ENDPOINT) throw invalidRequest(`endpoint must be '${BATCH_ENDPOINT}'.`, 'endpoint');
  if (b.completion_window !== '24h') throw invalidRequest("completion_window must be '24h'.", 'completion_window');
  const metadata = parseMetadata(b.metadata);
  ctx.json(200, await sys.createBatch({ input_file_id: b.input_file_id, metadata }));
}

function list(sys: BatchSystem, ctx: RequestContext): void {
  const page = sys.batches.list(parseListQuery(ctx.query, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT));
  ctx.json(200, { object: 'list', data: page.data, first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null, has_more: page.has_more });
}

function retrieve(sys: BatchSystem, ctx: RequestContext): void {
  const id = ctx.params.batch_id ?? '';
  const batch = sys.batches.get(id);
  if (!batch) throw notFound(`No batch with id '${id}'.`);
  ctx.json(200, batch);
}

async function cancel(sys: BatchSystem, ctx: RequestContext): Promise<void> {
  const id = ctx.params.batch_id ?? '';
  const r = await sys.runner.cancel(id);
  if (r.kind === 'missing') throw notFound(`No batch with id '${id}'.`);
  if (r.kind === 'terminal') throw invalidRequest(`Cannot cancel batch ${id}: its status is '${r.batch.status}'.`);
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
