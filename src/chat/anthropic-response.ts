// Anthropic wire shapes for a chat run: the Message body (api.md §3.3) and the named-event stream
// (api.md §3.4). Content blocks are built from the runner's events in output order, so the
// streamed and the whole-body forms of one run agree.
import { createHash } from 'node:crypto';
import type { ChoiceEvent, ChoiceResult } from './runner.js';

export type AnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export function stopReason(r: ChoiceResult): StopReason {
  switch (r.finish) {
    case 'tool_calls':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'stop_sequence':
      return 'stop_sequence';
    default:
      return 'end_turn';
  }
}

/** Anthropic counts cache reads apart from input_tokens: total prompt = input + cache_read. */
export function anthropicUsage(r: ChoiceResult): AnthropicUsage {
  return {
    input_tokens: r.promptTokens - r.cachedTokens,
    output_tokens: r.completionTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: r.cachedTokens,
  };
}

function parseInput(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // Cut off by max_tokens: the partial JSON is not an object yet.
  }
  return {};
}

export type EmitEvent = (name: string, data: Record<string, unknown>) => void;

/** Turns runner events into content blocks; with `emit`, also into content_block_* events. */
export class BlockBuilder {
  readonly blocks: AnthropicBlock[] = [];
  private open = false;
  private json = '';

  constructor(private readonly emit?: EmitEvent) {}

  private current(): AnthropicBlock | undefined {
    return this.open ? this.blocks[this.blocks.length - 1] : undefined;
  }

  private start(block: AnthropicBlock): void {
    this.close();
    this.blocks.push(block);
    this.open = true;
    this.json = '';
    const index = this.blocks.length - 1;
    const shown =
      block.type === 'text' ? { type: 'text', text: '' } : block.type === 'thinking' ? { type: 'thinking', thinking: '', signature: '' } : { ...block, input: {} };
    this.emit?.('content_block_start', { type: 'content_block_start', index, content_block: shown });
  }

  private delta(delta: Record<string, unknown>): void {
    this.emit?.('content_block_delta', { type: 'content_block_delta', index: this.blocks.length - 1, delta });
  }

  onEvent(ev: ChoiceEvent): void {
    switch (ev.type) {
      case 'text': {
        if (this.current()?.type !== 'text') this.start({ type: 'text', text: '' });
        (this.current() as { text: string }).text += ev.text;
        this.delta({ type: 'text_delta', text: ev.text });
        break;
      }
      case 'thinking': {
        if (this.current()?.type !== 'thinking') this.start({ type: 'thinking', thinking: '', signature: '' });
        (this.current() as { thinking: string }).thinking += ev.text;
        this.delta({ type: 'thinking_delta', thinking: ev.text });
        break;
      }
      case 'tool_start':
        this.start({ type: 'tool_use', id: ev.id, name: ev.name, input: {} });
        break;
      case 'tool_args':
        if (this.current()?.type !== 'tool_use' || ev.fragment === '') break;
        this.json += ev.fragment;
        this.delta({ type: 'input_json_delta', partial_json: ev.fragment });
        break;
    }
  }

  /** Closes the open block (tool input parsed from its JSON). Idempotent. */
  close(): void {
    const b = this.current();
    if (!b) return;
    if (b.type === 'tool_use') b.input = parseInput(this.json);
    if (b.type === 'thinking') {
      // The API closes every thinking block with a signature_delta; clients keep the signature
      // and send it back with the block. Ours is a digest of the text (nothing is encrypted).
      b.signature = thinkingSignature(b.thinking);
      this.delta({ type: 'signature_delta', signature: b.signature });
    }
    this.open = false;
    this.emit?.('content_block_stop', { type: 'content_block_stop', index: this.blocks.length - 1 });
  }
}

/** An opaque, non-empty signature for a thinking block: base64 of the text's SHA-256. */
export function thinkingSignature(thinking: string): string {
  return createHash('sha256').update(thinking).digest('base64');
}

export interface MessageMeta {
  id: string;
  model: string;
}

export function messageBody(meta: MessageMeta, blocks: AnthropicBlock[], r: ChoiceResult): Record<string, unknown> {
  return {
    id: meta.id,
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content: blocks,
    stop_reason: stopReason(r),
    stop_sequence: r.finish === 'stop_sequence' ? r.stopSequence : null,
    usage: anthropicUsage(r),
  };
}

/** message_start with the prompt's usage: input_tokens excludes what the prefix cache served, as in
 *  message_delta and non-streamed responses. */
export function messageStart(meta: MessageMeta, promptTokens: number, cachedTokens: number): Record<string, unknown> {
  return {
    type: 'message_start',
    message: {
      id: meta.id,
      type: 'message',
      role: 'assistant',
      model: meta.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: promptTokens - cachedTokens, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: cachedTokens },
    },
  };
}

export function messageDelta(r: ChoiceResult): Record<string, unknown> {
  const u = anthropicUsage(r);
  return {
    type: 'message_delta',
    delta: { stop_reason: stopReason(r), stop_sequence: r.finish === 'stop_sequence' ? r.stopSequence : null },
    usage: { output_tokens: u.output_tokens, input_tokens: u.input_tokens, cache_read_input_tokens: u.cache_read_input_tokens },
  };
}
