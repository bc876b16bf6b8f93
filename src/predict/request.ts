// /v1/predict request parsing: SPEC.md's bounds, and every prompt line checked to be an event
// object (integer `type`, object `data`). Integer values are never judged: rrweb's numbering
// (FullSnapshot 2, Incremental 3, Meta 4) and SPEC.md's table (Meta 2) differ, and both are
// accepted; events.ts tells meta events and full snapshots apart by their data.
import { z } from 'zod';
import { apiError } from '../errors.js';
import { eventKind, type EventKind } from './events.js';

export const MAX_PREDICT_TOKENS = 512;

// Issue messages leave the field out: the error names it ("max_tokens: must be ...").
const PredictRequestSchema = z.object({
  prompt: z.string({ error: 'must be a string of newline-delimited JSON events' }),
  max_tokens: z.number().int('must be an integer').min(1, 'must be between 1 and 512').max(MAX_PREDICT_TOKENS, 'must be between 1 and 512').default(50),
  temperature: z.number().min(0, 'must be between 0.0 and 2.0').max(2, 'must be between 0.0 and 2.0').default(0.3),
  stream: z.boolean().default(false),
  // As in OpenAI's chat API: the same seed and prompt give the same sampled events.
  seed: z.number().int('must be an integer').nullish(),
});

export interface PredictRequest {
  /** Each prompt line, as sent (trailing CR removed), in order; blank lines dropped. */
  lines: string[];
  /** What each line is (meta event, full snapshot or other), for windowing. */
  kinds: EventKind[];
  maxTokens: number;
  temperature: number;
  seed?: number;
}

export function isEventObject(value: unknown): value is { type: number; data: Record<string, unknown> } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as { type?: unknown; data?: unknown };
  return Number.isInteger(v.type) && typeof v.data === 'object' && v.data !== null && !Array.isArray(v.data);
}

/** Parses and validates a /v1/predict body; throws ApiError 400 naming the field or line. */
export function parsePredictRequest(body: unknown): PredictRequest {
  const parsed = PredictRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || 'body';
    throw apiError('invalid_field', { field, problem: issue?.message ?? 'invalid' }, field);
  }
  const { prompt, max_tokens, temperature, stream, seed } = parsed.data;
  if (stream) throw apiError('predict_stream_unsupported');
  const lines: string[] = [];
  const kinds: EventKind[] = [];
  const raw = prompt.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const line = (raw[i] as string).replace(/\r$/, '');
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw apiError('prompt_line_not_json', { line: i + 1 });
    }
    if (!isEventObject(value)) throw apiError('prompt_line_not_event', { line: i + 1 });
    lines.push(line);
    kinds.push(eventKind(value));
  }
  if (lines.length === 0) throw apiError('prompt_no_events');
  return { lines, kinds, maxTokens: max_tokens, temperature, ...(seed != null ? { seed } : {}) };
}

/** Keeps the complete lines of generated text that are event objects; drops a cut-off last line. */
export function completeEventLines(text: string): string[] {
  const parts = text.split('\n');
  parts.pop(); // the text after the last newline is unfinished (or empty)
  const out: string[] = [];
  for (const part of parts) {
    const line = part.trim();
    if (line === '') continue;
    try {
      if (isEventObject(JSON.parse(line))) out.push(line);
    } catch {
      // A line the grammar would never produce; never pass a broken line on.
    }
  }
  return out;
}
