// Anthropic Messages request: zod schema (api.md §3.2; unknown fields accepted and ignored) and its
// conversion to a ChatPlan. Also the count_tokens request, which is the same minus max_tokens.
import { z } from 'zod';
import { apiError } from '../errors.js';
import { assertSchemaDepth, grammarSchema } from './schema-defaults.js';
import type { GrammarSpec } from '../engine/types.js';
import { defaultSampling, effortForBudget, templateTools, type ChatPlan, type ToolMode, type ToolSpec } from './plan.js';

/** Limits of this server, stated where they are enforced. */
export const ANTHROPIC_LIMITS = { maxStopSequences: 16, minThinkingBudget: 1024 } as const;

const cacheControl = z.looseObject({ type: z.string() }).nullish();
const textBlock = z.object({ type: z.literal('text'), text: z.string(), cache_control: cacheControl, citations: z.unknown().optional() });
const imageBlock = z.object({ type: z.literal('image'), source: z.looseObject({ type: z.string() }), cache_control: cacheControl });
const toolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
  is_error: z.boolean().optional(),
  cache_control: cacheControl,
});
const block = z.discriminatedUnion('type', [
  textBlock,
  imageBlock,
  z.object({ type: z.literal('document'), source: z.unknown() }).loose(),
  z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.record(z.string(), z.unknown()), cache_control: cacheControl }),
  toolResultBlock,
  z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string().optional() }),
  z.object({ type: z.literal('redacted_thinking'), data: z.string() }),
  z.object({ type: z.literal('search_result') }).loose(),
  z.object({ type: z.literal('server_tool_use') }).loose(),
  z.object({ type: z.literal('web_search_tool_result') }).loose(),
]);

const messageParam = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(block)]),
});

const toolParam = z.looseObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, 'tool names are 1-128 characters of a-z, A-Z, 0-9, _ and -'),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  type: z.string().nullish(),
});

const toolChoiceParam = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('none') }),
]);

const thinkingParam = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int() }),
  z.object({ type: z.literal('disabled') }),
  z.object({ type: z.literal('adaptive') }).loose(),
]);

const outputConfig = z
  .looseObject({
    effort: z.enum(['low', 'medium', 'high', 'max']).nullish(),
    format: z.object({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) }).nullish(),
  })
  .nullish();

const promptFields = {
  model: z.string().min(1),
  messages: z.array(messageParam).min(1),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  tools: z.array(toolParam).optional(),
  tool_choice: toolChoiceParam.optional(),
  thinking: thinkingParam.optional(),
  output_config: outputConfig,
};

export const messagesRequestSchema = z.object({
  ...promptFields,
  max_tokens: z.number().int().min(1),
  stop_sequences: z.array(z.string()).max(ANTHROPIC_LIMITS.maxStopSequences).optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
});

export const countTokensRequestSchema = z.object(promptFields);

export type MessagesRequest = z.output<typeof messagesRequestSchema>;
export type CountTokensRequest = z.output<typeof countTokensRequestSchema>;

type Block = z.output<typeof block>;

function noVision(param: string): never {
  throw apiError('modality_unsupported', { modality: 'vision', content: 'image content blocks' }, param);
}

function toolResultText(b: z.output<typeof toolResultBlock>, param: string): string {
  if (b.content === undefined) return '';
  if (typeof b.content === 'string') return b.content;
  return b.content
    .map((c, k) => {
      if (c.type === 'text' && typeof c.text === 'string') return c.text;
      if (c.type === 'image') noVision(`${param}.content[${k}]`);
      throw apiError('unsupported', { feature: `tool_result content blocks of type '${c.type}'` }, `${param}.content[${k}]`);
    })
    .join('\n');
}

/** As the Messages API checks tool turns: a tool_result answers a tool_use of the message right
 *  before it, and every tool_use of an assistant message is answered in the next message (when
 *  there is one: a final assistant message is a prefill). */
