// The model's own chat template (tokenizer.chat_template), rendered with @huggingface/jinja.
import { Template } from '@huggingface/jinja';
import { EngineError } from './engine-errors.js';
import { QWEN25_CHAT_TEMPLATE } from '../assets/qwen25-chat-template.js';
import type { ChatTemplateInput } from './types.js';

/** Used only when a model has no template of its own (ChatML). */
export const FALLBACK_CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface TemplateTokens {
  bosToken: string;
  eosToken: string;
  /** Tokenizer.literal: client text made safe to place into the prompt. */
  literal: (text: string) => string;
}

/** The input with every client string (and object key: tool schemas are written out with tojson)
 *  passed through literal, so that "<|im_end|>" in a message is text, not the end of its turn.
 *  Unchanged parts are shared, and an input with nothing to change is returned as is. */
function literalInput(input: ChatTemplateInput, literal: (text: string) => string): ChatTemplateInput {
  const map = (v: unknown): unknown => {
    if (typeof v === 'string') return literal(v);
    if (Array.isArray(v)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const x = map(v[i]);
        if (x !== v[i]) (out ??= v.slice())[i] = x;
      }
      return out ?? v;
    }
    if (v && typeof v === 'object') {
      let out: Record<string, unknown> | null = null;
      for (const [k, x] of Object.entries(v)) {
        const k2 = literal(k);
        const x2 = map(x);
        if (k2 !== k || x2 !== x) {
          out ??= { ...(v as Record<string, unknown>) };
          if (k2 !== k) delete out[k];
          out[k2] = x2;
        }
      }
      return out ?? v;
    }
    return v;
  };
  const messages = map(input.messages) as ChatTemplateInput['messages'];
  const tools = input.tools && (map(input.tools) as ChatTemplateInput['tools']);
  const prefill = input.assistantPrefill && literal(input.assistantPrefill);
  if (messages === input.messages && tools === input.tools && prefill === input.assistantPrefill) return input;
  return { ...input, messages, ...(tools ? { tools } : {}), ...(prefill ? { assistantPrefill: prefill } : {}) };
}

const QWEN25_DEFAULT_SYSTEM = '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n';

/** What the Qwen2.5 template renders for plain-text system/user/assistant messages and no tools
 *  (its no-tools branch, written out); null for anything else, which goes to the interpreter.
 *  test/engine/chat-template-fast.test.ts checks it against @huggingface/jinja. */
function renderQwen25Plain(input: ChatTemplateInput): string | null {
  if (input.tools && input.tools.length > 0) return null;
  const msgs = input.messages;
  if (msgs.length === 0) return null;
  for (const m of msgs) {
    if (typeof m.content !== 'string' || (m.role !== 'system' && m.role !== 'user' && m.role !== 'assistant')) return null;
    for (const k in m) if (k !== 'role' && k !== 'content') return null;
  }
  let out = msgs[0]!.role === 'system' ? `<|im_start|>system\n${msgs[0]!.content as string}<|im_end|>\n` : QWEN25_DEFAULT_SYSTEM;
  for (let i = msgs[0]!.role === 'system' ? 1 : 0; i < msgs.length; i++) {
    out += `<|im_start|>${msgs[i]!.role as string}\n${msgs[i]!.content as string}<|im_end|>\n`;
  }
  return input.addGenerationPrompt ? out + '<|im_start|>assistant\n' : out;
}

export class ChatTemplate {
  private readonly template: Template;
  /** A direct rendering of this template's common case, when it is a template we know. */
  private readonly direct: ((input: ChatTemplateInput) => string | null) | null;

  constructor(
    source: string | null,
    private readonly tokens: TemplateTokens,
  ) {
    this.template = new Template(source ?? FALLBACK_CHAT_TEMPLATE);
    // The interpreter costs 30-60 µs for a short chat (100-200 µs on a cold event loop); the
    // Qwen2.5 template's plain-chat branch is a few string concatenations.
    this.direct = source === QWEN25_CHAT_TEMPLATE ? renderQwen25Plain : null;
  }

  render(clientInput: ChatTemplateInput): string {
    let input: ChatTemplateInput;
    try {
      input = literalInput(clientInput, this.tokens.literal);
    } catch (e) {
      // A value nested deeper than the stack (the interpreter would fail on it the same way).
      throw new EngineError({ kind: 'template_rejected' }, (e as Error).message);
    }
    const rendered = this.renderTemplate(input);
    return input.assistantPrefill ? rendered + input.assistantPrefill : rendered;
  }

  private renderTemplate(input: ChatTemplateInput): string {
    const direct = this.direct?.(input);
    if (direct != null) return direct;
    // @huggingface/jinja looks up an undefined variable (e.g. `tools` when none are given) by
    // throwing and catching an Error; capturing its stack trace is about a third of a short
    // render. Its errors become 400s by message, so no stack is needed while rendering.
    const stackLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return this.template.render({
        ...(input.extra ?? {}),
        messages: input.messages,
        ...(input.tools && input.tools.length > 0 ? { tools: input.tools } : {}),
        add_generation_prompt: input.addGenerationPrompt,
        bos_token: this.tokens.bosToken,
        eos_token: this.tokens.eosToken,
      });
    } catch (e) {
      // Templates raise on inputs they reject (e.g. role alternation): the request's fault.
      throw new EngineError({ kind: 'template_rejected' }, (e as Error).message);
    } finally {
      Error.stackTraceLimit = stackLimit;
    }
  }
}
