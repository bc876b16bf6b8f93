// Where a /v1/predict body becomes prompt tokens: small bodies inline (a worker round trip costs
// more than their work), large ones in a piscina pool (prepare-worker.ts) so that parsing and
// tokenizing megabytes never stalls the event loop. Without the compiled worker (running from
// src/ before a build) everything runs inline.
import { existsSync } from 'node:fs';
import type { Piscina } from 'piscina';
import { reviveApiError } from '../errors.js';
import { distFile } from '../paths.js';
import { taskPool } from '../pool-entry.js';
import { LineTokenizer, preparePrompt, type PreparedPrompt } from './prompt-tokens.js';
import type { PrepareResult, PrepareTask } from './prepare-worker.js';
import type { Tokenizer } from '../tokenizer/index.js';

export const PREPARE_WORKER_FILE = distFile('src/predict/prepare-worker.js');
/** Bodies at least this large go to the pool: inline, 16 KiB is about 5 ms of parsing and
 *  tokenizing on a cold line cache. */
export const OFFLOAD_MIN_BYTES = 16 * 1024;

export class PromptPreparer {
  private pool: Piscina<PrepareTask, PrepareResult> | null = null;
  private readonly inline: LineTokenizer;

  constructor(
    tokenizer: Tokenizer,
    private readonly modelPath: string,
    private readonly contextLength: number,
    opts: { offload?: boolean } = {},
  ) {
    this.inline = new LineTokenizer(tokenizer);
    if ((opts.offload ?? true) && process.env.SVC_PREDICT_PREPARE_INLINE !== '1' && existsSync(PREPARE_WORKER_FILE)) {
      this.pool = taskPool<PrepareTask, PrepareResult>(PREPARE_WORKER_FILE, 'predict prepare worker', { minThreads: 0, maxThreads: 2, maxQueue: 1024, idleTimeout: 60_000 });
    }
  }

  async prepare(body: Buffer): Promise<PreparedPrompt> {
    if (!this.pool || body.byteLength < OFFLOAD_MIN_BYTES) return preparePrompt(body, this.inline, this.contextLength);
    // Hand the bytes over without a copy when the buffer owns its memory.
    const owned = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
    const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    const task: PrepareTask = { path: this.modelPath, contextLength: this.contextLength, body: bytes };
    const r = await this.pool.run(task, owned ? { transferList: [body.buffer as ArrayBuffer] } : {});
    if (!r.ok) throw r.error ? reviveApiError(r.error) : new Error(`predict prepare worker: ${r.message}`);
    return r.prompt;
  }

  async close(): Promise<void> {
    const p = this.pool;
    this.pool = null;
    if (p) await p.destroy();
  }
}
