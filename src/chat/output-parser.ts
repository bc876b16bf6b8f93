// Splits raw model output into text, reasoning (<think>…</think>) and Hermes/Qwen tool calls
// (<tool_call>{"name":…,"arguments":…}</tool_call>), incrementally: text is released as soon as it
// cannot be the start of a marker. A tool call is buffered until its closing tag, then parsed; one
// that does not parse comes back as plain text, so nothing the model wrote is lost.

export type OutputEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  /** `arguments` is the JSON text of the arguments object. */
  | { type: 'tool_call'; name: string; arguments: string };

export interface OutputParserOptions {
  /** Recognise <tool_call> blocks (tools offered and tool_choice not 'none'). */
  tools: boolean;
  /** Recognise <think> blocks (the model's template is a reasoning template). */
  thinking: boolean;
  /** The prompt ends inside an open <think> (the template opened it for the model). */
  startInThinking?: boolean;
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
const TOOL_OPEN = '<tool_call>';
const TOOL_CLOSE = '</tool_call>';

type State = 'text' | 'thinking' | 'tool';

export class OutputParser {
  private state: State;
  private pending = '';
  private toolBuf = '';
  /** Trailing whitespace of text, held so that whitespace before a tool call is dropped. */
  private wsHeld = '';
  /** Drop leading whitespace after a closing tag (models put a newline there). */
  private stripLeading = false;
  private readonly openMarkers: string[];
  private toolCalls = 0;

  constructor(private readonly opts: OutputParserOptions) {
    this.state = opts.startInThinking && opts.thinking ? 'thinking' : 'text';
    this.openMarkers = [];
    if (opts.tools) this.openMarkers.push(TOOL_OPEN);
    if (opts.thinking) this.openMarkers.push(THINK_OPEN);
  }

  /** Which part of the output the next token belongs to (for reasoning-token counts). */
  get inThinking(): boolean {
    return this.state === 'thinking';
  }

  get toolCallCount(): number {
    return this.toolCalls;
  }

  push(text: string): OutputEvent[] {
    const out: OutputEvent[] = [];
    if (text.length === 0) return out;
    if (this.openMarkers.length === 0 && this.state === 'text') {
      // Nothing to recognise: pass through untouched.
      out.push({ type: 'text', text });
      return out;
    }
    this.pending += text;
    this.drain(out, false);
    return out;
  }

  /** End of output: releases everything still held. */
  finish(): OutputEvent[] {
    const out: OutputEvent[] = [];
    this.drain(out, true);
    if (this.state === 'tool') {
      // Unclosed call at end of output: accept it if what we have parses.
      this.endToolCall(out, this.toolBuf + this.pending, true);
    } else if (this.state === 'thinking') {
      if (this.pending) out.push({ type: 'thinking', text: this.pending });
    } else if (this.pending) {
      this.emitText(out, this.pending);
    }
    this.pending = '';
    if (this.wsHeld && this.toolCalls === 0) out.push({ type: 'text', text: this.wsHeld });
    this.wsHeld = '';
    return out;
  }

  private drain(out: OutputEvent[], final: boolean): void {
    for (;;) {
      if (this.state === 'text') {
        const hit = earliest(this.pending, this.openMarkers);
        if (hit) {
          this.emitText(out, this.pending.slice(0, hit.at));
          this.wsHeld = ''; // whitespace right before a tool call or reasoning block is layout
          this.pending = this.pending.slice(hit.at + hit.marker.length);
          this.state = hit.marker === TOOL_OPEN ? 'tool' : 'thinking';
          this.toolBuf = '';
          continue;
        }
        if (final) return;
        const keep = partialSuffix(this.pending, this.openMarkers);
        this.emitText(out, this.pending.slice(0, this.pending.length - keep));
        this.pending = this.pending.slice(this.pending.length - keep);
        return;
      }
      const close = this.state === 'thinking' ? THINK_CLOSE : TOOL_CLOSE;
      const at = this.pending.indexOf(close);
      if (at >= 0) {
        const inner = this.pending.slice(0, at);
        this.pending = this.pending.slice(at + close.length);
        if (this.state === 'thinking') {
          if (inner) out.push({ type: 'thinking', text: inner });
        } else {
          this.endToolCall(out, this.toolBuf + inner, false);
        }
        this.state = 'text';
        this.stripLeading = true;
        continue;
      }
      if (final) return;
      const keep = partialSuffix(this.pending, [close]);
      const body = this.pending.slice(0, this.pending.length - keep);
      this.pending = this.pending.slice(this.pending.length - keep);
      if (this.state === 'thinking') {
        if (body) out.push({ type: 'thinking', text: body });
      } else {
        this.toolBuf += body;
      }
      return;
    }
  }

  private endToolCall(out: OutputEvent[], raw: string, unclosed: boolean): void {
    this.toolBuf = '';
    const call = parseHermesToolCall(raw);
    if (call) {
      this.toolCalls++;
      out.push({ type: 'tool_call', ...call });
      return;
    }
    this.emitText(out, TOOL_OPEN + raw + (unclosed ? '' : TOOL_CLOSE));
  }

  private emitText(out: OutputEvent[], s: string): void {
    if (this.stripLeading) {
      s = s.replace(/^\s+/, '');
      if (s.length === 0) return;
      this.stripLeading = false;
    }
    if (s.length === 0) return;
    const all = this.wsHeld + s;
    const trimmed = all.replace(/\s+$/, '');
    this.wsHeld = all.slice(trimmed.length);
    if (trimmed.length > 0) out.push({ type: 'text', text: trimmed });
  }
}

/** Parses the JSON body of a Hermes tool call; null when it is not a well-formed call. */
export function parseHermesToolCall(raw: string): { name: string; arguments: string } | null {
  let v: unknown;
  try {
    v = JSON.parse(raw.trim());
  } catch {
    return null;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.name !== 'string' || o.name.length === 0) return null;
  let args: unknown = o.arguments ?? o.parameters ?? {};
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      return null;
    }
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  return { name: o.name, arguments: JSON.stringify(args) };
}

function earliest(buf: string, markers: readonly string[]): { at: number; marker: string } | null {
  let best: { at: number; marker: string } | null = null;
  for (const m of markers) {
    const at = buf.indexOf(m);
    if (at >= 0 && (best === null || at < best.at)) best = { at, marker: m };
  }
  return best;
}

/** Length of the longest suffix of buf that is a proper prefix of one of the markers. */
export function partialSuffix(buf: string, markers: readonly string[]): number {
  let best = 0;
  for (const m of markers) {
    for (let k = Math.min(m.length - 1, buf.length); k > best; k--) {
      if (buf.endsWith(m.slice(0, k))) {
        best = k;
        break;
      }
    }
  }
  return best;
}
