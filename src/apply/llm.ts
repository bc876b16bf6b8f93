// The apply LLM (--apply-model): svc-v3-large decodes the merged file with it, using the merge
// engine's result as the speculative draft (GenerateRequest.draft), so the text is exactly what
// the LLM alone would write (greedy) while most tokens are verified in batched forward passes.
// The server loads it at startup (Services.applyModel, src/server/services.ts) and the chat routes
// and batch executor pass it in; without one the apply models are the merge engine alone.
import { resolveMaxTokens, tokenizePrompt } from '../chat/prompt.js';
import type { GenerateResult, LoadedModel, SpeculativeStats } from '../engine/types.js';
import { GREEDY_SAMPLING } from '../engine/sampling.js';

/** The instruction the apply prompt gives the LLM before the user's tagged message. */
export const APPLY_SYSTEM_PROMPT =
  'You merge code edits. The user message has the original file in <code>, an edit snippet in <update> ' +
  '(unchanged parts written as "... existing code ..." comments) and optionally an <instruction>. ' +
  'Reply with the complete merged file, exactly, and nothing else: no code fences, no explanations.';

/** Draft tokens verified per engine step. */
export const APPLY_DRAFT_TOKENS_PER_STEP = 16;

/** Completion budget when the request sets none: twice the draft plus 256 tokens, at most the
 *  context left after the prompt (an LLM that never ends its turn must not run to the context). */
export function defaultApplyMaxTokens(draftTokens: number, room: number): number {
  return Math.max(1, Math.min(room, 2 * draftTokens + 256));
}

export interface LlmApplyOptions {
  /** The user message as the client sent it (<instruction>, <code>, <update>). */
  content: string;
  /** The merge engine's result: the draft. */
  merged: string;
  maxTokens: number | null;
  temperature: number;
  signal?: AbortSignal;
  /** Text of each engine step's new tokens, in order (streaming). */
  onText?: (text: string) => void;
}

export interface LlmApplyResult {
  content: string;
  finishReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
  /** Tokens of the draft (the merge result plus the end-of-turn token). */
  draftTokens: number;
  /** Draft proposals and acceptance; null when the draft was not used (temperature > 0). */
  speculative: SpeculativeStats | null;
  /** Wall time of the generation (prompt tokenized to last token), milliseconds. */
  generateMs: number;
}

/** The apply prompt in the model's own chat template. */
export async function applyPromptTokens(model: LoadedModel, content: string): Promise<Uint32Array> {
  const text = await model.renderChat({
    messages: [
      { role: 'system', content: APPLY_SYSTEM_PROMPT },
      { role: 'user', content },
    ],
    addGenerationPrompt: true,
  });
  return tokenizePrompt(model, text);
}

/** The draft: the merged file in the model's tokens, then its end-of-turn token. */
export async function applyDraftTokens(model: LoadedModel, merged: string): Promise<Uint32Array> {
  const ids = await model.tokenize(merged, { addSpecial: false, parseSpecial: false });
  const eos = model.info.eosTokens[0];
  if (eos === undefined) return ids;
  const out = new Uint32Array(ids.length + 1);
  out.set(ids);
  out[ids.length] = eos;
  return out;
}

/** Runs the apply LLM on one request. Rejects with ApiError (400 context_length_exceeded, 503
 *  overloaded) like any generation. */
export async function runApplyLlm(model: LoadedModel, opts: LlmApplyOptions): Promise<LlmApplyResult> {
  const [prompt, draft] = await Promise.all([applyPromptTokens(model, opts.content), applyDraftTokens(model, opts.merged)]);
  // The requested max_tokens checked against the room after the prompt, or that room when none was
  // requested (400s naming the field when either does not fit).
  const limit = resolveMaxTokens({ maxTokens: opts.maxTokens, maxTokensParam: 'max_tokens' }, prompt.length, model.info.contextLength);
  const maxTokens = opts.maxTokens === null ? defaultApplyMaxTokens(draft.length, limit) : limit;
  let content = '';
  // Tokens of one engine step arrive in one synchronous burst: hand them on as one piece.
  let pending = '';
  let flushQueued = false;
  const flush = () => {
    flushQueued = false;
    if (pending === '') return;
    const piece = pending;
    pending = '';
    opts.onText?.(piece);
  };
  const t0 = performance.now();
  let result: GenerateResult;
  try {
    result = await model.generate(
      {
        prompt,
        maxTokens,
        sampling: { ...GREEDY_SAMPLING, temperature: opts.temperature },
        draft: draft.length > 0 ? draft : undefined,
        maxDraftTokens: APPLY_DRAFT_TOKENS_PER_STEP,
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
      (ev) => {
        if (ev.text === '') return;
        content += ev.text;
        if (!opts.onText) return;
        pending += ev.text;
        if (!flushQueued) {
          flushQueued = true;
          queueMicrotask(flush);
        }
      },
    );
  } finally {
    flush();
  }
  const generateMs = performance.now() - t0;
  const spec = result.speculative;
  return {
    content,
    finishReason: result.finishReason === 'length' ? 'length' : 'stop',
    promptTokens: result.promptTokens,
    completionTokens: result.completionTokens,
    draftTokens: draft.length,
    speculative: opts.temperature > 0 ? null : (spec ?? null),
    generateMs,
  };
}
