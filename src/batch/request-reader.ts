// Reading a validated input file's requests back (runner.ts: to launch them, and to name the ones
// that never ran in the error file). The chunks move to the input worker (validate-worker.ts),
// which splits and parses them and answers each with the requests it completes; this thread reads
// chunks and posts them, at most IN_FLIGHT ahead of what the caller has taken, so neither the join
// of a long line nor its JSON.parse runs on the loop (a line may be 8 MiB). Without the compiled
// worker, or when it fails, the rest is read here in 1 ms slices.
import type { Worker } from 'node:worker_threads';
import { splitLines } from './lines.js';
import { RequestCollector, type ReadOptions, type ReadRequest } from './read-requests.js';
import { SLICE_MS, yieldToLoop } from './validate.js';
import { IN_FLIGHT, keepWorker, postChunk, takeWorker, validatesOffThread, VALIDATE_WORKER_FILE, WorkerFailure } from './validate-offload.js';
import type { FromValidator, ToValidator } from './validate-worker.js';

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
  const worker: Worker = takeWorker(file);
  worker.postMessage({ read: o } satisfies ToValidator);
  const received: ReadRequest[][] = [];
  let inFlight = 0;
  let done = false;
  let exited = false;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const signal = (): void => {
    const w = wake;
    wake = null;
    w?.();
  };
  const onMessage = (m: FromValidator): void => {
    if ('requests' in m) {
      inFlight--;
      received.push(m.requests);
      done = m.done;
    } else if ('error' in m) {
      failure = new WorkerFailure(`batch input worker: ${m.error}`);
    }
    signal();
  };
  const onError = (e: Error): void => {
    failure = new WorkerFailure(`batch input worker: ${e.message}`);
    signal();
  };
  const onExit = (code: number): void => {
    exited = true;
    failure ??= done ? null : new WorkerFailure(`batch input worker exited (${code})`);
    signal();
  };
  worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  const source = chunks[Symbol.iterator]();
  let posted = false;
  let reusable = false;
  try {
    for (;;) {
      while (!posted && inFlight < IN_FLIGHT) {
        const next = source.next();
        inFlight++;
        if (next.done) {
          posted = true;
          worker.postMessage({ end: true } satisfies ToValidator);
        } else {
          postChunk(worker, next.value);
        }
      }
      const batch = received.shift();
      if (batch) {
        yield* batch;
        continue;
      }
      if (done) break;
      if (failure) throw failure;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    reusable = failure === null && !exited && inFlight === 0;
  } finally {
    // Left early (the caller stopped) or failed: the worker may still hold chunks; end it.
    if (reusable) {
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      keepWorker(worker, file);
    } else void worker.terminate();
  }
}
