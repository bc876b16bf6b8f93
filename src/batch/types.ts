// The seams the batch runner is built from; the Batch record itself is src/store/batch-record.ts.

export { TERMINAL_STATUSES, type BatchError, type BatchObject, type BatchStatus, type BatchUsage } from '../store/batch-record.js';
import type { BatchError, BatchObject } from '../store/batch-record.js';

/** What running one input line produced: the HTTP status and JSON body the endpoint answered. */
export interface ExecutorResult {
  statusCode: number;
  body: unknown;
}

/**
 * A request body the batch layer did not parse for the loop: an input line of at least
 * `BatchLimits.unparsedLineChars` characters. Parsing it in the input worker and posting the body
 * would cost the loop a structured clone of the whole line (31-259 ms at 8 MiB); instead the line's
 * UTF-8 bytes move here (a transferred ArrayBuffer) and the executor parses them off the loop.
 * `line` is the whole input line (a JSON object whose `body` member is the request; the BOM and a
 * trailing CR already dropped), `model` its body.model, read in the input worker.
 */
export interface UnparsedBody {
  readonly unparsed: 'batch-line';
  readonly line: Uint8Array;
  readonly model: string;
}

export function isUnparsedBody(body: unknown): body is UnparsedBody {
  return typeof body === 'object' && body !== null && (body as { unparsed?: unknown }).unparsed === 'batch-line';
}

/**
 * Runs one chat-completion request body exactly as POST /v1/chat/completions would (non-streaming).
 * Injected so the runner does not depend on the chat layer; `priority: 'batch'` lets the engine
 * put live traffic first. Throwing is allowed: the runner turns it into a 500 line.
 */
export type ChatExecutor = (
  body: Record<string, unknown> | UnparsedBody,
  opts: { signal: AbortSignal; requestId: string; priority: 'batch' },
) => Promise<ExecutorResult>;

/** Wall clock in milliseconds; injectable so tests can run the 24 h window without waiting. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Every limit of the batch subsystem, explicit. */
export interface BatchLimits {
  /** Requests per input file (OpenAI: 50,000). */
  maxRequests: number;
  /** Bytes of one input line. */
  maxLineBytes: number;
  /** Lines at least this many characters long reach the executor as their bytes (UnparsedBody). */
  unparsedLineChars: number;
  /** Validation errors listed in `errors.data` (the batch fails on the first; the rest help the user). */
  maxListedErrors: number;
  /** Requests of all batches running at once. */
  concurrency: number;
  /** Batches executing at once; the rest wait in `validating`. */
  maxActiveBatches: number;
  /** How often the runner looks at the clock for expired windows. */
  expiryCheckMs: number;
  /**
   * After a cancel or the window's close, how long in-flight requests may run on. Past it they
   * are aborted and go to the error file like requests that never ran (OpenAI: up to 10 min).
   */
  drainTimeoutMs: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = {
  maxRequests: 50_000,
  maxLineBytes: 8 * 1024 * 1024,
  unparsedLineChars: 256 * 1024,
  maxListedErrors: 100,
  concurrency: 8,
  maxActiveBatches: 4,
  expiryCheckMs: 1000,
  drainTimeoutMs: 10 * 60 * 1000,
};

export const COMPLETION_WINDOW_SECONDS = 24 * 60 * 60;