function checkToolTurns(messages: CountTokensRequest['messages']): void {
  let asked = new Set<string>(); // tool_use ids of the message before
  const used = new Set<string>(); // every tool_use id so far: ids are unique in a conversation
  for (const [i, m] of messages.entries()) {
    const blocks = typeof m.content === 'string' ? [] : m.content;
    const answered = new Set<string>();
    blocks.forEach((b, j) => {
      const at = `messages[${i}].content[${j}]`;
      if (b.type === 'tool_use') {
        if (used.has(b.id)) throw apiError('tool_use_id_duplicate', { at, id: b.id }, `${at}.id`);
        used.add(b.id);
        return;
      }
      if (b.type !== 'tool_result') return;
      if (!asked.has(b.tool_use_id)) {
        throw apiError('tool_result_unexpected', { at, id: b.tool_use_id }, `${at}.tool_use_id`);
      }
      if (answered.has(b.tool_use_id)) {
        throw apiError('tool_result_duplicate', { at, id: b.tool_use_id }, `${at}.tool_use_id`);
      }
      answered.add(b.tool_use_id);
    });
    const missing = [...asked].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      throw apiError('tool_use_unanswered', { at: `messages[${i - 1}]`, ids: missing.join(', ') }, `messages[${i - 1}].content`);
    }
    asked = new Set(blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
  }
}

/** Anthropic turns → HF template messages. A user turn's tool_result blocks become `tool` messages
 *  (in order, before the turn's text); an assistant turn's tool_use blocks become tool_calls. */
function toTemplateMessages(req: CountTokensRequest): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const system = req.system === undefined ? '' : typeof req.system === 'string' ? req.system : req.system.map((b) => b.text).join('\n');
  if (system) out.push({ role: 'system', content: system });
  checkToolTurns(req.messages);
  req.messages.forEach((m, i) => {
    // As the Messages API: content may be empty only in a final assistant message (a prefill of
    // nothing), and a text block never.
    const last = i === req.messages.length - 1 && m.role === 'assistant';
    if ((m.content === '' || (Array.isArray(m.content) && m.content.length === 0)) && !last) {
      throw apiError('message_content_empty', { at: `messages[${i}]` }, `messages[${i}].content`);
    }
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const texts: string[] = [];
    const calls: Array<Record<string, unknown>> = [];
    let reasoning = '';
    blocks.forEach((b, j) => {
      const param = `messages[${i}].content[${j}]`;
      switch (b.type) {
        case 'text':
          // A string content of '' is the final-assistant case above; a text block is never empty.
          if (b.text === '' && Array.isArray(m.content)) throw apiError('text_block_empty', {}, `${param}.text`);
          texts.push(b.text);
          break;
        case 'image':
          noVision(param);
          break;
        case 'tool_result':
          if (m.role !== 'user') throw apiError('block_in_wrong_role', { block: 'tool_result', role: 'user' }, param);
          out.push({ role: 'tool', content: (b.is_error ? 'Error: ' : '') + toolResultText(b, param), tool_call_id: b.tool_use_id });
          break;
        case 'tool_use':
          if (m.role !== 'assistant') throw apiError('block_in_wrong_role', { block: 'tool_use', role: 'assistant' }, param);
          calls.push({ id: b.id, type: 'function', function: { name: b.name, arguments: b.input } });
          break;
        case 'thinking':
          reasoning += b.thinking;
          break;
        case 'redacted_thinking':
          break;
        default:
          throw apiError('unsupported', { feature: `content blocks of type '${b.type}'` }, param);
      }
    });
    if (m.role === 'user') {
      const hadToolResults = blocks.some((b) => b.type === 'tool_result');
      if (texts.length > 0 || !hadToolResults) out.push({ role: 'user', content: texts.join('\n') });
    } else {
      const msg: Record<string, unknown> = { role: 'assistant', content: texts.join('\n') };
      if (calls.length) msg.tool_calls = calls;
      if (reasoning) msg.reasoning_content = reasoning;
      out.push(msg);
    }
  });
  return out;
}

function collectTools(req: CountTokensRequest): ToolSpec[] {
  const seen = new Set<string>();
  return (req.tools ?? []).map((t, i) => {
    if (t.type != null && t.type !== 'custom') {
      throw apiError('unsupported_use_instead', { feature: `server tools ('${t.type}')`, instead: 'declare custom tools with an input_schema' }, `tools[${i}]`);
    }
    if (!t.input_schema) throw apiError('field_requirement', { field: 'input_schema', requirement: 'given for custom tools' }, `tools[${i}].input_schema`);
    if (t.input_schema.type !== 'object') throw apiError('field_requirement', { field: 'input_schema.type', requirement: "'object'" }, `tools[${i}].input_schema.type`);
    if (seen.has(t.name)) throw apiError('duplicate_tool_name', { name: t.name }, `tools[${i}].name`);
    seen.add(t.name);
    assertSchemaDepth(t.input_schema, `tools[${i}].input_schema`);
    return { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.input_schema };
  });
}

