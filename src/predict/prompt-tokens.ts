// A /v1/predict body to prompt tokens: parse and check it (request.ts), choose the events that fit
// the context (window.ts), and tokenize them line by line, so a growing session gets a token
// sequence that extends the previous one exactly and the prefix cache makes the n-th call pay
// only for its new events. Synchronous: it runs inline for small bodies and in a worker
// (prepare-pool.ts) for large ones. Tokens of recent lines are memoized (bounded by bytes).
import { apiError } from '../errors.js';
import type { Tokenizer } from '../tokenizer/index.js';
import { parsePredictRequest } from './request.js';
import { chooseWindow } from './window.js';

export interface PreparedPrompt {
  /** BOS (when the model adds one) and the kept event lines. */
  tokens: Uint32Array;
  maxTokens: number;
  temperature: number;
  seed?: number;
  /** Event lines in the request. */
  events: number;
  /** Event lines left out to fit the context. */
  eventsDropped: number;
  /** Lines kept from before the window (meta event, full snapshot). */
  headerEvents: number;
  /** Index of the window's first event in the request. */
  windowStart: number;
}

export class LineTokenizer {
  private readonly cache = new Map<string, Uint32Array>();
  private cachedBytes = 0;
  readonly prefix: Uint32Array;

  constructor(private readonly tokenizer: Tokenizer, private readonly maxCacheBytes = 64 * 1024 * 1024) {
    // BOS (or nothing) exactly as the model's tokenizer adds it to a fresh text.
    this.prefix = tokenizer.encode('', { addSpecial: true, parseSpecial: false });
  }

  /** Tokens of `line` followed by a newline, as it appears in the prompt. */
  line(line: string): Uint32Array {
    const hit = this.cache.get(line);
    if (hit) {
      this.cache.delete(line);
      this.cache.set(line, hit); // most recently used last
      return hit;
    }
    const t = this.tokenizer.encode(line + '\n', { addSpecial: false, parseSpecial: false });
    this.cache.set(line, t);
    this.cachedBytes += line.length * 2 + t.byteLength;
    for (const [key, value] of this.cache) {
      if (this.cachedBytes <= this.maxCacheBytes) break;
      this.cache.delete(key);
      this.cachedBytes -= key.length * 2 + value.byteLength;
    }
    return t;
  }
}

/** Parses a /v1/predict JSON body (bytes) and returns the prompt to run; throws ApiError 400. */
export function preparePrompt(body: Uint8Array, lineTokens: LineTokenizer, contextLength: number): PreparedPrompt {
  if (body.byteLength === 0) throw apiError('body_empty');
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch (err) {
    throw apiError('body_not_json', { reason: (err as Error).message });
  }
  const req = parsePredictRequest(json);
  const budget = contextLength - req.maxTokens - lineTokens.prefix.length;
  const window = budget > 0 ? chooseWindow({ lines: req.lines, kinds: req.kinds, tokens: (i) => lineTokens.line(req.lines[i] as string).length }, budget) : null;
  if (!window) {
    throw apiError('prompt_window_empty', { context: contextLength, maxTokens: req.maxTokens });
  }
  const tokens = new Uint32Array(lineTokens.prefix.length + window.tokens);
  tokens.set(lineTokens.prefix, 0);
  let at = lineTokens.prefix.length;
  for (const i of window.kept) {
    const t = lineTokens.line(req.lines[i] as string);
    tokens.set(t, at);
    at += t.length;
  }
  return {
    tokens,
    maxTokens: req.maxTokens,
    temperature: req.temperature,
    ...(req.seed !== undefined ? { seed: req.seed } : {}),
    events: req.lines.length,
    eventsDropped: window.dropped,
    headerEvents: window.headerLines,
    windowStart: window.start,
  };
}
