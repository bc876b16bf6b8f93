// Worker thread for batch input files (validate-offload.ts, request-reader.ts): chunks of the file
// arrive by message and are split into lines here. A validation checks each line, acknowledges
// each chunk (so the sender keeps only a few in flight) and ends with the outcome; a read (the
// runner taking a validated file's requests back) answers each chunk with the requests it
// completes, so no line is joined or JSON.parse'd on the event loop.
import { parentPort } from 'node:worker_threads';
import { ChunkReader, MissingChunk, type StoredChunks } from '../store/chunk-reader.js';
import { LineSplitter } from './lines.js';
import { InputValidator, type ValidationLimits, type ValidationOutcome } from './validate.js';
import { bodyTransfers, RequestCollector, type ReadOptions, type ReadRequest } from './read-requests.js';

/** A session: `start` (validation) or `read`, its chunks in order, `end`. The chunks come either
 *  by message (`chunk`), or, when the session names a stored `file`, each `pull` reads the next
 *  one here from LMDB (store/chunk-reader.ts): the loop never copies them. The thread is kept for
 *  the next session (input-worker.ts), so each begins afresh. */
export type ToValidator =
  | { start: ValidationLimits; file?: StoredChunks }
  | { read: ReadOptions; file?: StoredChunks }
  | { chunk: Uint8Array }
  | { pull: true }
  | { end: true }
  /** The session was left early: close the store handle before the thread is ended. */
  | { close: true };
export type FromValidator =
  | { ready: true }
  | { ack: true }
  | { outcome: ValidationOutcome }
  | { requests: ReadRequest[]; done: boolean }
  /** A stored chunk is gone (the file was deleted while read): the same error as reading it on the loop. */
  | { fileError: string }
  | { closed: true }
  | { error: string };

const port = parentPort!;
let splitter: LineSplitter | null = null;
let validator: InputValidator | null = null;
let reader: RequestCollector | null = null;
/** The stored file of this session, and the next chunk a `pull` reads. */
let file: StoredChunks | null = null;
let nextChunk = 0;
/** The read-only store handle of this session: opened at its start, closed at its end (a store
 *  the loop closed and a test removed is not held open by an idle worker). */
let store: ChunkReader | null = null;

function useFile(f: StoredChunks | undefined): void {
  closeStore();
  file = f ?? null;
  nextChunk = 0;
  if (f) store = new ChunkReader(f.path);
}

function closeStore(): void {
  const s = store;
  store = null;
  void s?.close().catch(() => undefined);
}

/** The session is over (its end, or left early): nothing of it is kept, its store handle closed. */
function endSession(): void {
  splitter = null;
  validator = null;
  reader = null;
  file = null;
  closeStore();
}

function pulled(): Uint8Array {
  if (!file) throw new Error('pull without a stored file');
  return store!.chunk(file, nextChunk++);
}

port.on('message', (m: ToValidator) => {
  try {
    if ('close' in m) {
      endSession();
      port.postMessage({ closed: true } satisfies FromValidator);
      return;
    }
    if ('start' in m) {
      splitter = new LineSplitter(m.start.maxLineBytes);
      validator = new InputValidator(m.start);
      reader = null;
      useFile(m.file);
    } else if ('read' in m) {
      splitter = new LineSplitter(m.read.maxLineBytes);
      reader = new RequestCollector(m.read);
      validator = null;
      useFile(m.file);
    } else if (!splitter || !(validator || reader)) {
      throw new Error('input file data before its start');
    } else {
      const lines = 'chunk' in m ? splitter.push(m.chunk) : 'pull' in m ? splitter.push(pulled()) : splitter.end();
      if (validator) {
        for (const line of lines) validator.line(line);
        port.postMessage(('end' in m ? { outcome: validator.outcome() } : { ack: true }) satisfies FromValidator);
      } else if (reader) {
        for (const line of lines) reader.line(line);
        const requests = reader.take();
        // Large lines' bytes move to the loop (no clone of a multi-MiB body there).
        port.postMessage({ requests, done: 'end' in m } satisfies FromValidator, bodyTransfers(requests));
      }
      if ('end' in m) endSession();
    }
  } catch (e) {
    closeStore();
    if (e instanceof MissingChunk) {
      port.postMessage({ fileError: e.message } satisfies FromValidator);
      return;
    }
    port.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies FromValidator);
  }
});
// Loaded and listening: a worker started ahead (prestartValidationWorker) is ready for use.
port.postMessage({ ready: true } satisfies FromValidator);
