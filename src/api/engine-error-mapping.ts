// The one place engine failures become catalogue errors: each EngineError kind has its entry in
// src/errors.ts, and `param` names the request field the engine input came from.
import { ApiError, apiError, toApiError } from '../errors.js';
import { EngineError, type EngineFault } from '../engine/engine-errors.js';

/** The request field an engine input comes from (chat messages; embedding inputs). */
const FIELD = { prompt: 'messages', input: 'input', logit_bias: 'logit_bias' } as const;

export function engineApiError(err: EngineError): ApiError {
  const f: EngineFault = err.fault;
  switch (f.kind) {
    case 'context_overflow':
      if (f.tokens === undefined || f.context === undefined) return apiError('context_exceeded', { reason: err.message }, FIELD[f.input]);
      return f.input === 'prompt'
        ? apiError('prompt_exceeds_context', { context: f.context, prompt: 'the prompt', tokens: f.tokens }, FIELD.prompt)
        : apiError('input_exceeds_context', { context: f.context, input: 'an input', tokens: f.tokens }, FIELD.input);
    case 'queue_full': return apiError('queue_full', { waiting: f.waiting });
    case 'kv_exhausted': return apiError('kv_exhausted');
    case 'model_unloaded': return apiError('model_unloaded');
    case 'load_failed': return apiError('model_load_failed', { reason: err.message });
    case 'empty_input': return apiError('input_empty', { input: f.input === 'prompt' ? 'the prompt' : 'an input' }, FIELD[f.input]);
    case 'token_out_of_range': return apiError('token_out_of_vocabulary', { token: f.token, vocabSize: f.vocabSize }, FIELD[f.input]);
    case 'invalid_argument': return apiError('engine_rejected', { reason: err.message });
    // A service that knows which field carried the schema names it first (chat/runner.ts).
    case 'grammar_rejected': return apiError('json_schema_unusable', { field: 'the request', reason: err.message });
    case 'template_rejected': return apiError('template_rejected', { reason: err.message });
    case 'cancelled': return apiError('request_cancelled');
    case 'internal': return apiError('internal');
  }
}

/** Any thrown value as the error the client sees: engine errors by kind, ApiErrors as they are,
 *  anything else as internal_error (its details stay in the log, not the response). */
export function apiErrorOf(err: unknown): ApiError {
  return err instanceof EngineError ? engineApiError(err) : toApiError(err);
}

