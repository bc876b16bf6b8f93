// OpenAI Files API routes: upload (multipart, spooled and parsed off the event loop), list,
// retrieve, download (streamed out with backpressure), delete. The service is FilesService.
import type { Route, RequestContext } from '../http/types.js';
import { readMultipartForm } from '../http/multipart-form.js';
import type { BatchSystem } from '../batch/system.js';
import { parseBody } from '../chat/validate.js';
import { createFileRequestSchema, listFilesQuerySchema } from '../store/file-request.js';
import type { FilesService } from '../store/files-service.js';

/** Room for multipart framing and the small fields around the file content. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** Bytes of one non-file form field (`purpose`, `expires_after[...]`), and parts in one form. */
const FORM_LIMITS = { maxFieldBytes: 4096, maxParts: 64 };

async function create(files: FilesService, ctx: RequestContext, onWorkerFailure: (err: Error) => void): Promise<void> {
  const form = await readMultipartForm(ctx, { ...FORM_LIMITS, spoolDir: files.spoolDir, onWorkerFailure });
  try {
    const req = parseBody(createFileRequestSchema, form.values);
    ctx.json(200, await files.create(req, ctx.signal));
  } finally {
    await form.dispose();
  }
}

async function download(files: FilesService, ctx: RequestContext): Promise<void> {
  const content = files.content(ctx.params.file_id ?? '');
  const out = ctx.stream(200, 'application/octet-stream', content.bytes);
  try {
    for (const chunk of content.chunks()) {
      if (out.closed || ctx.signal.aborted) return;
      await out.write(chunk);
    }
  } finally {
    out.end();
  }
}

const logWorkerFailure = (err: Error): void =>
  console.error(JSON.stringify({ ts: new Date().toISOString(), level: 'warn', msg: 'multipart worker failed; the upload is parsed on the event loop', error: err.message }));

export function fileRoutes(sys: BatchSystem, onWorkerFailure: (err: Error) => void = logWorkerFailure): Route[] {
  const files = sys.fileService;
  return [
    { method: 'POST', path: '/v1/files', maxBody: files.maxFileBytes + MULTIPART_OVERHEAD_BYTES, handler: (ctx) => create(files, ctx, onWorkerFailure) },
    { method: 'GET', path: '/v1/files', handler: (ctx) => ctx.json(200, files.list(parseBody(listFilesQuerySchema, Object.fromEntries(ctx.query)))) },
    { method: 'GET', path: '/v1/files/:file_id', handler: (ctx) => ctx.json(200, files.retrieve(ctx.params.file_id ?? '')) },
    { method: 'GET', path: '/v1/files/:file_id/content', handler: (ctx) => download(files, ctx) },
    { method: 'DELETE', path: '/v1/files/:file_id', handler: async (ctx) => ctx.json(200, await files.remove(ctx.params.file_id ?? '')) },
  ];
}
