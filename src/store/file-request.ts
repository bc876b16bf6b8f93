// The Files API requests (OpenAI's): the upload form (`purpose`, `file`) and the list query.
// The form arrives as values by part name (src/http/multipart-form.ts): a field is a string, a
// file part says where its content is, and a name sent twice is a list.
import { z } from 'zod';
import { MAX_ID_LENGTH } from './ids.js';

/** Purposes a client may upload with (batch_output and the like are set by the server). */
export const UPLOAD_PURPOSES = ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] as const;

export const MAX_LIST_LIMIT = 10_000;
const MAX_FILENAME_CHARS = 255;

/** Keeps the base name only (no directories, no control characters); past 255 characters the
 *  stem is cut and the extension, which the Batch API checks, stays. */
export function cleanFilename(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '');
  if (base.length <= MAX_FILENAME_CHARS) return base;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 && base.length - dot <= 16 ? base.slice(dot) : '';
  return base.slice(0, MAX_FILENAME_CHARS - ext.length) + ext;
}

const PURPOSES_LIST = `[${UPLOAD_PURPOSES.map((p) => `'${p}'`).join(', ')}]`;

const purposeSchema = z.enum(UPLOAD_PURPOSES, {
  error: (iss) => (iss.input === undefined ? `is a required property; one of ${PURPOSES_LIST}` : typeof iss.input === 'string' ? `'${iss.input}' is not one of ${PURPOSES_LIST}` : `must be a form field, one of ${PURPOSES_LIST}`),
});

/** Where an uploaded file's content is: `bytes` bytes of the file at `path` from `offset`. */
export const uploadedContentSchema = z.object(
  {
    filename: z.string(),
    path: z.string(),
    offset: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
  },
  {
    error: (iss) =>
      iss.input === undefined ? 'is a required property: the file to upload, as a form part with a filename' : Array.isArray(iss.input) ? 'only one file may be uploaded per request' : 'must be a file (a form part with a filename)',
  },
);

export const createFileRequestSchema = z
  .object({
    purpose: purposeSchema,
    file: uploadedContentSchema.transform((f) => ({ ...f, filename: cleanFilename(f.filename) })).refine((f) => f.filename.length > 0, 'the file part needs a filename'),
  })
  .superRefine((r, ctx) => {
    // OpenAI's own check and message for Batch API input files.
    if (r.purpose === 'batch' && !r.file.filename.toLowerCase().endsWith('.jsonl')) {
      ctx.addIssue({ code: 'custom', path: ['file'], message: 'Invalid file format for Batch API. Must be .jsonl' });
    }
  });

export type CreateFileRequest = z.output<typeof createFileRequestSchema>;
export type UploadedContent = z.output<typeof uploadedContentSchema>;

const LIMIT_RULE = `must be an integer from 1 to ${MAX_LIST_LIMIT}`;

/** GET /v1/files query: every parameter optional. */
export const listFilesQuerySchema = z.object({
  purpose: z.string().optional(),
  limit: z
    .string()
    .regex(/^\d+$/, LIMIT_RULE)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_LIST_LIMIT, LIMIT_RULE)
    .default(MAX_LIST_LIMIT),
  order: z.enum(['asc', 'desc'], { error: "must be 'asc' or 'desc'" }).default('desc'),
  // `after=` with no value is a client that had no cursor yet (the first page), not a cursor
  // that sorts before every id and would make the listing look empty.
  after: z
    .string()
    .max(MAX_ID_LENGTH, `must be the id of a listed object (at most ${MAX_ID_LENGTH} characters)`)
    .optional()
    .transform((a) => a || undefined),
});

export type ListFilesRequest = z.output<typeof listFilesQuerySchema>;
