// Worker thread for batch input validation (validate-offload.ts): chunks of the file arrive by
// message, are split into lines and checked here, and each one is acknowledged so the sender
// keeps only a few in flight. Ends with the outcome.
import { parentPort } from 'node:worker_threads';
import { LineSplitter } from './lines.js';
import { InputValidator, type ValidationLimits, type ValidationOutcome } from './validate.js';

/** One validation: `start`, its chunks in order, `end`. The thread is kept for the next one
 *  (validate-offload.ts), so each `start` begins afresh. */
export type ToValidator = { start: ValidationLimits } | { chunk: Uint8Array } | { end: true };
export type FromValidator = { ready: true } | { ack: true } | { outcome: ValidationOutcome } | { error: string };

const port = parentPort!;
let splitter: LineSplitter | null = null;
let validator: InputValidator | null = null;

port.on('message', (m: ToValidator) => {
  try {
    if ('start' in m) {
      splitter = new LineSplitter(m.start.maxLineBytes);
      validator = new InputValidator(m.start);
    } else if (!splitter || !validator) {
      throw new Error('validation data before its start');
    } else if ('chunk' in m) {
      for (const line of splitter.push(m.chunk)) validator.line(line);
      port.postMessage({ ack: true } satisfies FromValidator);
    } else {
      for (const line of splitter.end()) validator.line(line);
      port.postMessage({ outcome: validator.outcome() } satisfies FromValidator);
      splitter = null;
      validator = null;
    }
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies FromValidator);
  }
});
// Loaded and listening: a worker started ahead (prestartValidationWorker) is ready for use.
port.postMessage({ ready: true } satisfies FromValidator);
