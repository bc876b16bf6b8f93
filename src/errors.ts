// The one error catalogue: every failure that reaches a client is an ApiError with a code from
// this table; each wire format (OpenAI, Anthropic, prediction) renders it in its own envelope.

export type ErrorCode =
  | 'invalid_request_error'
  | 'unauthorized'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_too_large'
  | 'rate_limited'
  | 'context_length_exceeded'
  | 'overloaded'
  | 'model_not_ready'
  | 'internal_error';

interface CatalogueEntry {
  status: number;
  /** OpenAI `error.type`. */
  openaiType: string;
  /** Anthropic `error.type` (the SDK's ErrorType union). */
  anthropicType: string;
  /** The status Anthropic uses for it where it differs (529 for overloaded_error). */
  anthropicStatus?: number;
}

export const ERROR_CATALOGUE: Record<ErrorCode, CatalogueEntry> = {
  invalid_request_error: { status: 400, openaiType: 'invalid_request_error', anthropicType: 'invalid_request_error' },
  context_length_exceeded: { status: 400, openaiType: 'invalid_request_error', anthropicType: 'invalid_request_error' },
  unauthorized: { status: 401, openaiType: 'authentication_error', anthropicType: 'authentication_error' },
  not_found: { status: 404, openaiType: 'not_found_error', anthropicType: 'not_found_error' },
  method_not_allowed: { status: 405, openaiType: 'invalid_request_error', anthropicType: 'invalid_request_error' },
  request_too_large: { status: 413, openaiType: 'invalid_request_error', anthropicType: 'request_too_large' },
  rate_limited: { status: 429, openaiType: 'rate_limit_error', anthropicType: 'rate_limit_error' },
  internal_error: { status: 500, openaiType: 'api_error', anthropicType: 'api_error' },
  overloaded: { status: 503, openaiType: 'server_error', anthropicType: 'overloaded_error', anthropicStatus: 529 },
  model_not_ready: { status: 503, openaiType: 'server_error', anthropicType: 'overloaded_error', anthropicStatus: 529 },
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | null;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, opts: { param?: string | null; headers?: Record<string, string>; status?: number } = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = opts.status ?? ERROR_CATALOGUE[code].status;
    this.param = opts.param ?? null;
    this.headers = opts.headers ?? {};
  }
}

export function invalidRequest(message: string, param: string | null = null): ApiError {
  return new ApiError('invalid_request_error', message, { param });
}

export function notFound(message: string): ApiError {
  return new ApiError('not_found', message);
}

/** Any thrown value as an ApiError; unknown faults become 500 without leaking internals. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError('internal_error', 'internal error; safe to retry with backoff');
}

/** Main API envelope (SPEC.md), with OpenAI's `type` and `param` so the openai SDK maps it fully. */
export function openaiErrorBody(err: ApiError): unknown {
  return { error: { code: err.code, message: err.message, type: ERROR_CATALOGUE[err.code].openaiType, param: err.param } };
}

/** Anthropic envelope plus SPEC.md's `error.code`, for /v1/messages routes. */
export function anthropicErrorBody(err: ApiError, requestId: string): unknown {
  return {
    type: 'error',
    error: { type: ERROR_CATALOGUE[err.code].anthropicType, code: err.code, message: err.message },
    request_id: requestId,
  };
}

/** Prediction service envelope. */
export function predictErrorBody(err: ApiError): unknown {
  return { detail: err.message };
}
