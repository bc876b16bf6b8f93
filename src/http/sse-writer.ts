// Server-Sent Events over a ChunkedSink: one write (one flush) per event, `send()` waits while
// the client is slow, and `closed` turns true when the client leaves so producers stop.
import type { SseWriter } from './types.js';
import { ChunkedSink, type StreamOwner } from './response-sink.js';

/** `event:` line when named, then the data as `data:` lines (multi-line strings split), then a blank line. */
export function formatSseEvent(data: string | object, eventName?: string): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  let out = eventName ? `event: ${eventName.replace(/[\r\n]/g, '')}\n` : '';
  if (text.includes('\n') || text.includes('\r')) {
    for (const line of text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  } else {
    out += `data: ${text}\n`;
  }
  return out + '\n';
}

export class UwsSseWriter implements SseWriter {
  private readonly sink: ChunkedSink;

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

  /** The first bytes of the stream: flushes status and headers to the client at once. */
  open(): void {
    void this.sink.write(': stream open\n\n');
  }

  send(data: string | object, eventName?: string): Promise<void> {
    if (this.sink.closed) return Promise.resolve();
    return this.sink.write(formatSseEvent(data, eventName));
  }

  comment(text: string): Promise<void> {
    if (this.sink.closed) return Promise.resolve();
    return this.sink.write(`: ${text.replace(/[\r\n]+/g, ' ')}\n\n`);
  }

  end(): void {
    this.sink.end();
  }
}
