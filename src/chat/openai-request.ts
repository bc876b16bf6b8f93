// OpenAI Chat Completions request: the zod schema (every documented field accepted, unknown fields
// ignored, api.md §1.1) and its conversion to a ChatPlan.
import { z } from 'zod';
import { apiError } from '../errors.js';
import { assertSchemaDepth, grammarSchema } from './schema-defaults.js';
import type { GrammarSpec } from '../engine/types.js';
import {
  argumentsForTemplate,
  openAiSampling,
  templateTools,
  type ChatPlan,
  type ReasoningEffort,
  type ToolMode,
  type ToolSpec,
} from './plan.js';

/** Limits of this server, stated where they are enforced. */
/** The values OpenAI takes for `reasoning_effort` ('none' turns a hybrid model's thinking off). */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export const OPENAI_LIMITS = { maxN: 16, maxStop: 4, maxTopLogprobs: 20 } as const;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const userPart = z.discriminatedUnion('type', [
  textPart,
  z.object({ type: z.literal('image_url'), image_url: z.object({ url: z.string(), detail: z.string().optional() }) }),
  z.object({ type: z.literal('input_audio'), input_audio: z.object({ data: z.string(), format: z.string() }) }),
  z.object({ type: z.literal('file'), file: z.looseObject({}) }),
]);
const assistantPart = z.discriminatedUnion('type', [
  textPart,
  z.object({ type: z.literal('refusal'), refusal: z.string() }),
]);

const toolCall = z.object({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

const message = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.union([z.string(), z.array(textPart)]), name: z.string().nullish() }),
  z.object({ role: z.literal('developer'), content: z.union([z.string(), z.array(textPart)]), name: z.string().nullish() }),
  z.object({ role: z.literal('user'), content: z.union([z.string(), z.array(userPart)]), name: z.string().nullish() }),
  z.object({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(assistantPart)]).nullish(),
    tool_calls: z.array(toolCall).nullish(),
    function_call: z.object({ name: z.string(), arguments: z.string() }).nullish(),
    reasoning_content: z.string().nullish(),
    refusal: z.string().nullish(),
    name: z.string().nullish(),
  }),
  z.object({ role: z.literal('tool'), content: z.union([z.string(), z.array(textPart)]), tool_call_id: z.string() }),
  z.object({ role: z.literal('function'), name: z.string(), content: z.string().nullable() }),
]);

const functionDef = z.object({
  name: z.string().regex(TOOL_NAME, 'tool names are 1-64 characters of a-z, A-Z, 0-9, _ and -'),
  description: z.string().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  strict: z.boolean().nullish(),
});

const tool = z.discriminatedUnion('type', [
  z.object({ type: z.literal('function'), function: functionDef }),
  z.object({ type: z.literal('custom'), custom: z.looseObject({ name: z.string() }) }),
]);

const namedFunction = z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) });
const toolChoice = z.union([
  z.enum(['none', 'auto', 'required']),
  namedFunction,
  z.object({
    type: z.literal('allowed_tools'),
    allowed_tools: z.object({ mode: z.enum(['auto', 'required']), tools: z.array(z.looseObject({ type: z.string() })) }),
  }),
  z.object({ type: z.literal('custom'), custom: z.object({ name: z.string() }) }),
]);

const responseFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({
    type: z.literal('json_schema'),
    json_schema: z.object({
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'name is 1-64 characters of a-z, A-Z, 0-9, _ and -'),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullish(),
    }),
  }),
]);

