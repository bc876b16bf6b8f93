// OpenAI Files API on the LMDB file store: upload (multipart, streamed into fixed-size chunks),
// list, retrieve, download (streamed out with backpressure), delete.
import { apiError } from '../errors.js';
import type { Route, RequestContext } from '../http/types.js';
import type { BatchSystem } from '../batch/system.js';
import type { FileWriter } from '../store/files.js';
import { boundaryOf, MultipartError, MultipartParser } from '../store/multipart.js';
import { parseListQuery } from './list-query.js';

/** Purposes a client may upload with (batch_output and the like are set by the server). */
export const UPLOAD_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;

/** Room for multipart framing and the small fields around the file content. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** Bytes of one non-file form field (`purpose`, `expires_after[...]`). */
const MAX_FIELD_BYTES = 4096;
const MAX_FILENAME_CHARS = 255;
const MAX_LIST_LIMIT = 10_000;

function cleanFilename(name: string): string {
  // Keep the base name only; control characters never reach a header or a listing.
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '');
  if (base.length <= MAX_FILENAME_CHARS) return base;
  // The stem is cut; the extension (which the Batch API checks) stays.
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 && base.length - dot <= 16 ? base.slice(dot) : '';
  return base.slice(0, MAX_FILENAME_CHARS - ext.length) + ext;
}

async function upload(sys: BatchSystem, ctx: RequestContext): Promise<void> {
  const boundary = boundaryOf(ctx.header('content-type'));
  if (!boundary) throw apiError('upload_not_multipart');
  const declared = Number(ctx.header('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > sys.maxFileBytes + MULTIPART_OVERHEAD_BYTES) {
    throw apiError('file_too_large', { limit: sys.maxFileBytes });
  }
  const parser = new MultipartParser(boundary);
  let writer: FileWriter | null = null;
  let part: { kind: 'file' } | { kind: 'field'; name: string; bytes: Buffer[]; size: number } | null = null;
  const fields = new Map<string, string>();
  try {
    for await (const chunk of ctx.bodyChunks()) {
      for (const ev of parser.write(chunk)) {
        if (ev.type === 'part') {
          if (ev.headers.name === 'file') {
            if (writer) throw apiError('upload_one_file');
            if (ev.headers.filename === null) throw apiError('upload_filename_missing');
            const filename = cleanFilename(ev.headers.filename);
            if (!filename) throw apiError('upload_filename_missing');
            writer = await sys.files.beginUpload(filename);
            part = { kind: 'file' };
          } else {
            part = { kind: 'field', name: ev.headers.name, bytes: [], size: 0 };
          }
        } else if (ev.type === 'data') {
          if (part?.kind === 'file') await writer!.write(ev.data);
          else if (part?.kind === 'field') {
            part.size += ev.data.length;
            if (part.size > MAX_FIELD_BYTES) throw apiError('form_field_too_long', { name: part.name, max: MAX_FIELD_BYTES }, part.name);
            part.bytes.push(Buffer.from(ev.data));
          }
        } else if (ev.type === 'part-end') {
          if (part?.kind === 'field') fields.set(part.name, Buffer.concat(part.bytes).toString('utf8'));
          part = null;
        }
      }
    }
    parser.end();
    const purpose = fields.get('purpose');
    if (purpose === undefined) throw apiError('form_field_missing', { name: 'purpose' }, 'purpose');
    if (!(UPLOAD_PURPOSES as readonly string[]).includes(purpose)) {
      throw apiError('upload_purpose_invalid', { purpose, allowed: UPLOAD_PURPOSES.join(', ') });
    }
    if (!writer) throw apiError('form_field_missing', { name: 'file' }, 'file');
    if (purpose === 'batch' && !writer.filename.toLowerCase().endsWith('.jsonl')) {
      throw apiError('batch_file_not_jsonl');
    }
    const file = await writer.finish(purpose);
    writer = null;
    ctx.json(200, file);
  } catch (err) {
    if (writer) await writer.abort().catch(() => undefined);
    if (err instanceof MultipartError) throw apiError('invalid_field', { field: 'file', problem: err.message }, 'file');
    throw err;
  }
}

function listFiles(sys: BatchSystem, ctx: RequestContext): void {
  const q = ctx.query;
  const { limit, after } = parseListQuery(q, MAX_LIST_LIMIT, MAX_LIST_LIMIT);
  const order = q.get('order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw apiError('field_requirement', { field: 'order', requirement: "'asc' or 'desc'" }, 'order');
  const page = sys.files.list({ purpose: q.get('purpose') ?? undefined, limit, order, after });
  ctx.json(200, { object: 'list', data: page.data, first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null, has_more: page.has_more });
}

function fileOr404(sys: BatchSystem, id: string | undefined) {
  const rec = id === undefined ? undefined : sys.files.record(id);
  if (!rec) throw apiError('unknown_file', { id: id ?? '' });
  return rec;
}

async function download(sys: BatchSystem, ctx: RequestContext): Promise<void> {
  const rec = fileOr404(sys, ctx.params.file_id);
  const out = ctx.stream(200, 'application/octet-stream', rec.bytes);
  try {
    for (const chunk of sys.files.chunks(rec)) {
      if (out.closed || ctx.signal.aborted) return;
      await out.write(chunk);
    }
  } finally {
    out.end();
  }
}

async function remove(sys: BatchSystem, ctx: RequestContext): Promise<void> {
  const rec = fileOr404(sys, ctx.params.file_id);
  if (sys.runner.fileInUse(rec.id)) throw apiError('file_in_use', { id: rec.id });
  await sys.files.remove(rec.id);
  ctx.json(200, { id: rec.id, object: 'file', deleted: true });
}

export function fileRoutes(sys: BatchSystem): Route[] {
  return [
    { method: 'POST', path: '/v1/files', maxBody: sys.maxFileBytes + MULTIPART_OVERHEAD_BYTES, handler: (ctx) => upload(sys, ctx) },
    { method: 'GET', path: '/v1/files', handler: (ctx) => listFiles(sys, ctx) },
    { method: 'GET', path: '/v1/files/:file_id', handler: (ctx) => ctx.json(200, sys.files.get(fileOr404(sys, ctx.params.file_id).id)) },
    { method: 'GET', path: '/v1/files/:file_id/content', handler: (ctx) => download(sys, ctx) },
    { method: 'DELETE', path: '/v1/files/:file_id', handler: (ctx) => remove(sys, ctx) },
  ];
}
