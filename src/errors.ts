// The one error catalogue. Two tables:
// - ERROR_CATALOGUE: the wire codes (`error.code`), each with its status and its `type` in the
//   OpenAI and Anthropic envelopes; the README's error table lists exactly these.
// - ERROR_MESSAGES: every error a client can get, by name: its wire code and its message template
//   with named {placeholders}. apiError(name, params) is the only way to make one; TypeScript
//   checks that params names exactly the template's placeholders.
// The engine throws its own EngineErrors (src/engine/engine-errors.ts); the API layer maps them
// onto entries here (src/api/engine-error-mapping.ts).

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

type Params = Readonly<Record<string, string | number>>;

interface MessageEntry {
  code: ErrorCode;
  /** The message, with {name} placeholders filled from the params. */
  template: string;
  /** `param` (the field at fault, OpenAI envelope) when the call site names none. */
  param?: string;
  /** Response headers the error carries (Retry-After, Allow, WWW-Authenticate). */
  headers?: (p: Params) => Record<string, string>;
}

const RETRY_SOON = (): Record<string, string> => ({ 'Retry-After': '1' });
const BEARER = (): Record<string, string> => ({ 'www-authenticate': 'Bearer' });

/** Where the wording follows OpenAI's or Anthropic's own answer, clients and tests may match it:
 *  keep those texts as they are. */
