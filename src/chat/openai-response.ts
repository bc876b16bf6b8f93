// OpenAI wire shapes for a finished chat run: the chat.completion body (api.md §1.2) and the
// chat.completion.chunk stream (api.md §1.3).
import type { ChoiceEvent, ChoiceResult, LogprobEntry } from './runner.js';

export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; audio_tokens: number };
  completion_tokens_details: {
    reasoning_tokens: number;
    audio_tokens: number;
    accepted_prediction_tokens: number;
    rejected_prediction_tokens: number;
  };
}

export type OpenAIFinish = 'stop' | 'length' | 'tool_calls' | 'function_call';

export function openaiFinish(r: ChoiceResult, legacyFunctions: boolean): OpenAIFinish {
  switch (r.finish) {
    case 'length':
      return 'length';
    case 'tool_calls':
      // OpenAI reports 'stop' when the client named the function (api.md §1.5).
      if (r.forcedNamed) return 'stop';
      return legacyFunctions ? 'function_call' : 'tool_calls';
    default:
      return 'stop';
  }
}

/** Usage over all choices: the prompt counts once, completions add up. */
export function openaiUsage(results: readonly ChoiceResult[]): OpenAIUsage {
  const first = results[0];
  const prompt = first?.promptTokens ?? 0;
  const completion = results.reduce((a, r) => a + r.completionTokens, 0);
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: first?.cachedTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: results.reduce((a, r) => a + r.reasoningTokens, 0),
      audio_tokens: 0,
      accepted_prediction_tokens: first?.prediction?.accepted ?? 0,
      rejected_prediction_tokens: first?.prediction?.rejected ?? 0,
    },
  };
}

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
  logprobs: boolean;
  /** The request used the deprecated `functions`: a call is answered as `function_call` (one at
   *  most), not `tool_calls`. */
  legacyFunctions: boolean;
}

export function chatCompletionBody(meta: CompletionMeta, results: readonly ChoiceResult[]): Record<string, unknown> {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: results.map((r, index) => {
      const message: Record<string, unknown> = {
        role: 'assistant',
        content: r.toolCalls.length > 0 && r.text === '' ? null : r.text,
        refusal: null,
        annotations: [],
      };
      if (r.thinking) message.reasoning_content = r.thinking;
      const first = r.toolCalls[0];
      if (first && meta.legacyFunctions) {
        message.function_call = { name: first.name, arguments: first.arguments };
      } else if (first) {
        message.tool_calls = r.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
      }
      return {
        index,
        message,
        logprobs: meta.logprobs ? { content: r.logprobs, refusal: null } : null,
        finish_reason: openaiFinish(r, meta.legacyFunctions),
      };
    }),
    usage: openaiUsage(results),
  };
}

/** Builds chat.completion.chunk objects for one streamed response; the caller sends them. */
export class OpenAIChunker {
  private readonly started = new Set<number>();

  constructor(
    private readonly meta: CompletionMeta,
    private readonly includeUsage: boolean,
  ) {}

  private chunk(choices: unknown[], extra: Record<string, unknown> = {}): Record<string, unknown> {
    const c: Record<string, unknown> = {
      id: this.meta.id,
      object: 'chat.completion.chunk',
      created: this.meta.created,
      model: this.meta.model,
      choices,
      ...extra,
    };
    if (this.includeUsage && !('usage' in c)) c.usage = null;
    return c;
  }

  private choice(index: number, delta: Record<string, unknown>, logprobs: LogprobEntry[] | null, finish: OpenAIFinish | null): unknown {
    return {
      index,
      delta,
      logprobs: logprobs && this.meta.logprobs ? { content: logprobs, refusal: null } : null,
      finish_reason: finish,
    };
  }

  /** The first delta of a choice carries the role (the SDK's stream helper insists). */
  private withRole(index: number, delta: Record<string, unknown>): Record<string, unknown> {
    if (this.started.has(index)) return delta;
    this.started.add(index);
    return { role: 'assistant', ...delta };
  }

  event(index: number, ev: ChoiceEvent): Record<string, unknown> {
    switch (ev.type) {
      case 'text':
        return this.chunk([this.choice(index, this.withRole(index, { content: ev.text }), ev.logprobs ?? null, null)]);
      case 'thinking':
        return this.chunk([this.choice(index, this.withRole(index, { reasoning_content: ev.text }), ev.logprobs ?? null, null)]);
      case 'tool_start':
        if (this.meta.legacyFunctions) {
          const delta = { ...(this.started.has(index) ? {} : { content: null }), function_call: { name: ev.name, arguments: '' } };
          return this.chunk([this.choice(index, this.withRole(index, delta), null, null)]);
        }
        return this.chunk([
          this.choice(
            index,
            this.withRole(index, {
              ...(this.started.has(index) ? {} : { content: null }),
              tool_calls: [{ index: ev.index, id: ev.id, type: 'function', function: { name: ev.name, arguments: '' } }],
            }),
            null,
            null,
          ),
        ]);
      case 'tool_args':
        if (this.meta.legacyFunctions) return this.chunk([this.choice(index, { function_call: { arguments: ev.fragment } }, null, null)]);
        return this.chunk([this.choice(index, { tool_calls: [{ index: ev.index, function: { arguments: ev.fragment } }] }, null, null)]);
    }
  }

  /** Closing chunks of a choice: a role chunk if nothing was sent yet, then finish_reason. */
  finish(index: number, r: ChoiceResult): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    if (!this.started.has(index)) out.push(this.chunk([this.choice(index, this.withRole(index, { content: '' }), null, null)]));
    out.push(this.chunk([this.choice(index, {}, r.logprobs.length ? r.logprobs : null, openaiFinish(r, this.meta.legacyFunctions))]));
    return out;
  }

  /** The usage chunk: only when include_usage was asked for, with `choices: []`. */
  usage(results: readonly ChoiceResult[]): Record<string, unknown> | null {
    if (!this.includeUsage) return null;
    return this.chunk([], { usage: openaiUsage(results) });
  }
}
