// The engine's failures, in the engine's own terms: an EngineError says what went wrong (the
// prompt does not fit, the queue is full, ...) and nothing of HTTP. The API layer turns each kind
// into a catalogue error (src/api/engine-error-mapping.ts). Native errors (Error.code = ERR_ENGINE_*)
// and failed finish events become EngineErrors here.
import { isNativeError, NativeStatus } from '../native/binding.js';

/** What the engine was handed: a generation's prompt or an embedding input. */
export type EngineInput = 'prompt' | 'input';

export type EngineFault =
  /** tokens/context when the engine side counted them (absent: the native engine said so). */
  | { kind: 'context_overflow'; input: EngineInput; tokens?: number; context?: number }
  /** More interactive requests than the engine runs plus the queue limit (--max-queue). */
  | { kind: 'queue_full'; waiting: number }
  /** No KV cache memory for the request right now. */
  | { kind: 'kv_exhausted' }
  | { kind: 'model_unloaded' }
  | { kind: 'load_failed' }
  | { kind: 'empty_input'; input: EngineInput }
  | { kind: 'token_out_of_range'; input: EngineInput | 'logit_bias'; token: number | string; vocabSize: number }
  /** An argument the engine cannot run (draft options, KV block shapes, a native check). */
  | { kind: 'invalid_argument' }
  /** A JSON schema the grammar compiler refuses; the message says why. */
  | { kind: 'grammar_rejected' }
  /** The model's chat template raised on the messages; the message is its reason. */
  | { kind: 'template_rejected' }
  | { kind: 'cancelled' }
  | { kind: 'internal' };

export type EngineErrorKind = EngineFault['kind'];

export class EngineError extends Error {
  constructor(
    readonly fault: EngineFault,
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }

  get kind(): EngineErrorKind {
    return this.fault.kind;
  }
}

/** A native error as an EngineError; anything else is returned as it is. */
export function fromNativeError(e: unknown): unknown {
  if (!isNativeError(e)) return e;
  const reason = e.message.replace(/^\w+: /, '');
  switch (e.code) {
    case 'ERR_ENGINE_OVERLOADED': return new EngineError({ kind: 'kv_exhausted' }, reason);
    case 'ERR_ENGINE_CONTEXT_LENGTH_EXCEEDED': return new EngineError({ kind: 'context_overflow', input: 'prompt' }, reason);
    case 'ERR_ENGINE_INVALID_ARGUMENT':
      return reason.startsWith('grammar: ')
        ? new EngineError({ kind: 'grammar_rejected' }, reason.slice('grammar: '.length))
        : new EngineError({ kind: 'invalid_argument' }, reason);
    case 'ERR_ENGINE_DISPOSED': return new EngineError({ kind: 'model_unloaded' }, 'the model was unloaded');
    default: return new EngineError({ kind: 'internal' }, e.message);
  }
}

/** The status carried by a failed finish event, as an EngineError. */
export function fromNativeStatus(status: number): EngineError {
  switch (status) {
    case NativeStatus.overloaded: return new EngineError({ kind: 'kv_exhausted' }, 'no KV cache memory for the sequence');
    case NativeStatus.contextLengthExceeded: return new EngineError({ kind: 'context_overflow', input: 'prompt' }, 'the prompt does not fit the context window');
    case NativeStatus.disposed: return new EngineError({ kind: 'model_unloaded' }, 'the model was unloaded');
    default: return new EngineError({ kind: 'internal' }, `the sequence failed with engine status ${status}`);
  }
}

/** An EngineError sent across a worker boundary (structured clone keeps plain objects only). */
export interface EngineErrorSpec {
  fault: EngineFault;
  message: string;
}

export function engineErrorSpec(e: EngineError): EngineErrorSpec {
  return { fault: e.fault, message: e.message };
}

export function reviveEngineError(spec: EngineErrorSpec): EngineError {
  return new EngineError(spec.fault, spec.message);
}