export const chatCompletionRequestSchema = z.object({
  model: z.string().min(1),
  messages: z.array(message).min(1),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  n: z.number().int().min(1).max(OPENAI_LIMITS.maxN).nullish(),
  stop: z
    .union([z.string(), z.array(z.string()).max(OPENAI_LIMITS.maxStop)], { error: `stop must be a string or an array of at most ${OPENAI_LIMITS.maxStop} strings` })
    .nullish(),
  seed: z.number().int().nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  logit_bias: z.record(z.string().regex(/^\d+$/, 'logit_bias keys are token ids'), z.number().min(-100).max(100)).nullish(),
  logprobs: z.boolean().nullish(),
  top_logprobs: z.number().int().min(0).max(OPENAI_LIMITS.maxTopLogprobs).nullish(),
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().optional(), include_obfuscation: z.boolean().optional() }).nullish(),
  tools: z.array(tool).nullish(),
  tool_choice: toolChoice.nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  response_format: responseFormat.nullish(),
  reasoning_effort: z.enum(REASONING_EFFORTS).nullish(),
  functions: z.array(functionDef).nullish(),
  function_call: z.union([z.enum(['none', 'auto']), z.object({ name: z.string() })]).nullish(),
});

export type ChatCompletionRequest = z.output<typeof chatCompletionRequestSchema>;

function joinText(content: string | ReadonlyArray<{ type: string; text?: string; refusal?: string }> | null | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => p.text ?? p.refusal ?? '').join('\n');
}

function userText(content: ChatCompletionRequest['messages'][number]['content'], at: number): string {
  if (content == null || typeof content === 'string') return content ?? '';
  const parts: string[] = [];
  content.forEach((p, j) => {
    if (p.type === 'text') parts.push(p.text);
    else if (p.type === 'image_url') {
      throw apiError('modality_unsupported', { modality: 'vision', content: 'image content' }, `messages[${at}].content[${j}]`);
    } else if (p.type === 'input_audio') {
      throw apiError('modality_unsupported', { modality: 'audio', content: 'input_audio content' }, `messages[${at}].content[${j}]`);
    } else if (p.type === 'file') {
      throw apiError('unsupported_use_instead', { feature: 'file content parts', instead: 'send the text inline' }, `messages[${at}].content[${j}]`);
    }
  });
  return parts.join('\n');
}

/** As the Chat Completions API checks tool turns: each `tool` message answers a call of the
 *  assistant message before its run of tool messages, and every call gets its answer before the
 *  next other message (or the end). */
function checkToolTurns(messages: ChatCompletionRequest['messages']): void {
  // The assistant message whose calls are being answered, and the ids still unanswered.
  let calls: { at: number; ids: Set<string> } | null = null;
  const unanswered = (c: { at: number; ids: Set<string> }): never => {
    throw apiError('tool_calls_unanswered', { ids: [...c.ids].join(', ') }, `messages[${c.at}].role`);
  };
  for (const [i, m] of messages.entries()) {
    if (m.role === 'tool') {
      if (!calls) {
        throw apiError('tool_message_orphan', {}, `messages[${i}].role`);
      }
      if (!calls.ids.delete(m.tool_call_id)) {
        throw apiError('tool_call_id_unknown', { id: m.tool_call_id }, `messages[${i}].tool_call_id`);
      }
      continue;
    }
    if (calls && calls.ids.size > 0) unanswered(calls);
    const made = m.role === 'assistant' ? (m.tool_calls ?? []) : [];
    const ids = new Set<string>();
    made.forEach((c, k) => {
      // Two calls with one id could not both be answered: which tool message answers which?
      if (ids.has(c.id)) throw apiError('tool_call_id_duplicate', { id: c.id }, `messages[${i}].tool_calls[${k}].id`);
      ids.add(c.id);
    });
    calls = ids.size > 0 ? { at: i, ids } : null;
  }
  if (calls && calls.ids.size > 0) unanswered(calls);
}

