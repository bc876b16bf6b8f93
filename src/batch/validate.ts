// Input-file validation: each line must be a request the batch can run. Codes follow OpenAI's
// batch validation codes (invalid_json_line, duplicate_custom_id, url_mismatch, model_mismatch,
// empty_file, too_many_tasks) plus invalid_request / line_too_large for problems they do not name.
import type { BatchError, BatchLimits } from './types.js';
import { isBlank, splitLines } from './lines.js';

export const BATCH_ENDPOINT = '/v1/chat/completions';

export interface BatchRequestLine {
  line: number;
  customId: string;
  body: Record<string, unknown>;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function err(code: string, message: string, param: string | null, line: number | null): BatchError {
  return { code, message, param, line };
}

/** Checks one non-blank line on its own (uniqueness and model agreement are checked across lines). */
export function parseRequestLine(text: string, line: number): { ok: true; value: BatchRequestLine } | { ok: false; error: BatchError } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, error: err('invalid_json_line', 'This line is not parseable as valid JSON.', null, line) };
  }
  if (!isObject(parsed)) return { ok: false, error: err('invalid_json_line', 'This line is not a JSON object.', null, line) };
  const { custom_id: customId, method, url, body } = parsed;
  if (typeof customId !== 'string' || customId.length === 0) {
    return { ok: false, error: err('invalid_request', 'custom_id must be a non-empty string.', 'custom_id', line) };
  }
  if (method !== 'POST') {
    return { ok: false, error: err('invalid_request', `method must be "POST", got ${JSON.stringify(method ?? null)}.`, 'method', line) };
  }
  if (url !== BATCH_ENDPOINT) {
    return { ok: false, error: err('url_mismatch', `The url ${JSON.stringify(url ?? null)} does not match the batch endpoint ${BATCH_ENDPOINT}.`, 'url', line) };
  }
  if (!isObject(body)) return { ok: false, error: err('invalid_request', 'body must be a JSON object (a chat completion request).', 'body', line) };
  if (typeof body.model !== 'string' || body.model.length === 0) {
    return { ok: false, error: err('invalid_request', 'body.model must be a non-empty string.', 'body.model', line) };
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0 || !body.messages.every((m) => isObject(m) && typeof m.role === 'string')) {
    return { ok: false, error: err('invalid_request', 'body.messages must be a non-empty array of message objects with a role.', 'body.messages', line) };
  }
  if (body.stream === true) {
    return { ok: false, error: err('invalid_request', 'Streaming is not supported in batches; remove body.stream.', 'body.stream', line) };
  }
  return { ok: true, value: { line, customId, body } };
}

export interface ValidationOutcome {
  errors: BatchError[];
  /** Requests (non-blank lines). */
  total: number;
  model: string | null;
}

/**
 * Validates a whole input file. `pause` is awaited every few hundred lines so a large file does
 * not hold the event loop.
 */
export async function validateInput(
  chunks: Iterable<Uint8Array>,
  limits: Pick<BatchLimits, 'maxRequests' | 'maxLineBytes' | 'maxListedErrors'>,
  pause: () => Promise<void>,
): Promise<ValidationOutcome> {
  const errors: BatchError[] = [];
  const add = (e: BatchError): void => {
    if (errors.length < limits.maxListedErrors) errors.push(e);
  };
  const seen = new Map<string, number>();
  let model: string | null = null;
  let modelLine = 0;
  let total = 0;
  let sinceYield = 0;
  for (const input of splitLines(chunks, limits.maxLineBytes)) {
    if (++sinceYield >= 256) {
      sinceYield = 0;
      await pause();
    }
    if (input.tooLong) {
      total++;
      add(err('line_too_large', `This line is longer than the ${limits.maxLineBytes}-byte limit.`, null, input.line));
      continue;
    }
    if (isBlank(input.text)) continue;
    total++;
    if (total > limits.maxRequests) continue;
    const r = parseRequestLine(input.text, input.line);
    if (!r.ok) {
      add(r.error);
      continue;
    }
    const first = seen.get(r.value.customId);
    if (first !== undefined) {
      add(err('duplicate_custom_id', `The custom_id ${JSON.stringify(r.value.customId)} is already used on line ${first}.`, 'custom_id', input.line));
    } else {
      seen.set(r.value.customId, input.line);
    }
    const m = r.value.body.model as string;
    if (model === null) {
      model = m;
      modelLine = input.line;
    } else if (m !== model) {
      add(err('model_mismatch', `The model ${JSON.stringify(m)} differs from ${JSON.stringify(model)} used on line ${modelLine}; a batch runs one model.`, 'body.model', input.line));
    }
  }
  // File-level errors are listed even past maxListedErrors.
  if (total === 0) errors.push(err('empty_file', 'The input file has no requests.', null, null));
  if (total > limits.maxRequests) {
    errors.push(err('too_many_tasks', `The input file has ${total} requests; the limit is ${limits.maxRequests}.`, null, null));
  }
  return { errors, total, model };
}
