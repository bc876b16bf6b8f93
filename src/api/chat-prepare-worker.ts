// piscina worker for batch lines too large to parse on the event loop (src/batch/types.ts
// UnparsedBody): decodes and parses the line, takes its request body as the executor would (stream
// flags off), and prepares it (chat/openai-chat-off-loop.ts) with the model's tokenizer and
// template, built once per worker from the GGUF file. The token ids move back (no copy); errors
// come back as data: an ApiError's spec, an EngineError's fault, or a message.
import { Piscina } from 'piscina';
import { modelText } from '../engine/text-worker.js';
import { EngineError, type EngineFault } from '../engine/engine-errors.js';
import { ApiError, type ApiErrorSpec } from '../errors.js';
import { prepareOpenAIChatOffLoop, type OffLoopOutcome } from '../chat/openai-chat-off-loop.js';

export interface ChatPrepareTask {
  /** The batch input line's UTF-8 bytes (moved here). */
  line: Uint8Array;
  /** The loaded model's file; null when the request's model is not loaded (validation still runs first). */
  path: string | null;
  contextLength: number;
}

export type ChatPrepareResult =
  | { ok: true; outcome: OffLoopOutcome }
  | { ok: false; error: ApiErrorSpec | null; fault: EngineFault | null; message: string };

/** The request body as executeChatCompletion takes a parsed one: `stream` false, no stream_options. */
export function bodyOfLine(line: Uint8Array): unknown {
  const parsed = JSON.parse(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString('utf8')) as { body?: unknown };
  const body = parsed.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const b: Record<string, unknown> = { ...(body as Record<string, unknown>), stream: false };
  delete b.stream_options;
  return b;
}

export default function run(task: ChatPrepareTask): ChatPrepareResult | object {
  try {
    const body = bodyOfLine(task.line);
    const outcome = prepareOpenAIChatOffLoop(body, task.path === null ? null : { text: modelText(task.path), contextLength: task.contextLength });
    const result: ChatPrepareResult = { ok: true, outcome };
    if (outcome.kind !== 'prepared') return result;
    // Piscina moves the tokens' buffer with the answer instead of copying it.
    const moved = { [Piscina.transferableSymbol]: [outcome.prepared.tokens.buffer], [Piscina.valueSymbol]: result };
    return Piscina.move(moved as unknown as Parameters<typeof Piscina.move>[0]);
  } catch (e) {
    return {
      ok: false,
      error: e instanceof ApiError ? e.spec : null,
      fault: e instanceof EngineError ? e.fault : null,
      message: (e as Error).message,
    } satisfies ChatPrepareResult;
  }
}
