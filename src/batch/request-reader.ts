// Reading a validated input file's requests back (runner.ts: to launch them, and to name the ones
// that never ran in the error file). The chunks move to the input worker (validate-worker.ts),
// which splits and parses them and answers each with the requests it completes; this thread reads
// chunks and posts them, at most IN_FLIGHT ahead of what the caller has taken, so neither the join
// of a long line nor its JSON.parse runs on the loop (a line may be 8 MiB). Without the compiled
// worker, or when it fails, the rest is read here in 1 ms slices.
import { IN_FLIGHT, InputWorkerSession, postChunk, validatesOffThread, VALIDATE_WORKER_FILE, WorkerFailure } from './input-worker.js';
import { splitLines } from './lines.js';
import { RequestCollector, type ReadOptions, type ReadRequest } from './read-requests.js';
import { SLICE_MS, yieldToLoop } from './validate.js';
import type { ToValidator } from './validate-worker.js';

/** The file's requests in line order; stopping early (leaving the loop) ends the read. */
export async function* readRequests(
  readChunks: () => Iterable<Uint8Array>,
  o: ReadOptions,
  onWorkerFailure?: (err: Error) => void,
  workerFile = VALIDATE_WORKER_FILE,
): AsyncGenerator<ReadRequest> {
  let after = 0;
  if (validatesOffThread()) {
    try {
      for await (const r of readInWorker(workerFile, readChunks(), o)) {
        after = r.line;
        yield r;
      }
      return;
    } catch (err) {
      if (!(err instanceof WorkerFailure)) throw err; // reading the file failed: no second try
      onWorkerFailure?.(err);
    }
  }
  yield* readHere(readChunks(), o, after);
}

/** The requests of lines after line `after`, read on this thread. */
async function* readHere(chunks: Iterable<Uint8Array>, o: ReadOptions, after: number): AsyncGenerator<ReadRequest> {
  const collector = new RequestCollector(o);
  let sliceStart = performance.now();
  for (const line of splitLines(chunks, o.maxLineBytes)) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await yieldToLoop();
      sliceStart = performance.now();
    }
    if (line.line <= after) continue;
    collector.line(line);
    yield* collector.take();
  }
}

async function* readInWorker(file: string, chunks: Iterable<Uint8Array>, o: ReadOptions): AsyncGenerator<ReadRequest> {
  const received: ReadRequest[][] = [];
  let inFlight = 0;
  let done = false;
  const session = new InputWorkerSession(
    file,
    'batch input worker',
    (m) => {
      if ('requests' in m) {
        inFlight--;
        received.push(m.requests);
        done = m.done;
      }
    },
    () => done,
  );
  session.worker.postMessage({ read: o } satisfies ToValidator);
  const source = chunks[Symbol.iterator]();
  let posted = false;
  let clean = false;
  try {
    for (;;) {
      while (!posted && inFlight < IN_FLIGHT) {
        const next = source.next();
        inFlight++;
        if (next.done) {
          posted = true;
          session.worker.postMessage({ end: true } satisfies ToValidator);
        } else {
          postChunk(session.worker, next.value);
        }
      }
      // What the worker sent is yielded before its failure is thrown: the caller reads on from there.
      const batch = received.shift();
      if (batch) {
        yield* batch;
        continue;
      }
      if (done) break;
      if (session.failure) throw session.failure;
      await session.next();
    }
    clean = inFlight === 0;
  } finally {
    session.end(clean); // left early (the caller stopped) or failed: the worker is ended
  }
}
