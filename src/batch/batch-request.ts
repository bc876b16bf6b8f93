// POST /v1/batches request body (OpenAI's Batch API): the input file, the one endpoint batches
// run, the 24 h window, and up to 16 metadata pairs within OpenAI's key and value lengths.
import { z } from 'zod';
import { BATCH_ENDPOINT } from './validate.js';

const MAX_METADATA_PAIRS = 16;
const MAX_METADATA_KEY_CHARS = 64;
const MAX_METADATA_VALUE_CHARS = 512;

const metadataSchema = z
  .record(
    z.string(),
    z.string({ error: 'must be a string' }).max(MAX_METADATA_VALUE_CHARS, `must be at most ${MAX_METADATA_VALUE_CHARS} characters`),
    { error: 'must be an object of string keys to string values' },
  )
  .refine((m) => Object.keys(m).length <= MAX_METADATA_PAIRS, `holds at most ${MAX_METADATA_PAIRS} pairs`)
  .refine((m) => Object.keys(m).every((k) => k.length <= MAX_METADATA_KEY_CHARS), `keys are at most ${MAX_METADATA_KEY_CHARS} characters`);

const REQUIRED_FILE = "required: the id of a file uploaded with purpose 'batch'";

export const createBatchRequestSchema = z.object({
  input_file_id: z.string({ error: REQUIRED_FILE }).min(1, REQUIRED_FILE),
  endpoint: z.literal(BATCH_ENDPOINT, { error: `must be '${BATCH_ENDPOINT}'` }),
  completion_window: z.literal('24h', { error: "must be '24h'" }),
  metadata: metadataSchema.nullish().transform((m) => m ?? null),
});

export type CreateBatchRequest = z.output<typeof createBatchRequestSchema>;
