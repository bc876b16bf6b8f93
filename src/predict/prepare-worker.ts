// piscina worker for large /v1/predict bodies: JSON parsing, checking every event line, choosing
// the window and tokenizing it, all off the event loop (a 20 MB body takes about a second of
// that work). Each worker keeps one LineTokenizer per model, so a growing session's lines are
// tokenized once per worker.
import { modelText } from '../engine/text-worker.js';
import { ApiError } from '../errors.js';
import { LineTokenizer, preparePrompt, type PreparedPrompt } from './prompt-tokens.js';

export interface PrepareTask {
  path: string;
  contextLength: number;
  body: Uint8Array;
}

export type PrepareResult = { ok: true; prompt: PreparedPrompt } | { ok: false; code: ApiError['code']; message: string; param: string | null };

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
    if (e instanceof ApiError) return { ok: false, code: e.code, message: e.message, param: e.param };
    return { ok: false, code: 'internal_error', message: (e as Error).message, param: null };
  }
}