export const ERROR_MESSAGES = {
  // --- transport (src/http) ---
  missing_api_key: { code: 'unauthorized', template: 'missing API key: send `Authorization: Bearer <key>` or `x-api-key: <key>`', headers: BEARER },
  invalid_api_key: { code: 'unauthorized', template: 'invalid API key', headers: BEARER },
  rate_limited: {
    code: 'rate_limited',
    template: 'rate limit exceeded; retry after {seconds} s',
    headers: (p) => ({ 'retry-after': String(p.seconds) }),
  },
  no_route: { code: 'not_found', template: 'no route for {method} {path}' },
  method_not_allowed: { code: 'method_not_allowed', template: 'method {method} is not allowed on {path}; allowed: {allow}', headers: (p) => ({ allow: String(p.allow) }) },
  body_too_large: { code: 'request_too_large', template: 'request body exceeds the limit of {limit} bytes' },
  body_empty: { code: 'invalid_request_error', template: 'request body is empty; expected a JSON document' },
  body_not_json: { code: 'invalid_request_error', template: 'request body is not valid JSON: {reason}' },
  body_not_object: { code: 'invalid_request_error', template: 'request body must be a JSON object' },
  shutting_down: { code: 'overloaded', template: 'the server is shutting down; retry the request' },
  internal: { code: 'internal_error', template: 'internal error; safe to retry with backoff' },

  // --- fields: a validator's finding (zod's issue, the apply markers, the multipart parser) and
  //     the hand-written checks the schemas cannot express ---
  invalid_field: { code: 'invalid_request_error', template: '{field}: {problem}' },
  field_requirement: { code: 'invalid_request_error', template: '{field} must be {requirement}' },
  field_requires: { code: 'invalid_request_error', template: '{field} requires {condition}' },
  max_tokens_conflict: { code: 'invalid_request_error', template: "Setting 'max_tokens' and 'max_completion_tokens' at the same time is not supported.", param: 'max_tokens' },
  too_many_inputs: { code: 'invalid_request_error', template: 'at most {max} {items} per request; got {count}' },
  // "{feature}: not supported": the feature may be singular or plural.
  unsupported: { code: 'invalid_request_error', template: '{feature}: not supported by this server' },
  unsupported_use_instead: { code: 'invalid_request_error', template: '{feature}: not supported by this server; {instead}' },
  modality_unsupported: { code: 'invalid_request_error', template: 'this model has no {modality} support: {content} is not accepted' },

  // --- models and inputs ---
  unknown_model: { code: 'not_found', template: "The model '{model}' does not exist or is not loaded", param: 'model' },
  model_cannot_embed: { code: 'invalid_request_error', template: "the model '{model}' cannot produce embeddings", param: 'model' },
  apply_model_on_messages: {
    code: 'invalid_request_error',
    template: "model '{model}' is served by /v1/chat/completions only; /v1/messages serves the open-source chat models",
    param: 'model',
  },
  input_empty: { code: 'invalid_request_error', template: '{input} is empty' },
  token_out_of_vocabulary: { code: 'invalid_request_error', template: 'token id {token} is not in the vocabulary (size {vocabSize})' },

  // --- the context window ---
  prompt_exceeds_context: {
    code: 'context_length_exceeded',
    template: "This model's maximum context length is {context} tokens. However, {prompt} resulted in {tokens} tokens, leaving no room for a completion.",
  },
  input_exceeds_context: { code: 'context_length_exceeded', template: "This model's maximum context length is {context} tokens; {input} has {tokens}." },
  max_tokens_exceeds_context: {
    code: 'context_length_exceeded',
    template: "{field} is too large: this model's maximum context length is {context} tokens and your messages use {tokens}, so {field} may be at most {room} (got {requested}).",
  },
  prompt_window_empty: {
    code: 'context_length_exceeded',
    template: "no event of the prompt fits the model's context of {context} tokens with max_tokens {maxTokens}",
    param: 'prompt',
  },
  context_exceeded: { code: 'context_length_exceeded', template: "the request does not fit the model's context: {reason}", param: 'messages' },

  // --- conversation structure, as the Chat Completions API words it ---
  tool_message_orphan: { code: 'invalid_request_error', template: "messages with role 'tool' must be a response to a preceding message with 'tool_calls'" },
  tool_call_id_unknown: {
    code: 'invalid_request_error',
    template: "tool_call_id '{id}' was not found in the 'tool_calls' of the preceding assistant message (or was answered already)",
  },
  tool_calls_unanswered: {
    code: 'invalid_request_error',
    template:
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}",
  },
  tool_call_id_duplicate: { code: 'invalid_request_error', template: "duplicate tool_call id '{id}' in one assistant message" },
  assistant_content_missing: { code: 'invalid_request_error', template: "{at}: an assistant message needs 'content' unless it has 'tool_calls'" },

  // --- conversation structure, as the Messages API words it ---
  tool_use_id_duplicate: { code: 'invalid_request_error', template: '{at}: `tool_use` ids must be unique: {id}' },
  tool_result_unexpected: {
    code: 'invalid_request_error',
    template:
      '{at}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
  },
  tool_result_duplicate: {
    code: 'invalid_request_error',
    template: '{at}: each `tool_use` must have a single result. Found multiple `tool_result` blocks with id: {id}',
  },
  tool_use_unanswered: {
    code: 'invalid_request_error',
    template:
      '{at}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
  },
  message_content_empty: {
    code: 'invalid_request_error',
    template: '{at}: all messages must have non-empty content except for the optional final assistant message',
  },
  text_block_empty: { code: 'invalid_request_error', template: 'text content blocks must be non-empty' },
  block_in_wrong_role: { code: 'invalid_request_error', template: '{block} blocks belong in {role} messages' },
  prefill_trailing_whitespace: { code: 'invalid_request_error', template: 'final assistant content cannot end with trailing whitespace' },
  thinking_with_forced_tool: { code: 'invalid_request_error', template: 'Thinking may not be enabled when tool_choice forces tool use.', param: 'tool_choice' },

  // --- tools and output constraints ---
  duplicate_tool_name: { code: 'invalid_request_error', template: "duplicate tool name '{name}'" },
  tool_choice_without_tools: { code: 'invalid_request_error', template: "tool_choice '{choice}' needs a non-empty tools list", param: 'tool_choice' },
  tool_choice_unknown_tool: { code: 'invalid_request_error', template: "{field} names '{name}', which is not in tools", param: 'tool_choice' },
  tool_parameters_not_object: {
    code: 'invalid_request_error',
    template: "Invalid schema for function '{name}': schema must be a JSON Schema of 'type: \"object\"', got 'type: {type}'.",
  },
  conflicts_with_forced_tool: { code: 'invalid_request_error', template: '{feature} cannot be combined with a forced tool_choice' },
  json_schema_too_deep: { code: 'invalid_request_error', template: '{field}: the JSON schema is nested more than {max} levels deep' },
  json_schema_unusable: { code: 'invalid_request_error', template: '{field}: the JSON schema cannot be used: {reason}' },
  template_rejected: { code: 'invalid_request_error', template: 'chat template rejected the messages: {reason}', param: 'messages' },

  // --- files and batches ---
  unknown_file: { code: 'not_found', template: "No file with id '{id}'." },
  unknown_batch: { code: 'not_found', template: "No batch with id '{id}'." },
  input_file_missing: { code: 'invalid_request_error', template: "No file with id '{id}'.", param: 'input_file_id' },
  input_file_wrong_purpose: {
    code: 'invalid_request_error',
    template: "File {id} has purpose '{purpose}'; a batch input file must have purpose 'batch'.",
    param: 'input_file_id',
  },
  batch_not_cancellable: { code: 'invalid_request_error', template: "Cannot cancel batch {id}: its status is '{status}'." },
  file_in_use: { code: 'invalid_request_error', template: 'File {id} is the input of a batch that has not finished.', param: 'file_id' },
  file_too_large: { code: 'request_too_large', template: 'the file exceeds the {limit}-byte file limit' },
  upload_not_multipart: { code: 'invalid_request_error', template: 'Content-Type must be multipart/form-data with a boundary.' },

  // --- the prediction service ---
  prompt_line_not_json: { code: 'invalid_request_error', template: 'prompt line {line}: not valid JSON', param: 'prompt' },
  prompt_line_not_event: {
    code: 'invalid_request_error',
    template: 'prompt line {line}: not an event object (needs an integer "type" and an object "data")',
    param: 'prompt',
  },
  prompt_no_events: { code: 'invalid_request_error', template: 'prompt: needs at least one event line', param: 'prompt' },
  predict_stream_unsupported: { code: 'invalid_request_error', template: 'stream: streaming is not implemented for /v1/predict; send stream: false', param: 'stream' },
  kv_prefill_malformed: { code: 'invalid_request_error', template: 'body: not a msgpack prefill request with tokens (bytes), fromBlock (integer >= 0) and fingerprint' },
  kv_fingerprint_mismatch: { code: 'invalid_request_error', template: 'fingerprint: the decoder runs a different model than this prefiller', param: 'fingerprint' },
  kv_export_unsupported: { code: 'internal_error', template: 'this engine cannot export KV blocks' },
  model_loading: { code: 'model_not_ready', template: 'the model is still loading; retry shortly' },

  // --- capacity and the engine's own failures (EngineError kinds, mapped by src/api/engine-error-mapping.ts) ---
  queue_full: {
    code: 'overloaded',
    template: 'The server is at capacity: {waiting} requests are already waiting for this model; retry later.',
    headers: RETRY_SOON,
  },
  kv_exhausted: { code: 'overloaded', template: 'The engine has no KV cache memory for this request right now; retry later.', headers: RETRY_SOON },
  apply_workers_busy: { code: 'overloaded', template: 'the apply workers are busy; retry with backoff' },
  model_unloaded: { code: 'model_not_ready', template: 'the model was unloaded' },
  model_load_failed: { code: 'model_not_ready', template: 'the model could not be loaded: {reason}' },
  engine_rejected: { code: 'invalid_request_error', template: 'the engine rejected the request: {reason}' },
  request_cancelled: { code: 'invalid_request_error', template: 'the request was cancelled' },
} as const satisfies Record<string, MessageEntry>;

