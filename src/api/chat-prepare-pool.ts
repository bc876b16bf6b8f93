// The pool that prepares batch lines too large for the event loop (chat-prepare-worker.ts): a
// line of up to 8 MiB reaches the executor as its bytes (src/batch/types.ts UnparsedBody) and is
// parsed, validated, planned, rendered and tokenized there, so no multi-MiB string or object ever
// exists on the loop. Without the compiled worker (running from src/ before a build), or with
// SVC_CHAT_PREPARE_INLINE=1, the executor parses such a line here and takes the usual path.
import { existsSync } from 'node:fs';
import type { Piscina } from 'piscina';
import { reviveApiError } from '../errors.js';
import { EngineError } from '../engine/engine-errors.js';
import { distFile } from '../paths.js';
import { taskPool } from '../pool-entry.js';
import type { OffLoopOutcome } from '../chat/openai-chat-off-loop.js';
import type { ChatPrepareResult, ChatPrepareTask } from './chat-prepare-worker.js';

export const CHAT_PREPARE_WORKER_FILE = distFile('src/api/chat-prepare-worker.js');

/** Lines prepared in the pool so far (tests and benchmarks read it to see the path was taken). */
export const chatPrepareCounts = { offLoop: 0 };

let pool: Piscina<ChatPrepareTask, ChatPrepareResult> | null = null;
let disabled = false;

function preparePool(): Piscina<ChatPrepareTask, ChatPrepareResult> | null {
  if (pool || disabled) return pool;
  if (process.env.SVC_CHAT_PREPARE_INLINE === '1' || !existsSync(CHAT_PREPARE_WORKER_FILE)) {
    disabled = true;
    return null;
  }
  // Large lines are rare; one thread at a time is kept warm for a while (its tokenizer built).
  pool = taskPool<ChatPrepareTask, ChatPrepareResult>(CHAT_PREPARE_WORKER_FILE, 'chat prepare worker', {
    minThreads: 0,
    maxThreads: 2,
    maxQueue: 1024,
    idleTimeout: 60_000,
  });
  return pool;
}

/** Whether large lines are prepared in the pool (else the caller parses them here). */
export function preparesOffLoop(): boolean {
  return preparePool() !== null;
}

/** Prepares the line in the pool; its buffer moves there (the caller's view is left detached).
 *  Throws the ApiError or EngineError the preparation raised. */
export async function prepareLineOffLoop(line: Uint8Array, model: { path: string; contextLength: number } | null): Promise<OffLoopOutcome> {
  const p = preparePool();
  if (!p) throw new Error('chat prepare pool: not available');
  const owned = line.byteOffset === 0 && line.byteLength === line.buffer.byteLength;
  const bytes = owned ? line : new Uint8Array(line);
  const task: ChatPrepareTask = { line: bytes, path: model?.path ?? null, contextLength: model?.contextLength ?? 0 };
  chatPrepareCounts.offLoop++;
  const r = await p.run(task, { transferList: [bytes.buffer as ArrayBuffer] });
  if (r.ok) return r.outcome;
  if (r.error) throw reviveApiError(r.error);
  if (r.fault) throw new EngineError(r.fault, r.message);
  throw new Error(`chat prepare worker: ${r.message}`);
}

export async function closeChatPreparePool(): Promise<void> {
  const p = pool;
  pool = null;
  disabled = false;
  if (p) await p.destroy();
}
