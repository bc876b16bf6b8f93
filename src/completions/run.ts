// The legacy Completions service: prompts (text or token ids) x n choices run on the engine
// concurrently, with stop sequences, per-token log-probabilities and echo. Format-neutral results;
// src/completions/response.ts shapes them as OpenAI text_completion objects and chunks.
import { randomBytes } from 'node:crypto';
import type { LoadedModel, TokenEvent } from '../engine/types.js';
import { apiError } from '../errors.js';
import { findChatModel, type ChatServices } from '../chat/services.js';
import { parseBody } from '../chat/validate.js';
import { StopMatcher } from '../chat/stop-matcher.js';
import { leaveIntake } from '../intake.js';
import { choiceSeed } from '../chat/openai-chat.js';
import { completionRequestSchema, planCompletion, type CompletionPlan } from './request.js';

export interface PreparedPrompt {
  tokens: Uint32Array;
  /** The prompt as text (for echo). */
  text: string;
  /** Tokens to generate at most (max_tokens, capped by the context left). */
  maxTokens: number;
}

export interface PreparedCompletion {
  plan: CompletionPlan;
  model: LoadedModel;
  prompts: PreparedPrompt[];
  id: string;
  created: number;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  /** Top alternatives, token string -> logprob. */
  top: Record<string, number>;
  /** Offset of the token's text in the choice's text (echoed prompt included). */
  offset: number;
}

export interface CompletionChoice {
  index: number;
  /** Echoed prompt (when asked) plus the generated text. */
  text: string;
  finish: 'stop' | 'length';
  logprobs: TokenLogprob[] | null;
  completionTokens: number;
}

