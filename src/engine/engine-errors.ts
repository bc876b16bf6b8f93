// Native engine failures (Error.code = ERR_ENGINE_*) as the API's ApiErrors.
import { ApiError, invalidRequest } from '../errors.js';
import { isNativeError, NativeStatus } from '../native/binding.js';

export function overloaded(): ApiError {
  return new ApiError('overloaded', 'The engine has no KV cache memory for this request right now; retry later.', {
    headers: { 'Retry-After': '1' },
  });
}

/** More interactive requests than the engine runs plus the queue limit (--max-queue). */
export function queueFull(maxWaiting: number): ApiError {
  return new ApiError('overloaded', `The server is at capacity: ${maxWaiting} requests are already waiting for this model; retry later.`, {
    headers: { 'Retry-After': '1' },
  });
}

export function contextExceeded(message: string): ApiError {
  return new ApiError('context_length_exceeded', message, { param: 'messages' });
}

export function fromNativeError(e: unknown): ApiError | unknown {
  if (!isNativeError(e)) return e;
  switch (e.code) {
    case 'ERR_ENGINE_OVERLOADED': return overloaded();
    case 'ERR_ENGINE_CONTEXT_LENGTH_EXCEEDED': return contextExceeded(e.message.replace(/^\w+: /, ''));
    case 'ERR_ENGINE_INVALID_ARGUMENT': return invalidRequest(e.message.replace(/^\w+: /, ''));
    case 'ERR_ENGINE_DISPOSED': return new ApiError('model_not_ready', 'The model was unloaded.');
    default: return new ApiError('internal_error', 'internal engine error; safe to retry with backoff');
  }
}

/** The status carried by a failed finish event, as an ApiError. */
export function fromNativeStatus(status: number): ApiError {
  switch (status) {
    case NativeStatus.overloaded: return overloaded();
    case NativeStatus.contextLengthExceeded: return contextExceeded('The prompt does not fit the context window.');
    case NativeStatus.disposed: return new ApiError('model_not_ready', 'The model was unloaded.');
    default: return new ApiError('internal_error', 'internal engine error; safe to retry with backoff');
  }
}
