// The batch lifecycle: validating → in_progress → finalizing → completed (or failed, expired,
// cancelling → cancelled). One job per running batch; requests of all batches share one
// concurrency limit and run at 'batch' priority. Every result is committed (with its counters)
// before the request counts as done, so a restart resumes with exactly the lines that have no
// result yet: nothing is lost and nothing runs twice.
import { openaiErrorBody, toApiError } from '../errors.js';
import { randomId } from '../store/ids.js';
import { RESULT_SCHEMA_VERSION } from '../store/records.js';
import type { BatchStore } from '../store/batches.js';
import type { FileStore, FileWriter } from '../store/files.js';
import type { FileRecord } from '../store/records.js';
import { readRequests } from './request-reader.js';
import type { ReadRequest } from './read-requests.js';
import { Semaphore } from './semaphore.js';
import { TERMINAL_STATUSES, type BatchLimits, type BatchObject, type ChatExecutor, type Clock, type ExecutorResult, type UnparsedBody } from './types.js';
import { SLICE_MS, yieldToLoop } from './validate.js';
import { validateInputOffLoop } from './validate-offload.js';

export interface BatchRunnerOptions {
  files: FileStore;
  batches: BatchStore;
  executor: ChatExecutor;
  clock: Clock;
  limits: BatchLimits;
  log?: (message: string) => void;
}

type Outcome = 'completed' | 'cancelled' | 'expired';

const NEVER_RUN_MESSAGE: Record<Outcome, { code: string; message: string }> = {
  cancelled: { code: 'batch_cancelled', message: 'The batch was cancelled before this request ran.' },
  expired: { code: 'batch_expired', message: 'The batch expired before this request ran.' },
  completed: { code: 'internal_error', message: 'This request produced no result.' },
};

/** Output lines are buffered up to this size before they go to the file writer. */
const LINE_BUFFER_BYTES = 64 * 1024;
/** How long a shutdown waits for in-flight requests to notice their abort. */
const SHUTDOWN_WAIT_MS = 10_000;


class Job {
  /** Aborted to stop dispatching new requests: cancel, window closed, or shutdown. */
  readonly stop = new AbortController();
  /** In-flight requests, by line; their controllers are aborted only on shutdown. */
  readonly inFlight = new Map<number, { abort: AbortController; done: Promise<void> }>();
  done: Promise<void> = Promise.resolve();
  constructor(readonly id: string) {}

  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }
}

export class BatchRunner {
  private readonly jobs = new Map<string, Job>();
  private readonly queue: string[] = [];
  private readonly slots: Semaphore;
  private closing = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly log: (message: string) => void;

  constructor(private readonly o: BatchRunnerOptions) {
    this.slots = new Semaphore(o.limits.concurrency);
    this.log = o.log ?? ((m) => console.error(`[batch] ${m}`));
  }

  nowSeconds(): number {
    return Math.floor(this.o.clock.now() / 1000);
  }

  /** Sweeps half-written files, then resumes every unfinished batch, oldest first. */
  async start(): Promise<void> {
    const swept = await this.o.files.sweepIncomplete();
    if (swept > 0) this.log(`removed ${swept} incomplete file(s) left by an earlier run`);
    const unfinished = this.o.batches.unfinished();
    if (unfinished.length > 0) this.log(`resuming ${unfinished.length} unfinished batch(es)`);
    for (const b of unfinished) this.queue.push(b.id);
    this.timer = setInterval(() => this.checkExpiry(), this.o.limits.expiryCheckMs);
    this.timer.unref();
    this.pump();
  }

  /** A new batch was stored in `validating`. */
  submit(id: string): void {
    if (this.closing) return;
    this.queue.push(id);
    this.pump();
  }

  /** Whether an input file is read by a batch that is not terminal (such files cannot be deleted). */
  fileInUse(fileId: string): boolean {
    for (const b of this.o.batches.unfinished()) if (b.input_file_id === fileId) return true;
    return false;
  }

