// How each model family writes a tool call, as blocks the output parser looks for: a marker that
// opens the block, what closes it (or the end of the output), and the parse of its body into calls.
// A body that does not parse is given back as text by the parser, so nothing the model wrote is lost.

export interface ParsedCall {
  name: string;
  /** JSON text of the arguments object. */
  arguments: string;
}

export interface CallBlock {
  /** Text that opens the block. */
  open: string;
  /** Text that closes it; null: the block runs to the end of the output. */
  close: string | null;
  /** The opening text is the start of the body (a bare JSON object opens with `{`). */
  openInBody?: boolean;
  /** Recognised only where the answer has no text before it (whitespace and reasoning aside). */
  atStart?: boolean;
  /** The calls in the body; null when it is not a well-formed block. `tools`: the offered names. */
  parse(body: string, tools: ReadonlySet<string>): ParsedCall[] | null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** Arguments as a JSON object text: an object, or a string holding one; null otherwise. */
function argumentsText(args: unknown): string | null {
  if (typeof args === 'string') args = parseJson(args);
  return isObject(args) ? JSON.stringify(args) : null;
}

/** `{"name": …, "arguments"|"parameters": {…}}` (OpenAI's `{"type": "function", "function": {…}}`
 *  wrapper accepted too); null when it is not a call. */
export function callFromObject(v: unknown): ParsedCall | null {
  if (!isObject(v)) return null;
  if (v.type === 'function' && isObject(v.function)) v = v.function;
  const o = v as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name.length === 0) return null;
  const args = argumentsText(o.arguments ?? o.parameters ?? {});
  return args === null ? null : { name: o.name, arguments: args };
}

/** Parses the JSON body of a Hermes tool call; null when it is not a well-formed call. */
export function parseHermesToolCall(raw: string): ParsedCall | null {
  return callFromObject(parseJson(raw.trim()));
}

/** One call object, or an array of them (every element a call). */
function callsFromJson(text: string): ParsedCall[] | null {
  const v = parseJson(text.trim());
  const items = Array.isArray(v) ? v : [v];
  if (items.length === 0) return null;
  const calls: ParsedCall[] = [];
  for (const item of items) {
    const c = callFromObject(item);
    if (!c) return null;
    calls.push(c);
  }
  return calls;
}

/** Calls of offered tools only: where the syntax is plain JSON, a JSON answer that happens to have
 *  a "name" is not taken for a call. */
function offered(calls: ParsedCall[] | null, tools: ReadonlySet<string>): ParsedCall[] | null {
  return calls && calls.every((c) => tools.has(c.name)) ? calls : null;
}

/** Qwen2.5 / Qwen3 / Hermes: `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`. */
export const HERMES_BLOCK: CallBlock = {
  open: '<tool_call>',
  close: '</tool_call>',
  parse: (body) => {
    const c = parseHermesToolCall(body);
    return c ? [c] : null;
  },
};

/** Several JSON calls separated by `;` or newlines (Llama 3.x writes one, sometimes more). */
function jsonCallSequence(body: string): ParsedCall[] | null {
  const whole = callsFromJson(body);
  if (whole) return whole;
  const parts = body.split(/;\s*|\n+/).filter((p) => p.trim() !== '');
  if (parts.length < 2) return null;
  const calls: ParsedCall[] = [];
  for (const p of parts) {
    const c = parseHermesToolCall(p);
    if (!c) return null;
    calls.push(c);
  }
  return calls;
}

/** Llama 3.1+ built-in tool call after <|python_tag|>: `brave_search.call(query="…")`. */
function builtinCall(body: string): ParsedCall | null {
  const m = /^\s*([A-Za-z_][\w]*)\.call\(([\s\S]*)\)\s*$/.exec(body);
  if (!m) return null;
  const args: Record<string, unknown> = {};
  const re = /\s*([A-Za-z_]\w*)\s*=\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?|True|False|None)\s*(?:,|$)/y;
  let at = 0;
  const src = m[2]!;
  while (at < src.length) {
    re.lastIndex = at;
    const a = re.exec(src);
    if (!a) return src.slice(at).trim() === '' ? { name: m[1]!, arguments: JSON.stringify(args) } : null;
    const raw = a[2]!;
    args[a[1]!] =
      raw === 'True' ? true
      : raw === 'False' ? false
      : raw === 'None' ? null
      : raw.startsWith("'") ? raw.slice(1, -1).replace(/\\(.)/g, '$1')
      : (parseJson(raw) as unknown);
    at = re.lastIndex;
  }
  return { name: m[1]!, arguments: JSON.stringify(args) };
}