function toTemplateMessages(req: ChatCompletionRequest): Array<Record<string, unknown>> {
  checkToolTurns(req.messages);
  return req.messages.map((m, i) => {
    switch (m.role) {
      case 'system':
      case 'developer':
        // HF templates know 'system' only; 'developer' is its newer name.
        return { role: 'system', content: joinText(m.content) };
      case 'user':
        return { role: 'user', content: userText(m.content, i) };
      case 'assistant': {
        // As the API answers: content may be left out only beside tool_calls / function_call.
        if (m.content == null && !m.tool_calls?.length && !m.function_call) {
          throw apiError('assistant_content_missing', { at: `messages[${i}]` }, `messages[${i}].content`);
        }
        const out: Record<string, unknown> = { role: 'assistant', content: joinText(m.content) };
        const calls = m.tool_calls ?? (m.function_call ? [{ id: `call_${i}`, type: 'function' as const, function: m.function_call }] : null);
        if (calls && calls.length > 0) {
          out.tool_calls = calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.function.name, arguments: argumentsForTemplate(c.function.arguments) },
          }));
        }
        if (m.reasoning_content) out.reasoning_content = m.reasoning_content;
        return out;
      }
      case 'tool':
        return { role: 'tool', content: joinText(m.content), tool_call_id: m.tool_call_id };
      case 'function':
        return { role: 'tool', content: m.content ?? '', name: m.name };
    }
  });
}

function collectTools(req: ChatCompletionRequest): ToolSpec[] {
  const out: ToolSpec[] = [];
  const seen = new Set<string>();
  const add = (f: z.output<typeof functionDef>, param: string, parametersParam: string): void => {
    if (seen.has(f.name)) throw apiError('duplicate_tool_name', { name: f.name }, param);
    seen.add(f.name);
    if (f.parameters) {
      assertSchemaDepth(f.parameters, parametersParam);
      // As OpenAI answers: a function takes an object of arguments.
      if (f.parameters.type !== undefined && f.parameters.type !== 'object') {
        throw apiError('tool_parameters_not_object', { name: f.name, type: String(JSON.stringify(f.parameters.type)) }, parametersParam);
      }
    }
    out.push({ name: f.name, ...(f.description !== undefined ? { description: f.description } : {}), parameters: f.parameters ?? null });
  };
  (req.tools ?? []).forEach((t, i) => {
    if (t.type !== 'function') throw apiError('unsupported_use_instead', { feature: 'custom tools', instead: 'use type "function"' }, `tools[${i}]`);
    add(t.function, `tools[${i}]`, `tools[${i}].function.parameters`);
  });
  if (!req.tools) (req.functions ?? []).forEach((f, i) => add(f, `functions[${i}]`, `functions[${i}].parameters`));
  return out;
}

/** The request offers the deprecated `functions` (no `tools`): the answer is a `function_call`. */
export function usesLegacyFunctions(req: ChatCompletionRequest): boolean {
  return !req.tools && (req.functions?.length ?? 0) > 0;
}

function resolveToolMode(req: ChatCompletionRequest, tools: ToolSpec[]): { mode: ToolMode; offered: ToolSpec[] } {
  let choice: ChatCompletionRequest['tool_choice'] = req.tool_choice;
  if (choice == null && req.function_call != null && !req.tools) {
    choice = typeof req.function_call === 'string' ? req.function_call : { type: 'function', function: { name: req.function_call.name } };
  }
  const has = (name: string): boolean => tools.some((t) => t.name === name);
  if (choice == null) return { mode: tools.length ? { kind: 'auto' } : { kind: 'none' }, offered: tools };
  if (typeof choice === 'string') {
    if (choice !== 'none' && tools.length === 0) throw apiError('tool_choice_without_tools', { choice });
    if (choice === 'none') return { mode: { kind: 'none' }, offered: tools };
    if (choice === 'auto') return { mode: { kind: 'auto' }, offered: tools };
    return { mode: { kind: 'forced', names: tools.map((t) => t.name), named: false }, offered: tools };
  }
  if (choice.type === 'function') {
    if (!has(choice.function.name)) throw apiError('tool_choice_unknown_tool', { field: 'tool_choice', name: choice.function.name });
    return { mode: { kind: 'forced', names: [choice.function.name], named: true }, offered: tools };
  }
  if (choice.type === 'allowed_tools') {
    const names = choice.allowed_tools.tools.map((t) => (t.function as { name?: string } | undefined)?.name ?? String(t.name ?? ''));
    for (const n of names) if (!has(n)) throw apiError('tool_choice_unknown_tool', { field: 'allowed_tools', name: n });
    const offered = tools.filter((t) => names.includes(t.name));
    if (choice.allowed_tools.mode === 'auto') return { mode: { kind: 'auto' }, offered };
    return { mode: { kind: 'forced', names, named: false }, offered };
  }
  throw apiError('unsupported', { feature: 'custom tool choices' }, 'tool_choice');
}

