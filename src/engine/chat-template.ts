// The model's own chat template (tokenizer.chat_template), rendered with @huggingface/jinja.
import { Template } from '@huggingface/jinja';
import { invalidRequest } from '../errors.js';
import type { ChatTemplateInput } from './types.js';

/** Used only when a model has no template of its own (ChatML). */
export const FALLBACK_CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface TemplateTokens {
  bosToken: string;
  eosToken: string;
}

export class ChatTemplate {
  private readonly template: Template;

  constructor(
    source: string | null,
    private readonly tokens: TemplateTokens,
  ) {
    this.template = new Template(source ?? FALLBACK_CHAT_TEMPLATE);
  }

  render(input: ChatTemplateInput): string {
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
      throw invalidRequest(`chat template rejected the messages: ${(e as Error).message}`, 'messages');
    } finally {
      Error.stackTraceLimit = stackLimit;
    }
  }
}