export interface RunCompletionOptions {
  signal?: AbortSignal;
  /** Streaming: text as it is released (the echoed prompt first), with the log-probabilities of
   *  the tokens whose text it starts. */
  onText?(index: number, text: string, logprobs: TokenLogprob[]): void;
  onChoiceDone?(choice: CompletionChoice): void;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A token's text for logprobs: its bytes as UTF-8, or `bytes:\xe4…` for part of a character. */
function tokenString(bytes: Uint8Array | undefined, text: string): string {
  if (!bytes) return text;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return 'bytes:' + Array.from(bytes, (b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  }
}

export async function prepareCompletion(services: ChatServices, body: unknown): Promise<PreparedCompletion> {
  const plan = planCompletion(parseBody(completionRequestSchema, body));
  const model = findChatModel(services, plan.model);
  if (plan.echo && plan.logprobs !== null) {
    throw apiError('unsupported', { feature: 'echo together with logprobs (log-probabilities of the prompt tokens)' }, 'echo');
  }
  const ctx = model.info.contextLength;
  const prompts: PreparedPrompt[] = [];
  for (const p of plan.prompts) {
    let tokens: Uint32Array;
    if (p.kind === 'text') {
      tokens = await model.tokenize(p.text, { addSpecial: true });
    } else {
      const bad = p.tokens.find((t) => t >= model.info.vocabSize);
      if (bad !== undefined) throw apiError('token_out_of_vocabulary', { token: bad, vocabSize: model.info.vocabSize }, 'prompt');
      tokens = Uint32Array.from(p.tokens);
    }
    if (tokens.length === 0) throw apiError('input_empty', { input: 'the prompt' }, 'prompt');
    if (tokens.length >= ctx) {
      throw apiError('prompt_exceeds_context', { context: ctx, prompt: 'the prompt', tokens: tokens.length }, 'prompt');
    }
    const text = p.kind === 'text' ? p.text : plan.echo ? await model.detokenize(tokens) : '';
    prompts.push({ tokens, text, maxTokens: Math.min(plan.maxTokens, ctx - tokens.length) });
  }
  return { plan, model, prompts, id: `cmpl-${randomBytes(12).toString('hex')}`, created: Math.floor(Date.now() / 1000) };
}

async function runChoice(p: PreparedCompletion, promptIndex: number, i: number, opts: RunCompletionOptions): Promise<CompletionChoice> {
  const { plan, model } = p;
  const prompt = p.prompts[promptIndex]!;
  const index = promptIndex * plan.n + i;
  const echo = plan.echo ? prompt.text : '';
  const stopper = new StopMatcher(plan.stop);
  const stopCtl = new AbortController();
  const onAbort = (): void => stopCtl.abort();
  if (opts.signal?.aborted) stopCtl.abort();
  else opts.signal?.addEventListener('abort', onAbort, { once: true });
  let text = echo;
  let generatedChars = 0; // characters of generated text seen (released or held)
  let matched = false;
  let completionTokens = 0;
  const entries: TokenLogprob[] = [];
  let sent = 0;
  const release = (chunk: string): void => {
    text += chunk;
    if (!opts.onText || (chunk === '' && sent === entries.length)) return;
    // Entries whose token text starts inside what is out now.
    let end = sent;
    while (end < entries.length && entries[end]!.offset < text.length) end++;
    const lp = entries.slice(sent, end);
    sent = end;
    if (chunk !== '' || lp.length) opts.onText(index, chunk, lp);
  };
  if (echo && opts.onText) opts.onText(index, echo, []);
  const seed = plan.sampling.seed;
  const sampling = seed !== undefined && plan.n > 1 ? { ...plan.sampling, seed: choiceSeed(seed, i) } : plan.sampling;
  let result;
  // The engine leaves intake by the signal it gets; ours is not the one the HTTP layer entered
  // the request by (src/intake.ts).
  leaveIntake(opts.signal);
  try {
    result = await model.generate(
      {
        prompt: prompt.tokens,
        maxTokens: prompt.maxTokens,
        sampling,
        ...(plan.logprobs !== null ? { topLogprobs: plan.logprobs } : {}),
        signal: stopCtl.signal,
      },
      (ev: TokenEvent) => {
        if (matched) return;
        completionTokens++;
        if (plan.logprobs !== null) {
          const top: Record<string, number> = {};
          for (const t of ev.topLogprobs ?? []) top[tokenString(t.bytes, '')] = t.logprob;
          entries.push({ token: tokenString(ev.bytes, ev.text), logprob: ev.logprob ?? 0, top, offset: echo.length + generatedChars });
        }
        generatedChars += ev.text.length;
        const r = stopper.push(ev.text);
        release(r.emit);
        if (r.matched !== null) {
          matched = true;
          stopCtl.abort();
        }
      },
    );
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
  if (!matched) {
    if (result.tailText) {
      const r = stopper.push(result.tailText);
      release(r.emit);
      matched = r.matched !== null;
    }
    if (!matched) release(stopper.flush());
  }
  // Tokens of a matched stop sequence have no text, and no log-probabilities either.
  if (matched) while (entries.length && entries[entries.length - 1]!.offset >= text.length) entries.pop();
  const finish: CompletionChoice['finish'] = !matched && result.finishReason === 'length' ? 'length' : 'stop';
  const choice: CompletionChoice = { index, text, finish, logprobs: plan.logprobs !== null ? entries : null, completionTokens: Math.min(completionTokens, result.completionTokens) };
  opts.onChoiceDone?.(choice);
  return choice;
}

/** Every prompt's n choices, concurrently; resolves in index order. */
export function runCompletion(p: PreparedCompletion, opts: RunCompletionOptions = {}): Promise<CompletionChoice[]> {
  const runs: Promise<CompletionChoice>[] = [];
  for (let pi = 0; pi < p.prompts.length; pi++) for (let i = 0; i < p.plan.n; i++) runs.push(runChoice(p, pi, i, opts));
  return Promise.all(runs);
}

export function promptTokenCount(p: PreparedCompletion): number {
  return p.prompts.reduce((a, x) => a + x.tokens.length, 0);
}
