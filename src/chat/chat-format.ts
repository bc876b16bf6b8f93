// The one place that decides how a model's chat turn is written: how it reasons, how it calls
// tools, how a forced call is laid out for the grammar. Chosen from the markers the model's own
// chat template uses, never from the model's name (docs/chat-formats.md).
import {
  BARE_JSON_BLOCK,
  DEEPSEEK_BLOCK,
  DEEPSEEK_CALL_BEGIN,
  DEEPSEEK_CALL_END,
  DEEPSEEK_CALLS_BEGIN,
  DEEPSEEK_SEP,
  HERMES_BLOCK,
  JSON_FENCE_BLOCK,
  LLAMA3_PYTHON_TAG_BLOCK,
  MISTRAL_BLOCK,
  type CallBlock,
} from './tool-syntax.js';

export type ChatFamily =
  /** Qwen2.5 / Qwen3 / Hermes `<tool_call>` JSON. */
  | 'hermes'
  /** Llama 3.1+: a bare `{"name", "parameters"}` object, or `<|python_tag|>`. */
  | 'llama3'
  /** Mistral `[TOOL_CALLS] [{…}]`. */
  | 'mistral'
  /** Newer Mistral `[TOOL_CALLS]name[ARGS]{…}`. */
  | 'mistral-args'
  /** DeepSeek V3 / R1 `<｜tool▁calls▁begin｜>` blocks. */
  | 'deepseek'
  /** gpt-oss harmony channels. */
  | 'harmony'
  /** No tool syntax in the template (Gemma, Llama 3.0, Mistral v0.1, …): the ```json convention. */
  | 'json';

/** How a forced call is written around the arguments the grammar generates. */
export interface ForcedCallSyntax {
  /** Text before the tool's name in call `index` of the turn. */
  beforeName(index: number): string;
  /** The name as the syntax writes it (a JSON string, or bare). */
  name(name: string): string;
  /** Text between the name and the arguments object. */
  afterName: string;
  /** Text after the arguments object, closing the call. */
  afterArguments: string;
  /** Where another call may follow: the text that opens it (seen in a short free generation after
   *  a call) and the text joining the two calls. null: one call a turn. */
  next: { marker: string; join: string } | null;
}

export interface ChatFormat {
  family: ChatFamily;
  /** 'think': `<think>…</think>`; 'harmony': the analysis channel; null: none. */
  reasoning: 'think' | 'harmony' | null;
  /** The blocks the output parser recognises as tool calls (harmony parses its own). */
  calls: CallBlock[];
  forced: ForcedCallSyntax;
  /** The template writes the offered tools into the prompt itself. */
  rendersTools: boolean;
  /** The template writes assistant tool calls and tool results itself. */
  rendersToolTurns: boolean;
  /** The template takes a system message: false for one that raises on roles and never names
   *  'system' (Mistral v0.1's, Llama 2-style user/assistant-only templates). */
  systemRole: boolean;
  /** Tool call ids the template accepts (Mistral's templates raise on anything but 9 alphanumerics). */
  callIds: 'any' | 'alnum9';
  /** Control tokens the parser must see in the output though they render no text. */
  markers: string[];
}

const HERMES_FORCED: ForcedCallSyntax = {
  beforeName: () => '<tool_call>\n{"name": ',
  name: (n) => JSON.stringify(n),
  afterName: ', "arguments": ',
  afterArguments: '}\n</tool_call>',
  next: { marker: '<tool_call>', join: '\n' },
};

