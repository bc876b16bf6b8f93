// Worker thread for batch input validation (validate-offload.ts): chunks of the file arrive by
// message, are split into lines and checked here, and each one is acknowledged so the sender
// keeps only a few in flight. Ends with the outcome.
import { parentPort, workerData } from 'node:worker_threads';
import { markBackgroundThread } from '../engine/background-nice.js';
import { LineSplitter } from './lines.js';
import { InputValidator, type ValidationLimits, type ValidationOutcome } from './validate.js';

export type ToValidator = { chunk: Uint8Array } | { end: true };
export type FromValidator = { ack: true } | { outcome: ValidationOutcome } | { error: string };

// Validation is background work: the loop and the engine go first (background-nice.ts).
markBackgroundThread();
const port = parentPort!;
const limits = workerData as ValidationLimits;
const splitter = new LineSplitter(limits.maxLineBytes);
const validator = new InputValidator(limits);

port.on('message', (m: ToValidator) => {
  try {
    if ('chunk' in m) {
      for (const line of splitter.push(m.chunk)) validator.line(line);
      port.postMessage({ ack: true } satisfies FromValidator);
    } else {
      for (const line of splitter.end()) validator.line(line);
      port.postMessage({ outcome: validator.outcome() } satisfies FromValidator);
    }
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies FromValidator);
  }
});
