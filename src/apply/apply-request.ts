// The Chat Completions request of an apply model: one user message holding <code> and <update>
// (checked in the worker), the fields a merge has (stream, max_tokens, temperature), and the chat
// features it does not have refused by name rather than silently ignored.
import { z } from 'zod';
import { APPLY_MODELS, isApplyModel, type ApplyModel } from '../assets/apply-models.js';

/** Largest message content accepted (characters): 8 MiB of code plus update. */
export const MAX_APPLY_CONTENT_CHARS = 8 * 1024 * 1024;

export interface ApplyRequest {
  model: ApplyModel;
  content: string;
  stream: boolean;
  includeUsage: boolean;
  maxTokens: number | null;
  temperature: number;
}

const NOT_SUPPORTED = 'is not supported by the apply models (they return the merged file)';
/** Chat fields with no meaning for a merge: any value but an empty one is refused. */
const UNSUPPORTED_FIELDS = ['stop', 'logprobs', 'top_logprobs', 'tools', 'tool_choice', 'functions', 'function_call', 'logit_bias'] as const;

const TEXT_PART = 'must be a text part ({"type": "text", "text": "..."})';
const textPart = z.object({ type: z.literal('text', TEXT_PART), text: z.string(TEXT_PART) }, TEXT_PART);

const content = z
  .union([z.string(), z.array(textPart)], { error: 'must be a string with <code> and <update> tags' })
  .transform((c) => (typeof c === 'string' ? c : c.map((p) => p.text).join('')))
  .refine((c) => c.length <= MAX_APPLY_CONTENT_CHARS, { error: (i) => `is ${(i.input as string).length} characters; the limit is ${MAX_APPLY_CONTENT_CHARS}` });

const message = z.object(
  {
    role: z.literal('user', { error: (i) => `must be 'user' for the apply models (got ${JSON.stringify(i.input)})` }),
    content,
  },
  { error: 'must be an object with role and content' },
);

const ONE_MESSAGE = 'the apply models take exactly one user message with <code> and <update>';
const positiveInt = z.number('must be a positive integer').int('must be a positive integer').min(1, 'must be a positive integer');
const absentOrEmpty = (v: unknown): boolean => v === undefined || v === null || v === false || (Array.isArray(v) && v.length === 0);

export const applyRequestSchema = z
  .object({
    model: z
      .string()
      .nullish()
      .transform((m) => m ?? 'svc-v3-fast')
      .refine(isApplyModel, `must be one of ${APPLY_MODELS.join(', ')} for code-edit apply`),
    messages: z.array(message, { error: (i) => (i.input === undefined || i.input === null ? `is required: ${ONE_MESSAGE}` : `must be an array: ${ONE_MESSAGE}`) }).min(1, `is empty: ${ONE_MESSAGE}`).max(1, ONE_MESSAGE),
    stream: z.boolean('must be a boolean').nullish(),
    stream_options: z.object({ include_usage: z.boolean('must be a boolean').optional() }, 'must be an object').nullish(),
    max_tokens: positiveInt.nullish(),
    max_completion_tokens: positiveInt.nullish(),
    temperature: z.number('must be a number from 0 to 2').min(0, 'must be a number from 0 to 2').max(2, 'must be a number from 0 to 2').nullish(),
    n: z.literal(1, 'must be 1 for the apply models').nullish(),
    // `{type: 'text'}` is what a merge returns anyway; any other format is refused.
    response_format: z.unknown().refine((v) => v === undefined || v === null || (typeof v === 'object' && (v as { type?: unknown }).type === 'text'), NOT_SUPPORTED).optional(),
    ...Object.fromEntries(UNSUPPORTED_FIELDS.map((f) => [f, z.unknown().refine(absentOrEmpty, NOT_SUPPORTED).optional()])),
  })
  .transform(
    (b): ApplyRequest => ({
      model: b.model as ApplyModel,
      content: b.messages[0]!.content,
      stream: b.stream ?? false,
      includeUsage: b.stream_options?.include_usage === true,
      maxTokens: b.max_completion_tokens ?? b.max_tokens ?? null,
      temperature: b.temperature ?? 0,
    }),
  );