export type ErrorName = keyof typeof ERROR_MESSAGES;

/** The {placeholders} of a template, as a union of their names. */
type Placeholders<T extends string> = T extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
type PlaceholdersOf<N extends ErrorName> = Placeholders<(typeof ERROR_MESSAGES)[N]['template']>;

/** The params an error's template needs: exactly its placeholders. */
export type ErrorParams<N extends ErrorName> = { readonly [P in PlaceholdersOf<N>]: string | number };

/** An error with no placeholders takes no params; otherwise exactly its template's. The last
 *  argument is `param`, the field at fault (OpenAI envelope), when it is not the entry's own. */
type ErrorArgs<N extends ErrorName> = [PlaceholdersOf<N>] extends [never]
  ? [params?: Record<string, never>, param?: string | null]
  : [params: ErrorParams<N>, param?: string | null];

/** What an ApiError is made of: enough to send it across a worker boundary and make it again. */
export interface ApiErrorSpec {
  name: ErrorName;
  params: Params;
  param: string | null;
}

function renderTemplate(template: string, params: Params): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
}

const MAKE: unique symbol = Symbol('ApiError');

export class ApiError extends Error {
  /** The catalogue entry it was made from. */
  readonly error: ErrorName;
  readonly params: Params;
  readonly code: ErrorCode;
  readonly status: number;
  readonly param: string | null;
  /** Extra response headers, e.g. Retry-After on 429. */
  readonly headers: Record<string, string>;

  /** Only apiError() and reviveApiError() make these (the token is this module's): the message
   *  comes from the catalogue. */
  constructor(token: typeof MAKE, spec: ApiErrorSpec) {
    const entry: MessageEntry = ERROR_MESSAGES[spec.name];
    super(renderTemplate(entry.template, spec.params));
    if (token !== MAKE) throw new TypeError('ApiError: use apiError() from the catalogue');
    this.name = 'ApiError';
    this.error = spec.name;
    this.params = spec.params;
    this.code = entry.code;
    this.status = ERROR_CATALOGUE[entry.code].status;
    this.param = spec.param ?? entry.param ?? null;
    this.headers = entry.headers?.(spec.params) ?? {};
  }

  /** The spec it was made from (structured-clone safe). */
  get spec(): ApiErrorSpec {
    return { name: this.error, params: this.params, param: this.param };
  }
}

/** The one way to make an error a client sees: a catalogue entry and its template's params. */
export function apiError<N extends ErrorName>(name: N, ...args: ErrorArgs<N>): ApiError {
  const [params, param] = args;
  return new ApiError(MAKE, { name, params: params ?? {}, param: param ?? null });
}

/** An ApiError sent across a worker boundary as its spec; an unknown name becomes internal. */
export function reviveApiError(spec: ApiErrorSpec): ApiError {
  return Object.prototype.hasOwnProperty.call(ERROR_MESSAGES, spec.name) ? new ApiError(MAKE, spec) : apiError('internal');
}

/** Any thrown value as an ApiError; unknown faults become 500 without leaking internals. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return apiError('internal');
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
