// A multipart/form-data request read off the event loop: the body is spooled to a temp file as it
// arrives (body-spool.ts), then scanned in a worker (multipart-pool.ts) into its fields and file
// parts. A file part's content stays in the temp file: `FormFile` says where, and the route's
// service reads it from there. The caller must dispose() the form (it deletes the temp file).
import { apiError } from '../errors.js';
import { boundaryOf } from './multipart.js';
import { spoolBody, type SpooledBody } from './body-spool.js';
import { FormError, type FormLimits } from './form-scanner.js';
import { scanSpooledForm } from './multipart-pool.js';
import type { RequestContext } from './types.js';

/** A file part's content: `bytes` bytes of the file at `path` from `offset`. */
export interface FormFile {
  filename: string;
  contentType: string | null;
  path: string;
  offset: number;
  bytes: number;
}

/** Form values by part name; a name sent more than once maps to the list of its values. */
export type FormValues = Record<string, string | FormFile | Array<string | FormFile>>;

export interface MultipartForm {
  readonly values: FormValues;
  /** Deletes the spooled body. Idempotent. */
  dispose(): Promise<void>;
}

export interface MultipartOptions extends FormLimits {
  /** Directory for the spooled body (on the disk the content is stored on, ideally). */
  spoolDir: string;
  onWorkerFailure?: (err: Error) => void;
}

function collect(values: FormValues, name: string, v: string | FormFile): void {
  const prev = values[name];
  if (prev === undefined) values[name] = v;
  else if (Array.isArray(prev)) prev.push(v);
  else values[name] = [prev, v];
}

export async function readMultipartForm(ctx: RequestContext, o: MultipartOptions): Promise<MultipartForm> {
  const boundary = boundaryOf(ctx.header('content-type'));
  if (!boundary) throw apiError('upload_not_multipart');
  const spooled: SpooledBody = await spoolBody(ctx, o.spoolDir);
  try {
    const limits: FormLimits = { maxFieldBytes: o.maxFieldBytes, maxParts: o.maxParts };
    const form = await scanSpooledForm(spooled.path, boundary, limits, { onWorkerFailure: o.onWorkerFailure });
    const values: FormValues = Object.create(null) as FormValues;
    for (const f of form.fields) collect(values, f.name, f.value);
    for (const f of form.files) collect(values, f.name, { filename: f.filename, contentType: f.contentType, path: spooled.path, offset: f.offset, bytes: f.bytes });
    return { values, dispose: () => spooled.remove() };
  } catch (err) {
    await spooled.remove();
    if (err instanceof FormError) throw apiError('invalid_field', { field: err.param ?? 'multipart body', problem: err.message }, err.param);
    throw err;
  }
}
