// Input-file validation: each line must be a request the batch can run. Codes follow OpenAI's
// batch validation codes (invalid_json_line, duplicate_custom_id, url_mismatch, model_mismatch,
// empty_file, too_many_tasks) plus invalid_request / line_too_large for problems they do not name.
import type { BatchError, BatchLimits } from './types.js';
import { isBlank, splitLines, type InputLine } from './lines.js';

/** Longest run of line work on the event loop before it yields (the target: no hold over 2 ms). */
export const SLICE_MS = 1;

/** Lets the event loop run its other work between slices. */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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

export type ValidationLimits = Pick<BatchLimits, 'maxRequests' | 'maxLineBytes' | 'maxListedErrors'>;

export interface ValidationOutcome {
  errors: BatchError[];
  /** Requests (non-blank lines). */
  total: number;
  model: string | null;
}

/** Validation state across the lines of one file, fed line by line (here or in a worker). */
export class InputValidator {
  private readonly errors: BatchError[] = [];
  private readonly seen = new Map<string, number>();
  private model: string | null = null;
  private modelLine = 0;
  private total = 0;

  constructor(private readonly limits: ValidationLimits) {}

  private add(e: BatchError): void {
    if (this.errors.length < this.limits.maxListedErrors) this.errors.push(e);
  }

  line(input: InputLine): void {
    if (input.tooLong) {
      this.total++;
      this.add(err('line_too_large', `This line is longer than the ${this.limits.maxLineBytes}-byte limit.`, null, input.line));
      return;
    }
    if (isBlank(input.text)) return;
    this.total++;
    if (this.total > this.limits.maxRequests) return;
    const r = parseRequestLine(input.text, input.line);
    if (!r.ok) {
      this.add(r.error);
      return;
    }
    const first = this.seen.get(r.value.customId);
    if (first !== undefined) {
      this.add(err('duplicate_custom_id', `The custom_id ${JSON.stringify(r.value.customId)} is already used on line ${first}.`, 'custom_id', input.line));
    } else {
      this.seen.set(r.value.customId, input.line);
    }
    const m = r.value.body.model as string;
    if (this.model === null) {
      this.model = m;
      this.modelLine = input.line;
    } else if (m !== this.model) {
      this.add(err('model_mismatch', `The model ${JSON.stringify(m)} differs from ${JSON.stringify(this.model)} used on line ${this.modelLine}; a batch runs one model.`, 'body.model', input.line));
    }
  }

  outcome(): ValidationOutcome {
    const errors = [...this.errors];
    // File-level errors are listed even past maxListedErrors.
    if (this.total === 0) errors.push(err('empty_file', 'The input file has no requests.', null, null));
    if (this.total > this.limits.maxRequests) {
      errors.push(err('too_many_tasks', `The input file has ${this.total} requests; the limit is ${this.limits.maxRequests}.`, null, null));
    }
    return { errors, total: this.total, model: this.model };
  }
}

/**
 * Validates a whole input file on this thread. `pause` is awaited whenever a slice has run for
 * SLICE_MS, so a large file does not hold the event loop (one very long line still does: the
 * server validates in a worker, validate-pool.ts).
 */
export async function validateInput(
  chunks: Iterable<Uint8Array>,
  limits: ValidationLimits,
  pause: () => Promise<void>,
): Promise<ValidationOutcome> {
  const v = new InputValidator(limits);
  let sliceStart = performance.now();
  for (const input of splitLines(chunks, limits.maxLineBytes)) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await pause();
      sliceStart = performance.now();
    }
    v.line(input);
  }
  return v.outcome();
}
