// A fast path in front of the zod schema for the common Chat Completions request: plain-text
// messages (system, developer, user, assistant with string content) and scalar options, no tools
// or response_format. zod costs ~20 µs per request warm and 100-200 µs on a cold event loop (one
// request after an idle stretch); this check is a few µs. It only ever ACCEPTS: anything it does
// not recognise as valid (an unknown message shape, a value out of range, any tool field) returns
// null and the zod schema decides, with its error messages. What it returns is what
// chatCompletionRequestSchema.parse would (same keys, order and values: test/chat/openai-request-fast.test.ts
// compares the two on generated requests).
import { OPENAI_LIMITS, REASONING_EFFORTS, type ChatCompletionRequest } from './openai-request.js';

type Obj = Record<string, unknown>;

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const inRange = (v: unknown, lo: number, hi: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi;
const isInt = (v: unknown, lo: number, hi: number): v is number => Number.isSafeInteger(v) && (v as number) >= lo && (v as number) <= hi;
const INT_MAX = Number.MAX_SAFE_INTEGER;

/** Fields that always go to zod (object-valued or rarely sent). */
const SLOW_FIELDS = ['tools', 'tool_choice', 'response_format', 'functions', 'function_call'];

/** Scalar fields in the schema's order, each with its check (null is accepted for all: nullish). */
const SCALARS: Array<[string, (v: unknown) => boolean]> = [
  ['max_tokens', (v) => isInt(v, 1, INT_MAX)],
  ['max_completion_tokens', (v) => isInt(v, 1, INT_MAX)],
  ['temperature', (v) => inRange(v, 0, 2)],
  ['top_p', (v) => inRange(v, 0, 1)],
  ['n', (v) => isInt(v, 1, OPENAI_LIMITS.maxN)],
  ['stop', (v) => typeof v === 'string' || (Array.isArray(v) && v.length <= OPENAI_LIMITS.maxStop && v.every((s) => typeof s === 'string'))],
  ['seed', (v) => isInt(v, -INT_MAX, INT_MAX)],
  ['presence_penalty', (v) => inRange(v, -2, 2)],
  ['frequency_penalty', (v) => inRange(v, -2, 2)],
  ['logit_bias', () => true], // checked below (kept as it is)
  ['logprobs', (v) => typeof v === 'boolean'],
  ['top_logprobs', (v) => isInt(v, 0, OPENAI_LIMITS.maxTopLogprobs)],
  ['stream', (v) => typeof v === 'boolean'],
  ['stream_options', () => true], // checked below (copied)
  ['parallel_tool_calls', (v) => typeof v === 'boolean'],
  ['reasoning_effort', (v) => (REASONING_EFFORTS as readonly unknown[]).includes(v)],
];

const TEXT_ROLES = new Set(['system', 'developer', 'user', 'assistant']);
const TOKEN_ID = /^\d+$/;

/** A message the schema takes as is: {role, content: string, name?: string}, nothing else. */
function simpleMessage(m: unknown): Obj | null {
  if (!isObject(m)) return null;
  let keys = 0;
  for (const _ in m) keys++;
  const { role, content, name } = m;
  if (typeof role !== 'string' || !TEXT_ROLES.has(role) || typeof content !== 'string') return null;
  if (name === undefined) return keys === 2 ? { role, content } : null;
  return keys === 3 && typeof name === 'string' ? { role, content, name } : null;
}

/** The body's own object once every key and value passed: JSON.parse made it, nothing else holds
 *  it, and copying token-id keys (sparse integer keys: dictionary elements in V8) cost more than
 *  the rest of the fast path together. */
function logitBias(v: Obj): Obj | null {
  for (const k in v) {
    if (!Object.hasOwn(v, k) || !TOKEN_ID.test(k) || !inRange(v[k], -100, 100)) return null;
  }
  return v;
}

function streamOptions(v: Obj): Obj | null {
  const out: Obj = {};
  for (const k in v) if (k !== 'include_usage' && k !== 'include_obfuscation') return null;
  // Schema order: include_usage, include_obfuscation.
  for (const k of ['include_usage', 'include_obfuscation']) {
    if (!(k in v)) continue;
    if (typeof v[k] !== 'boolean') return null;
    out[k] = v[k];
  }
  return out;
}

/** The parsed request when `body` is a plain one the schema accepts; null: ask zod. */
export function fastChatCompletionRequest(body: unknown): ChatCompletionRequest | null {
  if (!isObject(body)) return null;
  for (const f of SLOW_FIELDS) if (body[f] !== undefined) return null;
  const { model, messages } = body;
  if (typeof model !== 'string' || model.length === 0 || !Array.isArray(messages) || messages.length === 0) return null;
  const outMessages: Obj[] = [];
  for (const m of messages) {
    const s = simpleMessage(m);
    if (!s) return null;
    outMessages.push(s);
  }
  const out: Obj = { model, messages: outMessages };
  for (const [key, ok] of SCALARS) {
    const v = body[key];
    if (v === undefined) continue;
    if (v === null) {
      out[key] = null;
      continue;
    }
    if (key === 'logit_bias' || key === 'stream_options') {
      const copy = isObject(v) ? (key === 'logit_bias' ? logitBias(v) : streamOptions(v)) : null;
      if (!copy) return null;
      out[key] = copy;
      continue;
    }
    if (!ok(v)) return null;
    out[key] = key === 'stop' && Array.isArray(v) ? [...(v as string[])] : v;
  }
  return out as unknown as ChatCompletionRequest;
}
