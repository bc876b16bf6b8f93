// OpenAI legacy Completions request (POST /v1/completions): the zod schema and its conversion to a
// plan of prompts x choices. `suffix` (insertion) and `best_of` > n are refused with a clear 400.
import { z } from 'zod';
import { apiError } from '../errors.js';
import type { SamplingParams } from '../engine/types.js';
import { openAiSampling } from '../chat/plan.js';

export const COMPLETIONS_LIMITS = { maxN: 16, maxStop: 4, maxLogprobs: 20, maxPrompts: 256, defaultMaxTokens: 16 } as const;

const tokenIds = z.array(z.number().int().min(0)).min(1, 'a token-id prompt needs at least one token');

export const completionRequestSchema = z.object({
  model: z.string().min(1),
  prompt: z.union([z.string(), z.array(z.string()).min(1), tokenIds, z.array(tokenIds).min(1)], {
    error: 'prompt must be a string, an array of strings, an array of token ids, or an array of token-id arrays',
  }),
  suffix: z.string().nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  n: z.number().int().min(1).max(COMPLETIONS_LIMITS.maxN).nullish(),
  best_of: z.number().int().min(1).max(COMPLETIONS_LIMITS.maxN).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() }).nullish(),
  logprobs: z.number().int().min(0).max(COMPLETIONS_LIMITS.maxLogprobs).nullish(),
  echo: z.boolean().nullish(),
  stop: z
    .union([z.string(), z.array(z.string()).max(COMPLETIONS_LIMITS.maxStop)], { error: `stop must be a string or an array of at most ${COMPLETIONS_LIMITS.maxStop} strings` })
    .nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  logit_bias: z.record(z.string().regex(/^\d+$/, 'logit_bias keys are token ids'), z.number().min(-100).max(100)).nullish(),
  seed: z.number().int().nullish(),
  user: z.string().nullish(),
});

export type CompletionRequest = z.output<typeof completionRequestSchema>;

/** A prompt as sent: text to tokenize, or token ids as they are. */
export type PromptInput = { kind: 'text'; text: string } | { kind: 'tokens'; tokens: number[] };

export interface CompletionPlan {
  model: string;
  prompts: PromptInput[];
  n: number;
  maxTokens: number;
  sampling: SamplingParams;
  stop: string[];
  /** Top log-probabilities per token (0..20); null: no logprobs. */
  logprobs: number | null;
  echo: boolean;
  stream: boolean;
  includeUsage: boolean;
}

function promptsOf(p: CompletionRequest['prompt']): PromptInput[] {
  if (typeof p === 'string') return [{ kind: 'text', text: p }];
  if (p.length > COMPLETIONS_LIMITS.maxPrompts) throw apiError('too_many_inputs', { max: COMPLETIONS_LIMITS.maxPrompts, items: 'prompts', count: p.length }, 'prompt');
  if (typeof p[0] === 'string') return (p as string[]).map((text) => ({ kind: 'text', text }));
  if (typeof p[0] === 'number') return [{ kind: 'tokens', tokens: p as number[] }];
  return (p as number[][]).map((tokens) => ({ kind: 'tokens', tokens }));
}

export function planCompletion(req: CompletionRequest): CompletionPlan {
  if (req.suffix != null && req.suffix !== '') {
    throw apiError('unsupported_use_instead', { feature: 'suffix (text insertion)', instead: 'send the text before the insertion point as the prompt' }, 'suffix');
  }
  const n = req.n ?? 1;
  if (req.best_of != null && req.best_of !== n) throw apiError('unsupported', { feature: 'best_of other than n' }, 'best_of');
  if (req.stream_options != null && !req.stream) throw apiError('field_requires', { field: 'stream_options', condition: 'stream: true' }, 'stream_options');
  const prompts = promptsOf(req.prompt);
  if (prompts.length * n > COMPLETIONS_LIMITS.maxPrompts) throw apiError('too_many_inputs', { max: COMPLETIONS_LIMITS.maxPrompts, items: 'completions (prompts x n)', count: prompts.length * n }, 'n');
  const sampling = openAiSampling(req);
  return {
    model: req.model,
    prompts,
    n,
    maxTokens: req.max_tokens ?? COMPLETIONS_LIMITS.defaultMaxTokens,
    sampling,
    stop: req.stop == null ? [] : typeof req.stop === 'string' ? [req.stop] : req.stop,
    logprobs: req.logprobs ?? null,
    echo: req.echo === true,
    stream: req.stream === true,
    includeUsage: req.stream_options?.include_usage === true,
  };
}
