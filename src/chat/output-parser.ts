// Splits raw model output into text, reasoning (<think>…</think>) and tool calls, incrementally:
// text is released as soon as it cannot be the start of a marker. Which markers open a tool call
// comes from the model's chat format (tool-syntax.ts; Hermes <tool_call> by default). A call block
// is buffered until it closes (or the output ends), then parsed; one that does not parse comes back
// as plain text, so nothing the model wrote is lost. gpt-oss's harmony output has its own parser
// (harmony-parser.ts) behind the same interface.
import { HERMES_BLOCK, type CallBlock } from './tool-syntax.js';

export { parseHermesToolCall } from './tool-syntax.js';

export type OutputEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; text: string }
  /** `arguments` is the JSON text of the arguments object. */
  | { type: 'tool_call'; name: string; arguments: string };

/** What the runner needs of a parser, whatever the format. */
export interface ChatOutputParser {
  push(text: string): OutputEvent[];
  finish(): OutputEvent[];
  /** The next token belongs to reasoning (for reasoning-token counts). */
  readonly inThinking: boolean;
  readonly toolCallCount: number;
}

export interface OutputParserOptions {
  /** Recognise tool call blocks (tools offered and tool_choice not 'none'). */
  tools: boolean;
  /** Recognise <think> blocks (the model's template is a reasoning template). */
  thinking: boolean;
  /** The prompt ends inside an open <think> (the template opened it for the model). */
  startInThinking?: boolean;
  /** The blocks that hold tool calls (default: Hermes <tool_call>). */
  calls?: readonly CallBlock[];
  /** Offered tool names (syntaxes that are plain JSON only take calls of these). */
  toolNames?: ReadonlySet<string>;
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

type State = 'text' | 'thinking' | 'tool';

interface Marker {
  text: string;
  block: CallBlock | null; // null: <think>
}

export class OutputParser implements ChatOutputParser {
  private state: State;
  private pending = '';
  private toolBuf = '';
  private block: CallBlock | null = null;
  /** Trailing whitespace of text, held so that whitespace before a tool call is dropped. */
  private wsHeld = '';
  /** Drop leading whitespace after a closing tag (models put a newline there). */
  private stripLeading = false;
  /** The whitespace held when the current block opened (given back if it is not a call). */
  private wsBefore = '';
  /** Some answer text (not whitespace) has been let out: at-start blocks no longer apply. */
  private answered = false;
  private readonly markers: Marker[];
  /** The markers once the answer has text (at-start blocks left out). */
  private readonly laterMarkers: Marker[];
  private readonly toolNames: ReadonlySet<string>;
  private toolCalls = 0;

  constructor(opts: OutputParserOptions) {
    this.state = opts.startInThinking && opts.thinking ? 'thinking' : 'text';
    this.markers = [];
    if (opts.tools) for (const b of opts.calls ?? [HERMES_BLOCK]) this.markers.push({ text: b.open, block: b });
    if (opts.thinking) this.markers.push({ text: THINK_OPEN, block: null });
    this.laterMarkers = this.markers.filter((m) => !m.block?.atStart);
    this.toolNames = opts.toolNames ?? new Set();
  }

  get inThinking(): boolean {
    return this.state === 'thinking';
  }

  get toolCallCount(): number {
    return this.toolCalls;
  }

  push(text: string): OutputEvent[] {
    const out: OutputEvent[] = [];
    if (text.length === 0) return out;
    if (this.markers.length === 0 && this.state === 'text') {
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
      // A block still open at the end of the output: accept it if what we have parses.
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

  /** The markers that can open something here. */
  private live(): Marker[] {
    return this.answered ? this.laterMarkers : this.markers;
  }

  private drain(out: OutputEvent[], final: boolean): void {
    for (;;) {
      if (this.state === 'text') {
        const markers = this.live();
        const hit = this.earliest(markers);
        if (hit) {
          this.emitText(out, this.pending.slice(0, hit.at));
          // Whitespace right before a tool call or reasoning block is layout; kept aside in case
          // the block turns out not to be a call.
          this.wsBefore = this.wsHeld;
          this.wsHeld = '';
          const { block } = hit.marker;
          this.pending = this.pending.slice(hit.at + (block?.openInBody ? 0 : hit.marker.text.length));
          this.state = block ? 'tool' : 'thinking';
          this.block = block;
          this.toolBuf = '';
          continue;
        }
        if (final) return;
        const keep = partialSuffix(
          this.pending,
          markers.map((m) => m.text),
        );
        this.emitText(out, this.pending.slice(0, this.pending.length - keep));
        this.pending = this.pending.slice(this.pending.length - keep);
        return;
      }
      const close = this.state === 'thinking' ? THINK_CLOSE : this.block!.close;
      if (close === null) {
        // The block runs to the end of the output.
        this.toolBuf += this.pending;
        this.pending = '';
        return;
      }
      const at = this.pending.indexOf(close);
      if (at >= 0) {
        const inner = this.pending.slice(0, at);
        this.pending = this.pending.slice(at + close.length);
        const wasThinking = this.state === 'thinking';
        this.state = 'text';
        if (wasThinking) {
          if (inner) out.push({ type: 'thinking', text: inner });
          this.stripLeading = true;
        } else {
          // After a call, whitespace is layout; after a block given back as text, it is text.
          this.stripLeading = this.endToolCall(out, this.toolBuf + inner, false);
        }
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

  /** The first marker in pending; an at-start marker counts only with nothing but whitespace before it. */
  private earliest(markers: readonly Marker[]): { at: number; marker: Marker } | null {
    let best: { at: number; marker: Marker } | null = null;
    for (const m of markers) {
      const at = this.pending.indexOf(m.text);
      if (at < 0 || (best !== null && at >= best.at)) continue;
      if (m.block?.atStart && this.pending.slice(0, at).trim() !== '') continue;
      best = { at, marker: m };
    }
    return best;
  }

  /** Ends a call block: its calls, or its text as written. True when it held calls. */
  private endToolCall(out: OutputEvent[], raw: string, unclosed: boolean): boolean {
    this.toolBuf = '';
    const block = this.block!;
    const calls = block.parse(raw, this.toolNames);
    const before = this.wsBefore;
    this.wsBefore = '';
    if (calls) {
      for (const c of calls) {
        this.toolCalls++;
        out.push({ type: 'tool_call', name: c.name, arguments: c.arguments });
      }
      return true;
    }
    this.wsHeld = before + this.wsHeld;
    const opened = block.openInBody ? '' : block.open;
    this.emitText(out, opened + raw + (unclosed || block.close === null ? '' : block.close));
    return false;
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
    if (trimmed.length > 0) {
      out.push({ type: 'text', text: trimmed });
      this.answered = true;
    }
  }
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
