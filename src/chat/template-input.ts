// The format-neutral template input (OpenAI-shaped messages and tools) adapted to what the model's
// template can render: tool call ids its template accepts, tool turns written as text where the
// template has no tool syntax, the tool list as instructions where it does not list tools itself,
// and the fields some templates read under their own names.
import { createHash } from 'node:crypto';
import type { ChatTemplateInput } from '../engine/types.js';
import type { ChatFormat } from './chat-format.js';
import { DEEPSEEK_CALL_BEGIN, DEEPSEEK_CALL_END, DEEPSEEK_CALLS_BEGIN, DEEPSEEK_SEP } from './tool-syntax.js';

type Msg = Record<string, unknown>;

interface CallIn {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** A 9-alphanumeric id for a client's tool call id (Mistral's templates accept nothing else): the
 *  same id always maps to the same one, so a call and its result still match. */
export function alnum9(id: string): string {
  if (/^[A-Za-z0-9]{9}$/.test(id)) return id;
  const h = createHash('sha256').update(id).digest();
  let out = '';
  for (let i = 0; i < 9; i++) out += ALNUM[h[i]! % ALNUM.length];
  return out;
}

function argsText(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}

function argsObject(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** The instructions that stand in for the template's own tool list (json family). */
export function jsonToolInstructions(tools: ReadonlyArray<Record<string, unknown>>): string {
  return [
    '# Tools',
    '',
    'You can call the functions listed below. To call one, answer with a fenced JSON block naming the function and its arguments, and write nothing after it:',
    '```json',
    '{"name": "<function name>", "arguments": {<arguments as a JSON object>}}',
    '```',
    'Write one block per call to make several calls. The results come back in a message that starts with "Tool result".',
    '',
    'Functions:',
    ...tools.map((t) => JSON.stringify(t)),
  ].join('\n');
}

/** DeepSeek's templates write calls and results but not the tool list: instructions in its own syntax. */
export function deepseekToolInstructions(tools: ReadonlyArray<Record<string, unknown>>): string {
  return [
    '## Tools',
    '',
    'You can call the functions listed below. To call them, write:',
    `${DEEPSEEK_CALLS_BEGIN}${DEEPSEEK_CALL_BEGIN}function${DEEPSEEK_SEP}<function name>`,
    '```json',
    '<arguments as a JSON object>',
    '```' + DEEPSEEK_CALL_END + '<｜tool▁calls▁end｜>',
    '',
    'Functions:',
    ...tools.map((t) => JSON.stringify(t)),
  ].join('\n');
}

function callsOf(m: Msg): CallIn[] {
  return Array.isArray(m.tool_calls) ? (m.tool_calls as CallIn[]) : [];
}

/** Tool turns as plain text, in the json convention: calls as ```json blocks in the assistant's
 *  content, results as user messages; turns of one role in a row are joined (templates like
 *  Gemma's require user/assistant alternation). */
function toolTurnsAsText(messages: Msg[]): Msg[] {
  const names = new Map<string, string>();
  const out: Msg[] = [];
  const push = (role: string, content: string): void => {
    const last = out[out.length - 1];
    if (last && last.role === role && role !== 'system') out[out.length - 1] = { ...last, content: `${String(last.content)}\n\n${content}` };
    else out.push({ role, content });
  };
  for (const m of messages) {
    if (m.role === 'assistant' && callsOf(m).length > 0) {
      const blocks = callsOf(m).map((c) => {
        const name = String(c.function?.name ?? '');
        if (typeof c.id === 'string') names.set(c.id, name);
        return '```json\n' + JSON.stringify({ name, arguments: argsObject(c.function?.arguments) }) + '\n```';
      });
      const text = typeof m.content === 'string' && m.content ? `${m.content}\n\n` : '';
      push('assistant', text + blocks.join('\n'));
    } else if (m.role === 'tool') {
      const id = typeof m.tool_call_id === 'string' ? m.tool_call_id : '';
      const name = names.get(id) ?? (typeof m.name === 'string' ? m.name : '');
      push('user', `Tool result${name ? ` (${name})` : ''}:\n${String(m.content ?? '')}`);
    } else {
      const last = out[out.length - 1];
      if (last && last.role === m.role && typeof m.content === 'string') push(String(m.role), m.content);
      else out.push(m);
    }
  }
  return out;
}

/** `text` added to the system message (a new one first when there is none), or, for a template
 *  that takes no system message, to the start of the first user message. */
function withSystemText(messages: Msg[], text: string, systemRole: boolean): Msg[] {
  const role = systemRole ? 'system' : 'user';
  const at = systemRole ? 0 : messages.findIndex((m) => m.role === 'user');
  const first = messages[at];
  if (first && first.role === role && typeof first.content === 'string') {
    const content = !first.content ? text : systemRole ? `${first.content}\n\n${text}` : `${text}\n\n${first.content}`;
    return [...messages.slice(0, at), { ...first, content }, ...messages.slice(at + 1)];
  }
  return [{ role, content: text }, ...messages];
}

export function adaptTemplateInput(input: ChatTemplateInput, format: ChatFormat): ChatTemplateInput {
  let messages = input.messages;
  let tools = input.tools;
  let extra = input.extra;
  if (format.callIds === 'alnum9') {
    messages = messages.map((m) => {
      if (m.role === 'tool' && typeof m.tool_call_id === 'string') return { ...m, tool_call_id: alnum9(m.tool_call_id) };
      const calls = callsOf(m);
      if (calls.length === 0) return m;
      return { ...m, tool_calls: calls.map((c) => ({ ...c, id: alnum9(typeof c.id === 'string' ? c.id : '') })) };
    });
  }
  if (format.family === 'deepseek') {
    // Its template tells a call turn by content none and joins the arguments as a string.
    messages = messages.map((m) => {
      const calls = callsOf(m);
      if (m.role !== 'assistant' || calls.length === 0) return m;
      return {
        ...m,
        content: typeof m.content === 'string' && m.content !== '' ? m.content : null,
        tool_calls: calls.map((c) => ({ ...c, function: { ...c.function, arguments: argsText(c.function?.arguments) } })),
      };
    });
  }
  if (format.reasoning === 'harmony') {
    // The gpt-oss template reads the reasoning of an assistant turn from `thinking`.
    messages = messages.map((m) => {
      if (m.role !== 'assistant' || typeof m.reasoning_content !== 'string') return m;
      const { reasoning_content, ...rest } = m;
      return { ...rest, thinking: reasoning_content };
    });
    // Its template concatenates each tool's description: a tool without one would fail it.
    if (tools?.some((t) => (t.function as { description?: unknown } | undefined)?.description === undefined)) {
      tools = tools.map((t) => {
        const fn = t.function as Record<string, unknown> | undefined;
        return fn && fn.description === undefined ? { ...t, function: { ...fn, description: '' } } : t;
      });
    }
    if (extra && extra.enable_thinking === false && extra.reasoning_effort === undefined) {
      // Harmony cannot turn reasoning off; the least there is.
      extra = { ...extra, reasoning_effort: 'low' };
    }
  }
  if (!format.rendersToolTurns) messages = toolTurnsAsText(messages);
  if (!format.rendersTools && tools && tools.length > 0) {
    const text = format.family === 'deepseek' ? deepseekToolInstructions(tools) : jsonToolInstructions(tools);
    messages = withSystemText(messages, text, format.systemRole);
    tools = undefined;
  }
  if (messages === input.messages && tools === input.tools && extra === input.extra) return input;
  const out: ChatTemplateInput = { ...input, messages };
  if (tools) out.tools = tools;
  else delete out.tools;
  if (extra) out.extra = extra;
  return out;
}