/** Detects the format from the template's text. */
export function detectChatFormat(template: string | null): ChatFormat {
  const t = template ?? '';
  const think = t.includes('<think>');
  // `tools` as a variable (not `tool_calls`): the template lists the offered tools itself.
  const rendersTools = /\btools\b/.test(t);
  const rendersToolTurns = /\btool_calls\b/.test(t);
  const base = { rendersTools, rendersToolTurns, systemRole: !(t.includes('raise_exception') && !/['"]system['"]/.test(t)), callIds: 'any' as const, markers: [] as string[] };
  if (t.includes('<|channel|>') && t.includes('<|message|>')) {
    return {
      ...base,
      family: 'harmony',
      reasoning: 'harmony',
      calls: [],
      forced: {
        beforeName: () => '<|channel|>commentary to=functions.',
        name: (n) => n,
        afterName: ' <|constrain|>json<|message|>',
        afterArguments: '<|call|>',
        next: null,
      },
      markers: ['<|start|>', '<|channel|>', '<|message|>', '<|constrain|>', '<|end|>'],
    };
  }
  if (t.includes('[TOOL_CALLS]')) {
    const args = t.includes('[ARGS]');
    return {
      ...base,
      family: args ? 'mistral-args' : 'mistral',
      reasoning: think ? 'think' : null,
      calls: [MISTRAL_BLOCK],
      forced: args
        ? { beforeName: () => '[TOOL_CALLS]', name: (n) => n, afterName: '[ARGS]', afterArguments: '', next: { marker: '[TOOL_CALLS]', join: '' } }
        : {
            // As the template writes calls: v0.3 with a space before the array, Nemo without.
            beforeName: (i) => (i > 0 ? '{"name": ' : t.includes('[TOOL_CALLS] [') ? '[TOOL_CALLS] [{"name": ' : '[TOOL_CALLS][{"name": '),
            name: (n) => JSON.stringify(n),
            afterName: ', "arguments": ',
            afterArguments: '}',
            next: { marker: ',', join: ', ' },
          },
      callIds: /length\s*!=\s*9/.test(t) ? 'alnum9' : 'any',
      markers: ['[TOOL_CALLS]', '[ARGS]', '[CALL_ID]'],
    };
  }
  if (t.includes('tool▁calls▁begin')) {
    return {
      ...base,
      family: 'deepseek',
      reasoning: think ? 'think' : null,
      calls: [DEEPSEEK_BLOCK],
      forced: {
        beforeName: (i) => (i === 0 ? DEEPSEEK_CALLS_BEGIN : '\n') + `${DEEPSEEK_CALL_BEGIN}function${DEEPSEEK_SEP}`,
        name: (n) => n,
        afterName: '\n```json\n',
        afterArguments: '\n```' + DEEPSEEK_CALL_END,
        next: { marker: DEEPSEEK_CALL_BEGIN, join: '' },
      },
      markers: [DEEPSEEK_CALLS_BEGIN, DEEPSEEK_CALL_BEGIN, DEEPSEEK_SEP, DEEPSEEK_CALL_END, '<｜tool▁calls▁end｜>'],
    };
  }
  if (t.includes('<tool_call>')) {
    return { ...base, family: 'hermes', reasoning: think ? 'think' : null, calls: [HERMES_BLOCK], forced: HERMES_FORCED };
  }
  if (t.includes('<|start_header_id|>') && rendersTools) {
    return {
      ...base,
      family: 'llama3',
      reasoning: think ? 'think' : null,
      calls: [LLAMA3_PYTHON_TAG_BLOCK, BARE_JSON_BLOCK],
      forced: { beforeName: () => '{"name": ', name: (n) => JSON.stringify(n), afterName: ', "parameters": ', afterArguments: '}', next: null },
      markers: ['<|python_tag|>'],
    };
  }
  return {
    ...base,
    // Without a tool syntax of its own the template cannot list the tools either: both are ours.
    rendersTools: false,
    rendersToolTurns: false,
    family: 'json',
    reasoning: think ? 'think' : null,
    calls: [JSON_FENCE_BLOCK, BARE_JSON_BLOCK],
    forced: {
      beforeName: () => '```json\n{"name": ',
      name: (n) => JSON.stringify(n),
      afterName: ', "arguments": ',
      afterArguments: '}\n```',
      next: null,
    },
  };
}

/** Text that ends the model's reasoning before an answer it must give in a fixed shape (a forced
 *  call, a json_schema answer): the prompt's open `<think>` is closed, harmony's answer channel is
 *  opened (a forced call opens its own channel). */
export function answerPrefix(format: ChatFormat, thinkingOpen: boolean, forCall: boolean): string {
  if (format.reasoning === 'harmony') return forCall ? '' : '<|channel|>final<|message|>';
  return thinkingOpen ? '</think>\n\n' : '';
}

/** A model's format with the ids of its marker tokens. */
export interface ModelChatFormat {
  format: ChatFormat;
  /** Marker token id → its text, for the markers that are single tokens of this vocabulary (the
   *  engine's text leaves control tokens out; the parser needs to see them). */
  markerText: ReadonlyMap<number, string>;
}

const byModel = new WeakMap<object, Promise<ModelChatFormat>>();
/** The same, once resolved (read synchronously by a request's intake). */
const knownByModel = new WeakMap<object, ModelChatFormat>();

/** The format of a model (from its template), computed once per loaded model. */
export function modelChatFormat(model: {
  info: { chatTemplate: string | null };
  tokenize(text: string, opts?: { addSpecial?: boolean; parseSpecial?: boolean }): Promise<Uint32Array>;
}): Promise<ModelChatFormat> {
  let p = byModel.get(model);
  if (!p) {
    const format = detectChatFormat(model.info.chatTemplate);
    p = Promise.all(format.markers.map((m) => model.tokenize(m, { addSpecial: false, parseSpecial: true }))).then((ids) => {
      const markerText = new Map<number, string>();
      ids.forEach((t, i) => {
        if (t.length === 1) markerText.set(t[0]!, format.markers[i]!);
      });
      const known = { format, markerText };
      knownByModel.set(model, known);
      return known;
    });
    byModel.set(model, p);
  }
  return p;
}

/** modelChatFormat's answer once it has resolved for this model, else undefined. */
export function modelChatFormatNow(model: object): ModelChatFormat | undefined {
  return knownByModel.get(model);
}
