// Worker thread for batch input files (validate-offload.ts, request-reader.ts): chunks of the file
// arrive by message and are split into lines here. A validation checks each line, acknowledges
// each chunk (so the sender keeps only a few in flight) and ends with the outcome; a read (the
// runner taking a validated file's requests back) answers each chunk with the requests it
// completes, so no line is joined or JSON.parse'd on the event loop.
import { parentPort } from 'node:worker_threads';
import { LineSplitter } from './lines.js';
import { InputValidator, type ValidationLimits, type ValidationOutcome } from './validate.js';
import { bodyTransfers, RequestCollector, type ReadOptions, type ReadRequest } from './read-requests.js';

/** A session: `start` (validation) or `read`, its chunks in order, `end`. The thread is kept for
 *  the next one (input-worker.ts), so each session begins afresh. */
export type ToValidator = { start: ValidationLimits } | { read: ReadOptions } | { chunk: Uint8Array } | { end: true };
export type FromValidator =
  | { ready: true }
  | { ack: true }
  | { outcome: ValidationOutcome }
  | { requests: ReadRequest[]; done: boolean }
  | { error: string };

const port = parentPort!;
let splitter: LineSplitter | null = null;
let validator: InputValidator | null = null;
let reader: RequestCollector | null = null;

port.on('message', (m: ToValidator) => {
  try {
    if ('start' in m) {
      splitter = new LineSplitter(m.start.maxLineBytes);
      validator = new InputValidator(m.start);
      reader = null;
    } else if ('read' in m) {
      splitter = new LineSplitter(m.read.maxLineBytes);
      reader = new RequestCollector(m.read);
      validator = null;
    } else if (!splitter || !(validator || reader)) {
      throw new Error('input file data before its start');
    } else {
      const lines = 'chunk' in m ? splitter.push(m.chunk) : splitter.end();
      if (validator) {
        for (const line of lines) validator.line(line);
        port.postMessage(('chunk' in m ? { ack: true } : { outcome: validator.outcome() }) satisfies FromValidator);
      } else if (reader) {
        for (const line of lines) reader.line(line);
        const requests = reader.take();
        // Large lines' bytes move to the loop (no clone of a multi-MiB body there).
        port.postMessage({ requests, done: 'end' in m } satisfies FromValidator, bodyTransfers(requests));
      }
      if ('end' in m) {
        splitter = null;
        validator = null;
        reader = null;
      }
    }
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies FromValidator);
  }
});
// Loaded and listening: a worker started ahead (prestartValidationWorker) is ready for use.
port.postMessage({ ready: true } satisfies FromValidator);