function toolMode(req: CountTokensRequest, tools: ToolSpec[]): ToolMode {
  const c = req.tool_choice;
  if (!c) return tools.length ? { kind: 'auto' } : { kind: 'none' };
  if (c.type === 'none') return { kind: 'none' };
  if (tools.length === 0) throw apiError('tool_choice_without_tools', { choice: c.type });
  if (c.type === 'auto') return { kind: 'auto' };
  if (c.type === 'any') return { kind: 'forced', names: tools.map((t) => t.name), named: false };
  if (!tools.some((t) => t.name === c.name)) throw apiError('tool_choice_unknown_tool', { field: 'tool_choice', name: c.name }, 'tool_choice.name');
  return { kind: 'forced', names: [c.name], named: false };
}

/** The prompt-defining part of a plan; shared by /v1/messages and count_tokens so they agree. */
export function planFromAnthropic(req: CountTokensRequest, gen?: MessagesRequest): ChatPlan {
  const tools = collectTools(req);
  const mode = toolMode(req, tools);
  const messages = toTemplateMessages(req);
  // A trailing assistant turn is a prefill: the answer continues it.
  let assistantPrefill = '';
  const last = messages[messages.length - 1];
  if (last && last.role === 'assistant' && !last.tool_calls) {
    messages.pop();
    assistantPrefill = String(last.content ?? '');
    if (/\s$/.test(assistantPrefill)) throw apiError('prefill_trailing_whitespace', {}, `messages[${req.messages.length - 1}].content`);
    if (mode.kind === 'forced') throw apiError('conflicts_with_forced_tool', { feature: 'an assistant prefill' }, 'messages');
  }
  const extra: Record<string, unknown> = {};
  let reasoningEffort: ChatPlan['reasoningEffort'];
  const th = req.thinking;
  if (th?.type === 'enabled') {
    if (th.budget_tokens < ANTHROPIC_LIMITS.minThinkingBudget) {
      throw apiError('field_requirement', { field: 'thinking.budget_tokens', requirement: `at least ${ANTHROPIC_LIMITS.minThinkingBudget}` }, 'thinking.budget_tokens');
    }
    if (gen && th.budget_tokens >= gen.max_tokens) {
      throw apiError('field_requirement', { field: 'thinking.budget_tokens', requirement: 'less than max_tokens' }, 'thinking.budget_tokens');
    }
    // As Anthropic answers: a forced call starts with the call itself, leaving no turn to think in.
    if (mode.kind === 'forced') throw apiError('thinking_with_forced_tool');
    reasoningEffort = effortForBudget(th.budget_tokens);
    extra.enable_thinking = true;
  } else if (th?.type === 'disabled') {
    extra.enable_thinking = false;
  } else if (th?.type === 'adaptive') {
    extra.enable_thinking = true;
  }
  const effort = req.output_config?.effort;
  if (!reasoningEffort && effort) reasoningEffort = effort === 'max' ? 'high' : effort;
  if (reasoningEffort) extra.reasoning_effort = reasoningEffort;
  const grammar: GrammarSpec | undefined = req.output_config?.format ? { kind: 'json_schema', schema: grammarSchema(req.output_config.format.schema, 'output_config.format') } : undefined;
  if (grammar && mode.kind === 'forced') throw apiError('conflicts_with_forced_tool', { feature: 'output_config.format' }, 'output_config.format');

  const sampling = defaultSampling();
  if (gen?.temperature !== undefined) sampling.temperature = gen.temperature;
  if (gen?.top_p !== undefined) sampling.topP = gen.top_p;
  if (gen?.top_k !== undefined) sampling.topK = gen.top_k;
  return {
    model: req.model,
    template: {
      messages,
      ...(tools.length ? { tools: templateTools(tools) } : {}),
      addGenerationPrompt: true,
      ...(assistantPrefill ? { assistantPrefill } : {}),
      ...(Object.keys(extra).length ? { extra } : {}),
    },
    tools,
    toolMode: mode,
    parallelToolCalls: !(req.tool_choice && 'disable_parallel_tool_use' in req.tool_choice && req.tool_choice.disable_parallel_tool_use),
    maxTokens: gen ? gen.max_tokens : null,
    maxTokensParam: 'max_tokens',
    sampling,
    stop: (gen?.stop_sequences ?? []).filter((s) => s.length > 0),
    ...(grammar ? { grammar, grammarParam: 'output_config.format' } : {}),
    n: 1,
    logprobs: false,
    topLogprobs: 0,
    ...(reasoningEffort ? { reasoningEffort } : {}),
  };
}