function grammarFor(req: ChatCompletionRequest): GrammarSpec | undefined {
  const rf = req.response_format;
  if (!rf || rf.type === 'text') return undefined;
  if (rf.type === 'json_object') return { kind: 'json_object' };
  return rf.json_schema.schema ? { kind: 'json_schema', schema: grammarSchema(rf.json_schema.schema, 'response_format') } : { kind: 'json_object' };
}

const EFFORTS: Record<Exclude<(typeof REASONING_EFFORTS)[number], 'none'>, ReasoningEffort> = { minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'high' };

export function planFromOpenAI(req: ChatCompletionRequest): ChatPlan {
  const tools = collectTools(req);
  const { mode, offered } = resolveToolMode(req, tools);
  const grammar = grammarFor(req);
  if (grammar && mode.kind === 'forced') {
    throw apiError('conflicts_with_forced_tool', { feature: 'response_format' }, 'response_format');
  }
  if (req.top_logprobs != null && req.top_logprobs > 0 && !req.logprobs) {
    throw apiError('field_requires', { field: 'top_logprobs', condition: 'logprobs: true' }, 'top_logprobs');
  }
  if (req.stream_options != null && !req.stream) {
    throw apiError('field_requires', { field: 'stream_options', condition: 'stream: true' }, 'stream_options');
  }
  const sampling = openAiSampling(req);
  const effort = req.reasoning_effort && req.reasoning_effort !== 'none' ? EFFORTS[req.reasoning_effort] : undefined;
  const extra: Record<string, unknown> = {};
  if (effort) extra.reasoning_effort = effort;
  // A hybrid template's thinking switch: off for the two efforts that ask for (almost) none; on
  // for the others (a template that defaults to off, e.g. some DeepSeek ones, then thinks).
  if (req.reasoning_effort === 'none' || req.reasoning_effort === 'minimal') extra.enable_thinking = false;
  else if (req.reasoning_effort) extra.enable_thinking = true;
  const stop = req.stop == null ? [] : typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (req.max_tokens != null && req.max_completion_tokens != null) {
    // As OpenAI answers: one of them would be ignored without a word.
    throw apiError('max_tokens_conflict');
  }
  const maxTokensParam = req.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens';
  return {
    model: req.model,
    template: {
      messages: toTemplateMessages(req),
      // Tools stay in the prompt under tool_choice 'none': the history may refer to them.
      ...(offered.length ? { tools: templateTools(offered) } : {}),
      addGenerationPrompt: true,
      ...(Object.keys(extra).length ? { extra } : {}),
    },
    tools: offered,
    toolMode: mode,
    // The legacy `functions` API answers with one function_call at most.
    parallelToolCalls: usesLegacyFunctions(req) ? false : (req.parallel_tool_calls ?? true),
    maxTokens: req.max_completion_tokens ?? req.max_tokens ?? null,
    maxTokensParam,
    sampling,
    stop: stop.filter((s) => s.length > 0),
    ...(grammar ? { grammar, grammarParam: 'response_format' } : {}),
    n: req.n ?? 1,
    logprobs: req.logprobs ?? false,
    topLogprobs: req.logprobs ? (req.top_logprobs ?? 0) : 0,
    ...(effort ? { reasoningEffort: effort } : {}),
  };
}
