// piscina worker for large /v1/predict bodies: JSON parsing, checking every event line, choosing
// the window and tokenizing it, all off the event loop (a 20 MB body takes about a second of
// that work). Each worker keeps one LineTokenizer per model, so a growing session's lines are
// tokenized once per worker.
import { modelText } from '../engine/text-worker.js';
import { ApiError, type ApiErrorSpec } from '../errors.js';
import { LineTokenizer, preparePrompt, type PreparedPrompt } from './prompt-tokens.js';

export interface PrepareTask {
  path: string;
  contextLength: number;
  body: Uint8Array;
}

/** A failure crosses back as the ApiError's spec (a class does not survive the structured clone),
 *  or, for an unexpected fault, as its message only. */
export type PrepareResult = { ok: true; prompt: PreparedPrompt } | { ok: false; error: ApiErrorSpec | null; message: string };

const tokenizers = new Map<string, LineTokenizer>();

export default function run(task: PrepareTask): PrepareResult {
  try {
    let lines = tokenizers.get(task.path);
    if (!lines) {
      lines = new LineTokenizer(modelText(task.path).tokenizer);
      tokenizers.set(task.path, lines);
    }
    return { ok: true, prompt: preparePrompt(task.body, lines, task.contextLength) };
  } catch (e) {
    return { ok: false, error: e instanceof ApiError ? e.spec : null, message: (e as Error).message };
  }
}