/** Llama 3.x: `<|python_tag|>` then JSON call(s) or a built-in `tool.call(k="v")`, to the end;
 *  plain code is a call of an offered `python` / `code_interpreter` tool (its built-in). */
export const LLAMA3_PYTHON_TAG_BLOCK: CallBlock = {
  open: '<|python_tag|>',
  close: null,
  parse: (body, tools) => {
    const json = jsonCallSequence(body);
    if (json) return json;
    const b = builtinCall(body);
    if (b) return [b];
    const code = ['python', 'code_interpreter'].find((n) => tools.has(n));
    return code && body.trim() ? [{ name: code, arguments: JSON.stringify({ code: body.trim() }) }] : null;
  },
};

/** Llama 3.x: the answer is a bare `{"name": …, "parameters": {…}}` (the template asks for it). */
export const BARE_JSON_BLOCK: CallBlock = {
  open: '{',
  close: null,
  openInBody: true,
  atStart: true,
  parse: (body, tools) => offered(jsonCallSequence(body), tools),
};

/** Mistral: `[TOOL_CALLS] [{"name": …, "arguments": {…}, "id": …}, …]` (v0.3 / Nemo templates) or,
 *  in newer templates, `[TOOL_CALLS]name[ARGS]{…}` (optionally `name[CALL_ID]id[ARGS]{…}`), repeated. */
export const MISTRAL_BLOCK: CallBlock = {
  open: '[TOOL_CALLS]',
  close: null,
  parse: (body) => {
    const t = body.trim();
    if (t.startsWith('[')) return callsFromJson(t);
    const calls: ParsedCall[] = [];
    for (const part of t.split('[TOOL_CALLS]')) {
      const m = /^\s*([A-Za-z0-9_.-]+)(?:\[CALL_ID\][A-Za-z0-9]+)?\[ARGS\]([\s\S]*)$/.exec(part);
      if (!m) return null;
      const args = argumentsText(parseJson(m[2]!.trim()));
      if (args === null) return null;
      calls.push({ name: m[1]!, arguments: args });
    }
    return calls.length ? calls : null;
  },
};

export const DEEPSEEK_CALLS_BEGIN = '<｜tool▁calls▁begin｜>';
export const DEEPSEEK_CALLS_END = '<｜tool▁calls▁end｜>';
export const DEEPSEEK_CALL_BEGIN = '<｜tool▁call▁begin｜>';
export const DEEPSEEK_CALL_END = '<｜tool▁call▁end｜>';
export const DEEPSEEK_SEP = '<｜tool▁sep｜>';

/** One item's inside: `function<｜tool▁sep｜>NAME\n```json\n{…}\n```` (the fence is optional). */
const DEEPSEEK_ITEM = /^\s*\w*<｜tool▁sep｜>([^\n]+)\n\s*(?:```(?:json)?\s*([\s\S]*?)\s*```|([\s\S]*?))\s*$/;

/** DeepSeek V3 / R1: `<｜tool▁calls▁begin｜>` items `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>` `<｜tool▁calls▁end｜>`. */
export const DEEPSEEK_BLOCK: CallBlock = {
  open: DEEPSEEK_CALLS_BEGIN,
  close: DEEPSEEK_CALLS_END,
  parse: (body) => {
    const calls: ParsedCall[] = [];
    const items = body.split(DEEPSEEK_CALL_BEGIN);
    if (items[0]!.trim() !== '') return null;
    for (const item of items.slice(1)) {
      const end = item.indexOf(DEEPSEEK_CALL_END);
      const inner = end >= 0 ? item.slice(0, end) : item;
      if (end >= 0 && item.slice(end + DEEPSEEK_CALL_END.length).trim() !== '') return null;
      const m = DEEPSEEK_ITEM.exec(inner);
      if (!m) return null;
      const args = argumentsText(parseJson(m[2] ?? m[3] ?? ''));
      if (args === null) return null;
      calls.push({ name: m[1]!.trim(), arguments: args });
    }
    return calls.length ? calls : null;
  },
};


/** The convention for templates with no tool syntax of their own (Gemma and the like; see
 *  docs/chat-formats.md): a call is a fenced ```json block holding `{"name": …, "arguments": {…}}`
 *  (or an array of them) that names an offered tool. */
export const JSON_FENCE_BLOCK: CallBlock = {
  open: '```json',
  close: '```',
  parse: (body, tools) => offered(callsFromJson(body), tools),
};
