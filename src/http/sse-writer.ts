// Server-Sent Events over a ChunkedSink: one write (one flush) per send, `send()` waits while
// the client is slow, and `closed` turns true when the client leaves so producers stop. The
// stream's opening comment waits for the rest of the current synchronous run: when an event
// follows at once, the head, the comment and the event leave in one socket write.
import type { SseEvent, SseWriter } from './types.js';
import { ChunkedSink, type StreamOwner } from './response-sink.js';
import { microtask } from '../microtask.js';

const OPEN_COMMENT = ': stream open\n\n';
const RESOLVED = Promise.resolve();

/** `event:` line when named, then the data as `data:` lines (multi-line strings split), then a blank line. */
export function formatSseEvent(data: string | object, eventName?: string): string {
  let out = eventName ? `event: ${eventName.replace(/[\r\n]/g, '')}\n` : '';
  // JSON.stringify (no indent) escapes CR and LF inside strings and writes no line breaks of its
  // own: an object's text is always one data line, without scanning it (once per token).
  if (typeof data !== 'string') return `${out}data: ${JSON.stringify(data)}\n\n`;
  const text = data;
  if (text.includes('\n') || text.includes('\r')) {
    for (const line of text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  } else {
    out += `data: ${text}\n`;
  }
  return out + '\n';
}

function formatAll(events: readonly SseEvent[]): string {
  let out = '';
  for (const e of events) out += formatSseEvent(e.data, e.event);
  return out;
}

export class UwsSseWriter implements SseWriter {
  private readonly sink: ChunkedSink;
  /** The opening comment is due and not written yet. */
  private openPending = false;

  constructor(owner: StreamOwner) {
    this.sink = new ChunkedSink(owner, ':\n');
  }

  get closed(): boolean {
    return this.sink.closed;
  }

  /** Bytes accepted by uWS so far (tests compare it with what the client read). */
  get acceptedBytes(): number {
    return this.sink.acceptedBytes;
  }

  /** The first bytes of the stream: flush status and headers to the client, with the first
   *  event when one is sent in the same synchronous run, else on their own right after it. */
  open(): void {
    this.openPending = true;
    microtask(() => {
      if (this.openPending) void this.write('');
    });
  }

  send(data: string | object, eventName?: string): Promise<void> {
    if (this.sink.closed) return RESOLVED;
    return this.write(formatSseEvent(data, eventName));
  }

  sendBatch(events: readonly SseEvent[]): Promise<void> {
    if (this.sink.closed || events.length === 0) return RESOLVED;
    return this.write(formatAll(events));
  }

  comment(text: string): Promise<void> {
    if (this.sink.closed) return RESOLVED;
    return this.write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
  }

  end(last?: readonly SseEvent[]): void {
    if (this.sink.closed) return;
    const text = this.takeOpen() + (last ? formatAll(last) : '');
    this.sink.end(text.length ? text : undefined);
  }

  private takeOpen(): string {
    if (!this.openPending) return '';
    this.openPending = false;
    return OPEN_COMMENT;
  }

  private write(text: string): Promise<void> {
    return this.sink.write(this.takeOpen() + text);
  }
}
