// gpt-oss harmony output, incrementally: a sequence of messages
//   [<|start|>assistant][ to=functions.NAME]<|channel|>CHANNEL[ to=functions.NAME][ <|constrain|>json]<|message|>BODY<|end|>
// where the analysis channel is reasoning, final is the answer, and a commentary message addressed
// to functions.NAME is a tool call whose body is the arguments (ended by <|call|>, a stop token,
// so by the end of the output). A commentary message to no one is a preamble: answer text. Text
// outside any message, a header left unfinished and a call whose arguments do not parse come back
// as text, so nothing the model wrote is lost.
import { partialSuffix, type ChatOutputParser, type OutputEvent } from './output-parser.js';

const START = '<|start|>';
const CHANNEL = '<|channel|>';
const MESSAGE = '<|message|>';
/** What ends a message body (<|call|> and <|return|> end generation, but may come as text). */
const BODY_ENDS = ['<|end|>', '<|call|>', '<|return|>'];

type State = 'between' | 'header' | 'body';

export interface HarmonyParserOptions {
  /** Turn calls into tool_call events (tools offered and tool_choice not 'none'). */
  tools: boolean;
  /** Give the analysis channel as reasoning (otherwise it is answer text). */
  thinking: boolean;
  /** The header of a message the prompt left open (an assistant prefill past `<|message|>`):
   *  the output starts inside that message's body. */
  openHeader?: string;
}

/** The header of the message `prompt` ends inside (its text from the last <|start|> or
 *  <|channel|> up to <|message|>), or undefined when the prompt ends between messages. */
export function openHarmonyHeader(prompt: string): string | undefined {
  const at = Math.max(prompt.lastIndexOf(START), prompt.lastIndexOf(CHANNEL));
  if (at < 0) return undefined;
  const tail = prompt.slice(at);
  const m = tail.indexOf(MESSAGE);
  if (m < 0 || BODY_ENDS.some((e) => tail.includes(e, m))) return undefined;
  return tail.slice(0, m);
}

export class HarmonyParser implements ChatOutputParser {
  private state: State = 'between';
  private pending = '';
  private header = '';
  private channel = '';
  private recipient: string | null = null;
  private callBuf = '';
  private toolCalls = 0;
  /** Whitespace outside messages, held until text follows it. */
  private wsOutside = '';

  constructor(private readonly opts: HarmonyParserOptions) {
    if (opts.openHeader !== undefined) {
      this.header = opts.openHeader;
      this.startMessage();
    }
  }

  get inThinking(): boolean {
    return this.state === 'body' && this.channel === 'analysis' && this.opts.thinking;
  }

  get toolCallCount(): number {
    return this.toolCalls;
  }

  push(text: string): OutputEvent[] {
    const out: OutputEvent[] = [];
    if (!text) return out;
    this.pending += text;
    this.drain(out, false);
    return out;
  }

  finish(): OutputEvent[] {
    const out: OutputEvent[] = [];
    this.drain(out, true);
    if (this.state === 'header') {
      this.text(out, this.header + this.pending);
    } else if (this.state === 'body') {
      this.body(out, this.pending);
      this.endMessage(out);
    } else if (this.pending.trim()) {
      this.text(out, this.pending);
    }
    this.pending = '';
    return out;
  }

  private drain(out: OutputEvent[], final: boolean): void {
    for (;;) {
      if (this.state === 'between') {
        const s = this.pending.indexOf(START);
        const c = this.pending.indexOf(CHANNEL);
        const at = s < 0 ? c : c < 0 ? s : Math.min(s, c);
        if (at >= 0) {
          this.text(out, this.pending.slice(0, at));
          this.wsOutside = '';
          this.header = '';
          this.pending = this.pending.slice(at);
          this.state = 'header';
          continue;
        }
        if (final) return;
        const keep = partialSuffix(this.pending, [START, CHANNEL]);
        this.text(out, this.pending.slice(0, this.pending.length - keep));
        this.pending = this.pending.slice(this.pending.length - keep);
        return;
      }
      if (this.state === 'header') {
        const at = this.pending.indexOf(MESSAGE);
        if (at < 0) {
          // Held: the part of pending that may be the start of <|message|>.
          const keep = final ? 0 : partialSuffix(this.pending, [MESSAGE]);
          this.header += this.pending.slice(0, this.pending.length - keep);
          this.pending = this.pending.slice(this.pending.length - keep);
          return;
        }
        this.header += this.pending.slice(0, at);
        this.pending = this.pending.slice(at + MESSAGE.length);
        this.startMessage();
        continue;
      }
      let end = -1;
      let endLen = 0;
      for (const e of BODY_ENDS) {
        const at = this.pending.indexOf(e);
        if (at >= 0 && (end < 0 || at < end)) {
          end = at;
          endLen = e.length;
        }
      }
      if (end >= 0) {
        this.body(out, this.pending.slice(0, end));
        this.pending = this.pending.slice(end + endLen);
        this.endMessage(out);
        continue;
      }
      if (final) return;
      const keep = partialSuffix(this.pending, BODY_ENDS);
      this.body(out, this.pending.slice(0, this.pending.length - keep));
      this.pending = this.pending.slice(this.pending.length - keep);
      return;
    }
  }

  private startMessage(): void {
    const channel = /<\|channel\|>\s*([A-Za-z_]+)/.exec(this.header);
    const to = /\bto=([^\s<]+)/.exec(this.header);
    this.channel = channel ? channel[1]! : '';
    this.recipient = to ? to[1]! : null;
    this.callBuf = '';
    this.state = 'body';
  }

  private isCall(): boolean {
    return this.opts.tools && this.recipient !== null && this.recipient.startsWith('functions.');
  }

  private body(out: OutputEvent[], s: string): void {
    if (!s) return;
    if (this.isCall()) this.callBuf += s;
    else if (this.recipient !== null) this.callBuf += s; // addressed to a tool we do not call: given back whole at its end
    else if (this.channel === 'analysis' && this.opts.thinking) out.push({ type: 'thinking', text: s });
    else if (this.channel === 'analysis' || this.channel === 'final' || this.channel === 'commentary') this.text(out, s);
    else this.callBuf += s; // an unknown channel: given back whole, header included, at its end
  }

  private endMessage(out: OutputEvent[]): void {
    if (this.isCall()) {
      const args = argumentsObject(this.callBuf);
      if (args !== null) {
        this.toolCalls++;
        out.push({ type: 'tool_call', name: this.recipient!.slice('functions.'.length), arguments: args });
      } else {
        this.text(out, `${this.header}${MESSAGE}${this.callBuf}`);
      }
    } else if (this.callBuf) {
      this.text(out, `${this.header}${MESSAGE}${this.callBuf}`);
    }
    this.callBuf = '';
    this.header = '';
    this.state = 'between';
  }

  private text(out: OutputEvent[], s: string): void {
    if (!s) return;
    if (this.state === 'between') {
      // Outside messages, whitespace is layout unless more text follows it.
      if (s.trim() === '') {
        this.wsOutside += s;
        return;
      }
      s = this.wsOutside + s;
      this.wsOutside = '';
    }
    out.push({ type: 'text', text: s });
  }
}

function argumentsObject(raw: string): string | null {
  try {
    const v: unknown = JSON.parse(raw.trim());
    return v && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : null;
  } catch {
    return null;
  }
}
