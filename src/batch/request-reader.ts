// Reading a validated input file's requests back (runner.ts: to launch them, and to name the ones
// that never ran in the error file). The input worker (validate-worker.ts) reads the stored file's
// chunks from LMDB itself (store/chunk-reader.ts), splits and parses them and answers each with the
// requests it completes; this thread tells it to read the next chunk, at most IN_FLIGHT ahead of
// what the caller has taken, so neither a chunk's copy, the join of a long line nor its JSON.parse
// runs on the loop (a line may be 8 MiB). Chunks given as an iterable (tests) are read here and
// posted. Without the compiled worker, or when it fails, the rest is read here in 1 ms slices.
import { chunkPosts, IN_FLIGHT, InputWorkerSession, readHere as readChunksHere, storedFile, validatesOffThread, VALIDATE_WORKER_FILE, WorkerFailure, type InputChunks } from './input-worker.js';
import { splitLines } from './lines.js';
import { RequestCollector, type ReadOptions, type ReadRequest } from './read-requests.js';
import { SLICE_MS, yieldToLoop } from './validate.js';
import type { ToValidator } from './validate-worker.js';

/** The file's requests in line order; stopping early (leaving the loop) ends the read. */
export async function* readRequests(
  input: InputChunks,
  o: ReadOptions,
  onWorkerFailure?: (err: Error) => void,
  workerFile = VALIDATE_WORKER_FILE,
): AsyncGenerator<ReadRequest> {
  let after = 0;
  if (validatesOffThread()) {
    try {
      for await (const r of readInWorker(workerFile, input, o)) {
        after = r.line;
        yield r;
      }
      return;
    } catch (err) {
      if (!(err instanceof WorkerFailure)) throw err; // reading the file failed: no second try
      onWorkerFailure?.(err);
    }
  }
  yield* readHere(readChunksHere(input), o, after);
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

async function* readInWorker(file: string, input: InputChunks, o: ReadOptions): AsyncGenerator<ReadRequest> {
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
  session.worker.postMessage({ read: o, file: storedFile(input) } satisfies ToValidator);
  const posts = chunkPosts(session.worker, input);
  let posted = false;
  let clean = false;
  try {
    for (;;) {
      while (!posted && inFlight < IN_FLIGHT) {
        inFlight++;
        if (posts.next().done) {
          posted = true;
          session.worker.postMessage({ end: true } satisfies ToValidator);
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