  /**
   * SPEC.md's cancel table. Returns the batch to answer with, or a tagged refusal for the route.
   * From `finalizing` it waits for the batch to finish and returns it terminal.
   */
  async cancel(id: string): Promise<{ kind: 'ok'; batch: BatchObject } | { kind: 'missing' } | { kind: 'terminal'; batch: BatchObject }> {
    const now = this.nowSeconds();
    const r = await this.o.batches.update(id, (cur) =>
      cur.status === 'validating' || cur.status === 'in_progress' ? { ...cur, status: 'cancelling', cancelling_at: now } : null,
    );
    if (!r.batch) return { kind: 'missing' };
    if (r.changed) {
      const job = this.jobs.get(id);
      if (job) job.stop.abort();
      else this.pump();
      return { kind: 'ok', batch: r.batch };
    }
    if (TERMINAL_STATUSES.has(r.batch.status)) return { kind: 'terminal', batch: r.batch };
    if (r.batch.status === 'finalizing') {
      const job = this.jobs.get(id);
      if (job) await Promise.race([job.done, new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
      return { kind: 'ok', batch: this.o.batches.get(id) ?? r.batch };
    }
    return { kind: 'ok', batch: r.batch }; // cancelling: no-op
  }

  /** Stops dispatching, aborts in-flight requests (they are not recorded, so they run again after restart). */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    const jobs = [...this.jobs.values()];
    for (const job of jobs) {
      job.stop.abort();
      for (const f of job.inFlight.values()) f.abort.abort();
    }
    await Promise.race([Promise.allSettled(jobs.map((j) => j.done)), new Promise((resolve) => setTimeout(resolve, SHUTDOWN_WAIT_MS).unref())]);
  }

  /** Batches currently being worked on (for /metrics or tests). */
  get activeBatches(): number {
    return this.jobs.size;
  }

  private expired(b: BatchObject): boolean {
    return this.o.clock.now() >= b.expires_at * 1000;
  }

  private pump(): void {
    if (this.closing) return;
    for (let i = 0; i < this.queue.length; ) {
      const id = this.queue[i]!;
      if (this.jobs.has(id)) {
        this.queue.splice(i, 1);
        continue;
      }
      const b = this.o.batches.get(id);
      if (!b || TERMINAL_STATUSES.has(b.status)) {
        this.queue.splice(i, 1);
        continue;
      }
      // Batches that will run no requests (cancelled, or past their window) need no slot.
      const runsNothing = b.status === 'cancelling' || this.expired(b);
      if (runsNothing || this.jobs.size < this.o.limits.maxActiveBatches) {
        this.queue.splice(i, 1);
        this.startJob(id);
        continue;
      }
      i++;
    }
  }

  private startJob(id: string): void {
    const job = new Job(id);
    this.jobs.set(id, job);
    job.done = this.runJob(job)
      .catch(async (err: unknown) => {
        this.log(`batch ${id}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        if (!this.closing) await this.failInternally(id, err).catch(() => undefined);
      })
      .finally(() => {
        this.jobs.delete(id);
        this.pump();
      });
  }

  private checkExpiry(): void {
    for (const job of this.jobs.values()) {
      const b = this.o.batches.get(job.id);
      if (b && !job.stop.signal.aborted && this.expired(b)) job.stop.abort();
    }
    this.pump();
  }

  private async runJob(job: Job): Promise<void> {
    let b = this.o.batches.get(job.id);
    if (!b || TERMINAL_STATUSES.has(b.status)) return;
    // `model` is set exactly when validation passed (a valid file has at least one request).
    if (b.model === null) {
      const validated = await this.validate(job, b);
      if (!validated) return;
      b = validated;
    }
    if (b.status === 'in_progress') await this.dispatch(job, b);
    await this.drain(job);
    if (this.closing) return;
    b = this.o.batches.get(job.id);
    if (!b || TERMINAL_STATUSES.has(b.status)) return;
    if (b.status === 'cancelling') return this.finalize(job, 'cancelled');
    if (this.expired(b) && b.status !== 'finalizing') return this.finalize(job, 'expired');
    return this.finalize(job, 'completed');
  }

  /**
   * Waits for in-flight requests. A batch that stopped early (cancel, window closed) gives them
   * drainTimeoutMs, then aborts them: aborted requests record no result, so finalize writes them
   * to the error file with the cancel / expiry code.
   */
  private async drain(job: Job): Promise<void> {
    if (!job.stop.signal.aborted) {
      // A normal end: wait, but a cancel or expiry arriving now still bounds the wait.
      await Promise.race([job.drain(), new Promise((resolve) => job.stop.signal.addEventListener('abort', resolve, { once: true }))]);
    }
    if (job.inFlight.size === 0 || this.closing) return job.drain();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      job.drain().then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), this.o.limits.drainTimeoutMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      this.log(`batch ${job.id}: aborting ${job.inFlight.size} request(s) still running ${this.o.limits.drainTimeoutMs} ms after the batch stopped`);
      for (const f of job.inFlight.values()) f.abort.abort();
    }
    await job.drain();
  }

  /** Returns the batch once valid, or null when it ended (failed / cancelled) or we are closing. */
  private async validate(job: Job, b: BatchObject): Promise<BatchObject | null> {
    const input = this.o.files.record(b.input_file_id);
    const outcome = input
      ? await validateInputOffLoop(this.o.files.content(input), this.o.limits, {
          cancelled: () => this.closing,
          onWorkerFailure: (err) => this.log(`batch ${job.id}: ${err.message}; validating on the event loop instead`),
        })
      : { total: 0, model: null, errors: [{ code: 'invalid_request', message: `The input file ${b.input_file_id} no longer exists.`, param: 'input_file_id', line: null }] };
    if (this.closing || !outcome) return null;
    const now = this.nowSeconds();
    if (outcome.errors.length > 0) {
      await this.o.batches.update(job.id, (cur) => {
        if (cur.status === 'cancelling') return { ...cur, status: 'cancelled', cancelled_at: now };
        if (cur.status !== 'validating') return null;
        return { ...cur, status: 'failed', failed_at: now, errors: { object: 'list', data: outcome.errors } };
      });
      return null;
    }
    const r = await this.o.batches.update(job.id, (cur) => {
      if (TERMINAL_STATUSES.has(cur.status)) return null;
      const next: BatchObject = { ...cur, model: outcome.model, request_counts: { ...cur.request_counts, total: outcome.total } };
      if (cur.status === 'validating' && !this.expired(cur)) {
        next.status = 'in_progress';
        next.in_progress_at = now;
      }
      return next;
    });
    return r.batch && !TERMINAL_STATUSES.has(r.batch.status) ? r.batch : null;
  }

  /** A validated input file's requests (request-reader.ts); `bodies: false` for custom ids only. */
  private requestsOf(batchId: string, input: FileRecord, bodies: boolean): AsyncGenerator<ReadRequest> {
    const o = { maxLineBytes: this.o.limits.maxLineBytes, bodies, unparsedLineChars: this.o.limits.unparsedLineChars };
    return readRequests(this.o.files.content(input), o, (err) =>
      this.log(`batch ${batchId}: ${err.message}; reading its requests on the event loop instead`),
    );
  }

  private async dispatch(job: Job, b: BatchObject): Promise<void> {
    const input = this.o.files.record(b.input_file_id);
    if (!input) throw new Error(`input file ${b.input_file_id} vanished while the batch ran`);
    const requests = this.requestsOf(job.id, input, true);
    let sliceStart = performance.now();
    for await (const request of requests) {
      // Requests arrive a chunk's worth at a time; skipping many done ones must still yield.
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
      if (job.stop.signal.aborted || this.expired(b)) return;
      if (this.o.batches.hasResult(job.id, request.line)) continue;
      if (!(await this.slots.acquire(job.stop.signal))) return;
      if (this.expired(b) || this.closing) {
        this.slots.release();
        return;
      }
      this.launch(job, request.line, request.customId, request.body!);
    }
  }

  private launch(job: Job, line: number, customId: string, body: Record<string, unknown> | UnparsedBody): void {
    const abort = new AbortController();
    const requestId = randomId('req_');
    let slotHeld = true;
    const releaseSlot = (): void => {
      if (slotHeld) {
        slotHeld = false;
        this.slots.release();
      }
    };
    const run = async (): Promise<void> => {
      let res: ExecutorResult;
      try {
        res = await this.o.executor(body, { signal: abort.signal, requestId, priority: 'batch' });
      } catch (err) {
        if (abort.signal.aborted) return;
        const apiErr = toApiError(err);
        res = { statusCode: apiErr.status, body: openaiErrorBody(apiErr) };
      }
      // Aborted only by shutdown: leave the line without a result so the next start runs it.
      if (abort.signal.aborted) return;
      // The model is done with it: the next request may start while this result commits (the
      // commit, not the slot, is what counting waits for; drain waits for both).
      releaseSlot();
      await this.o.batches.recordResult(job.id, {
        schemaVersion: RESULT_SCHEMA_VERSION,
        id: randomId('batch_req_'),
        line,
        custom_id: customId,
        status_code: res.statusCode,
        request_id: requestId,
        body: res.body,
      });
    };
    const done = run()
      .catch((err: unknown) => this.log(`batch ${job.id} line ${line}: ${err instanceof Error ? err.message : String(err)}`))
      .finally(() => {
        job.inFlight.delete(line);
        releaseSlot();
      });
    job.inFlight.set(line, { abort, done });
  }

  /** Writes the output and error files and moves the batch to its terminal status in one commit. */
  private async finalize(job: Job, outcome: Outcome): Promise<void> {
    if (outcome === 'completed') {
      const now = this.nowSeconds();
      const r = await this.o.batches.update(job.id, (cur) =>
        cur.status === 'in_progress' ? { ...cur, status: 'finalizing', finalizing_at: now } : null,
      );
      // A cancel may have landed between the last request and this point.
      if (r.batch?.status === 'cancelling') outcome = 'cancelled';
      else if (r.batch?.status !== 'finalizing') return;
    }
    const b = this.o.batches.get(job.id);
    if (!b) return;
    const out = await this.o.files.beginGenerated(`${b.id}_output.jsonl`);
    const errs = await this.o.files.beginGenerated(`${b.id}_error.jsonl`);
    try {
      const counts = await this.writeResultFiles(b, outcome, out, errs);
      if (this.closing) {
        await Promise.all([out.abort(), errs.abort()]);
        return;
      }
      const publish = [counts.outLines > 0 ? out.readyRecord('batch_output') : null, counts.errLines > 0 ? errs.readyRecord('batch_output') : null].filter(
        (f) => f !== null,
      );
      const now = this.nowSeconds();
      const r = await this.o.batches.finish(job.id, publish, (cur) => {
        if (TERMINAL_STATUSES.has(cur.status)) return null;
        const next: BatchObject = {
          ...cur,
          output_file_id: counts.outLines > 0 ? out.id : null,
          error_file_id: counts.errLines > 0 ? errs.id : null,
          request_counts: { ...cur.request_counts, failed: cur.request_counts.failed + counts.neverRun },
        };
        if (outcome === 'completed') Object.assign(next, { status: 'completed', completed_at: now });
        else if (outcome === 'cancelled') Object.assign(next, { status: 'cancelled', cancelled_at: now });
        else Object.assign(next, { status: 'expired', expired_at: now });
        return next;
      });
      if (!r.changed) await Promise.all([out.abort(), errs.abort()]);
      else await Promise.all([counts.outLines > 0 ? undefined : out.abort(), counts.errLines > 0 ? undefined : errs.abort()]);
    } catch (err) {
      await Promise.allSettled([out.abort(), errs.abort()]);
      throw err;
    }
  }

  private async writeResultFiles(
    b: BatchObject,
    outcome: Outcome,
    out: FileWriter,
    errs: FileWriter,
  ): Promise<{ outLines: number; errLines: number; neverRun: number }> {
    const counts = { outLines: 0, errLines: 0, neverRun: 0 };
    const input = b.model === null ? undefined : this.o.files.record(b.input_file_id);
    if (!input) return counts;
    const never = NEVER_RUN_MESSAGE[outcome];
    let outBuf = '';
    let errBuf = '';
    // Only the custom_id of a request that never ran is needed: its body stays in the worker.
    const requests = this.requestsOf(b.id, input, false);
    let sliceStart = performance.now();
    for await (const request of requests) {
      if (performance.now() - sliceStart >= SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
        if (this.closing) return counts;
      }
      const res = this.o.batches.result(b.id, request.line);
      if (res) {
        const text = JSON.stringify({
          id: res.id,
          custom_id: res.custom_id,
          response: { status_code: res.status_code, request_id: res.request_id, body: res.body },
          error: null,
        });
        if (res.status_code >= 200 && res.status_code < 300) {
          outBuf += text + '\n';
          counts.outLines++;
        } else {
          errBuf += text + '\n';
          counts.errLines++;
        }
      } else {
        errBuf += JSON.stringify({ id: randomId('batch_req_'), custom_id: request.customId, response: null, error: never }) + '\n';
        counts.errLines++;
        counts.neverRun++;
      }
      if (outBuf.length >= LINE_BUFFER_BYTES) {
        await out.write(Buffer.from(outBuf));
        outBuf = '';
      }
      if (errBuf.length >= LINE_BUFFER_BYTES) {
        await errs.write(Buffer.from(errBuf));
        errBuf = '';
      }
    }
    if (outBuf) await out.write(Buffer.from(outBuf));
    if (errBuf) await errs.write(Buffer.from(errBuf));
    await Promise.all([out.flush(), errs.flush()]);
    return counts;
  }

  private async failInternally(id: string, err: unknown): Promise<void> {
    const now = this.nowSeconds();
    const message = err instanceof Error ? err.message : String(err);
    await this.o.batches.update(id, (cur) =>
      TERMINAL_STATUSES.has(cur.status)
        ? null
        : { ...cur, status: 'failed', failed_at: now, errors: { object: 'list', data: [{ code: 'internal_error', message, param: null, line: null }] } },
    );
  }
}
