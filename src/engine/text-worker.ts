// piscina worker for the engine's text work: chat-template rendering and tokenization of long
// inputs, off the event loop. Each worker builds a model's tokenizer and template once, from the
// GGUF header (the same metadata the engine reads), and keeps them.
import { readGgufHeader } from '../gguf/gguf-reader.js';
import { createTokenizer, type Tokenizer } from '../tokenizer/index.js';
import { ChatTemplate } from './chat-template.js';
import type { ChatTemplateInput } from './types.js';
import { EngineError, type EngineFault } from './engine-errors.js';

export type TextTask =
  | { op: 'tokenize'; path: string; text: string; addSpecial: boolean; parseSpecial: boolean }
  | { op: 'render'; path: string; input: ChatTemplateInput };

export type TextResult = { ok: true; tokens?: Uint32Array; text?: string } | { ok: false; message: string; fault: EngineFault | null };

export interface ModelText {
  tokenizer: Tokenizer;
  template: ChatTemplate;
  /** The template's source (tokenizer.chat_template), as ModelInfo.chatTemplate has it. */
  chatTemplate: string | null;
}

const models = new Map<string, ModelText>();

/** Tokenizer + template for a GGUF path, as NativeModel builds them. */
export function modelText(path: string, metadata?: Record<string, unknown>): ModelText {
  let m = models.get(path);
  if (!m) {
    const md = metadata ?? readGgufHeader(path).metadata;
    const tokenizer = createTokenizer(md);
    const piece = (t: number | null) => (t === null ? '' : tokenizer.tokenText(t));
    const src = typeof md['tokenizer.chat_template'] === 'string' ? (md['tokenizer.chat_template'] as string) : null;
    m = { tokenizer, chatTemplate: src, template: new ChatTemplate(src, { bosToken: piece(tokenizer.bos), eosToken: piece(tokenizer.eos), literal: tokenizer.literal }) };
    models.set(path, m);
  }
  return m;
}

export default function run(task: TextTask): TextResult {
  try {
    const m = modelText(task.path);
    if (task.op === 'tokenize') {
      return { ok: true, tokens: m.tokenizer.encode(task.text, { addSpecial: task.addSpecial, parseSpecial: task.parseSpecial }) };
    }
    return { ok: true, text: m.template.render(task.input) };
  } catch (e) {
    // An EngineError crosses as its fault (a class does not survive the structured clone).
    return { ok: false, message: (e as Error).message, fault: e instanceof EngineError ? e.fault : null };
  }
}
