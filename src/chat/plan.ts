// The format-neutral description of one chat request, built from either wire format
// (from-openai.ts, from-anthropic.ts) and consumed by prompt building and the generation runner.
import type { ChatTemplateInput, GrammarSpec, SamplingParams } from '../engine/types.js';
import { GREEDY_SAMPLING } from '../engine/sampling.js';

export interface ToolSpec {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object; null when the tool declared none. */
  parameters: Record<string, unknown> | null;
}

export type ToolMode =
  /** No tool-call parsing: whatever the model writes is text. */
  | { kind: 'none' }
  /** The model may call any offered tool; calls are parsed from its output. */
  | { kind: 'auto' }
  /** The model must call one of `names`; the call is generated under its parameters schema.
   *  `named` is true when the client named the one tool (OpenAI then reports finish_reason 'stop'). */
  | { kind: 'forced'; names: string[]; named: boolean };

export type ReasoningEffort = 'low' | 'medium' | 'high';

export interface ChatPlan {
  /** Model id as the client sent it (echoed in responses). */
  model: string;
  template: ChatTemplateInput;
  tools: ToolSpec[];
  toolMode: ToolMode;
  /** false: answer with at most one tool call (parallel_tool_calls / disable_parallel_tool_use). */
  parallelToolCalls: boolean;
  /** null: as many as the context window leaves. */
  maxTokens: number | null;
  /** The request field that carried maxTokens, for error messages. */
  maxTokensParam: string;
  sampling: SamplingParams;
  stop: string[];
  grammar?: GrammarSpec;
  /** The request field that carried `grammar` (response_format, output_config.format), for errors. */
  grammarParam?: string;
  n: number;
  /** Per-token logprobs requested; topLogprobs alternatives per token (0..20). */
  logprobs: boolean;
  topLogprobs: number;
  reasoningEffort?: ReasoningEffort;
}

/** Anthropic thinking budget → effort tier (SPEC.md: under 8k low, under 24k medium, else high). */
export function effortForBudget(budgetTokens: number): ReasoningEffort {
  if (budgetTokens < 8192) return 'low';
  if (budgetTokens < 24576) return 'medium';
  return 'high';
}

/** The APIs' defaults (temperature 1, every filter and penalty off), as a new object for the
 *  request's fields to fill in. */
export function defaultSampling(): SamplingParams {
  return { ...GREEDY_SAMPLING, temperature: 1, logitBias: {} };
}

/** The sampling fields that OpenAI's chat and legacy completions requests share. */
export interface OpenAiSamplingFields {
  temperature?: number | null;
  top_p?: number | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  seed?: number | null;
  logit_bias?: Record<string, number> | null;
}

/** The API defaults with an OpenAI request's sampling fields applied. */
export function openAiSampling(req: OpenAiSamplingFields): SamplingParams {
  const sampling = defaultSampling();
  if (req.temperature != null) sampling.temperature = req.temperature;
  if (req.top_p != null) sampling.topP = req.top_p;
  if (req.presence_penalty != null) sampling.presencePenalty = req.presence_penalty;
  if (req.frequency_penalty != null) sampling.frequencyPenalty = req.frequency_penalty;
  if (req.seed != null) sampling.seed = req.seed;
  if (req.logit_bias) for (const [k, v] of Object.entries(req.logit_bias)) sampling.logitBias[Number(k)] = v;
  return sampling;
}

/** Tools in the shape HF chat templates expect. */
export function templateTools(tools: readonly ToolSpec[]): Array<Record<string, unknown>> {
  return tools.map((t) => ({
    type: 'function',
    function: {
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      parameters: t.parameters ?? { type: 'object', properties: {} },
    },
  }));
}

/** Tool-call arguments as a template wants them: an object when the JSON parses. */
export function argumentsForTemplate(args: string): unknown {
  try {
    const v: unknown = JSON.parse(args);
    return v;
  } catch {
    return args;
  }
}
