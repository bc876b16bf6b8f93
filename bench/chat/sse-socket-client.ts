// A lean streaming Chat Completions client for measuring what the SERVER adds: one keep-alive
// TCP connection per concurrent stream, the request written as one HTTP/1.1 message, and the
// response (chunked transfer encoding, SSE inside) parsed straight off the socket. fetch (undici)
// costs about 1-2 ms per request and tens of µs per chunk on top of this, on the client's side;
// those costs are the client's, not the server's. On a 2-core machine the client's CPU time
// competes with the engine's threads, so this client keeps it small: sockets read into one
// reused buffer (net's `onread`, no stream machinery), events scanned as latin1 text, and only
// the usage and error payloads JSON-parsed (a content delta is recognised by its `"content":"x`).
// Arrival time of a chunk is the time its socket read was handled, so several events in one read
// share a timestamp.
import { connect, type Socket } from 'node:net';
import { takeSsePayloads } from '../../src/bench/client.js';

export interface StreamSample {
  ok: boolean;
  error?: string;
  /** ms from writing the request to the first content delta. */
  ttftMs?: number;
  /** Arrival times (ms after the request was written) of each chunk carrying content. */
  chunkTimesMs: number[];
  /** usage.completion_tokens when reported, else the count of content chunks. */
  outputTokens: number;
  /** When the request was sent, as performance.timeOrigin + performance.now() (comparable across threads). */
  sentAt?: number;
  /** The response's x-request-id: matches the sample with the server's marks of the request. */
  requestId?: string;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const READ_BUFFER_BYTES = 64 * 1024;
/** A delta with output: non-empty content or reasoning, or a tool-call fragment. */
const OUTPUT_DELTA = /"delta":\{[^]*?(?:"(?:content|reasoning_content)":"[^"]|"tool_calls":\[)/;

/** What one SSE `data:` payload (latin1 text of UTF-8 bytes) means to the timing client. */
export type ScannedData =
  | { kind: 'done' }
  | { kind: 'error'; message: string }
  | { kind: 'chunk'; hasOutput: boolean; completionTokens?: number };

/** Reads a Chat Completions stream payload without parsing content chunks as JSON. */
export function scanChunkPayload(latin1: string): ScannedData {
  if (latin1 === '[DONE]') return { kind: 'done' };
  if (latin1.startsWith('{"error"')) {
    const parsed = JSON.parse(Buffer.from(latin1, 'latin1').toString('utf8')) as { error?: { message?: string } };
    return { kind: 'error', message: parsed.error?.message ?? 'unknown' };
  }
  const hasOutput = OUTPUT_DELTA.test(latin1);
  if (!latin1.includes('"usage":{')) return { kind: 'chunk', hasOutput };
  const parsed = JSON.parse(Buffer.from(latin1, 'latin1').toString('utf8')) as { usage?: { completion_tokens?: number } };
  const completionTokens = parsed.usage?.completion_tokens;
  return completionTokens === undefined ? { kind: 'chunk', hasOutput } : { kind: 'chunk', hasOutput, completionTokens };
}

/** One keep-alive connection running one request at a time. */
export class SseConnection {
  private socket: Socket | null = null;
  private connecting: Promise<Socket> | null = null;
  /** The running request's reader; the bytes are a view of the shared read buffer. */
  private reader: ((bytes: Buffer) => void) | null = null;
  private readonly readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  private open(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    this.connecting ??= new Promise<Socket>((resolve, reject) => {
      const s = connect({
        host: this.host,
        port: this.port,
        noDelay: true,
        onread: {
          buffer: this.readBuffer,
          callback: (n: number, buf: Uint8Array): boolean => {
            this.reader?.(Buffer.from(buf.buffer, buf.byteOffset, n));
            return true;
          },
        },
      });
      s.once('connect', () => {
        this.socket = s;
        this.connecting = null;
        resolve(s);
      });
      s.once('error', (e) => {
        this.connecting = null;
        reject(e);
      });
      s.on('close', () => {
        if (this.socket === s) this.socket = null;
      });
    });
    return this.connecting;
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  /** Sends `request` (a complete HTTP/1.1 request) and reads the SSE response to its end. */
  async stream(request: Buffer): Promise<StreamSample> {
    const sample: StreamSample = { ok: false, chunkTimesMs: [], outputTokens: 0 };
    let socket: Socket;
    try {
      socket = await this.open();
    } catch (e) {
      sample.error = `connect: ${(e as Error).message}`;
      return sample;
    }
    return new Promise<StreamSample>((resolve) => {
      /** Unconsumed bytes carried to the next read (a copy: the read buffer is reused). */
      let held: Buffer = Buffer.alloc(0);
      let headDone = false;
      let status = 0;
      let chunked = false;
      let contentLength = -1;
      let sse = '';
      let chunkLeft = 0;
      let afterChunk = false;
      let done = false;
      let usageTokens: number | undefined;
      let sent = 0;

      const finish = (error?: string): void => {
        this.reader = null;
        socket.off('close', onClose);
        socket.off('error', onError);
        if (error) {
          sample.error = error;
          this.close();
        } else {
          sample.ok = true;
          sample.outputTokens = usageTokens ?? sample.chunkTimesMs.length;
        }
        resolve(sample);
      };

      const onEvents = (now: number): string | null => {
        const { payloads, rest } = takeSsePayloads(sse);
        sse = rest;
        for (const payload of payloads) {
          const d = scanChunkPayload(payload);
          if (d.kind === 'done') {
            done = true;
            continue;
          }
          if (d.kind === 'error') return `stream error: ${d.message}`;
          if (d.hasOutput) {
            const t = now - sent;
            sample.ttftMs ??= t;
            sample.chunkTimesMs.push(t);
          }
          if (d.completionTokens !== undefined) usageTokens = d.completionTokens;
        }
        return null;
      };

      /** Consumes what it can of `buf`; returns the unconsumed tail, or null once finished. */
      const consume = (buf: Buffer, now: number): Buffer | null => {
        if (!headDone) {
          // The last chunked body's final CRLF may trail into this read.
          while (buf.length >= 2 && buf[0] === 13 && buf[1] === 10) buf = buf.subarray(2);
          const end = buf.indexOf(HEAD_END);
          if (end < 0) return buf;
          const head = buf.subarray(0, end).toString('latin1');
          buf = buf.subarray(end + 4);
          headDone = true;
          status = Number(head.slice(9, 12));
          const lower = head.toLowerCase();
          chunked = lower.includes('\r\ntransfer-encoding: chunked');
          const m = /\r\ncontent-length: *(\d+)/.exec(lower);
          contentLength = m ? Number(m[1]) : -1;
          const id = /\r\nx-request-id: *([^\r]+)/i.exec(head);
          if (id) sample.requestId = id[1]!.trim();
        }
        if (!chunked) {
          // An error answer (JSON with Content-Length): read it whole and report it.
          if (contentLength >= 0 && buf.length >= contentLength) {
            finish(`HTTP ${status}: ${buf.subarray(0, Math.min(contentLength, 200)).toString('utf8')}`);
            return null;
          }
          return buf;
        }
        // Chunked framing: uWS sends each chunk's closing CRLF in front of the NEXT chunk's size
        // line, so chunk data is consumed as soon as it is here, never waiting for its CRLF.
        for (;;) {
          if (chunkLeft > 0) {
            if (buf.length === 0) return buf;
            const take = Math.min(chunkLeft, buf.length);
            // latin1: one char per byte, so a read that splits a UTF-8 character splits nothing.
            sse += buf.toString('latin1', 0, take);
            buf = buf.subarray(take);
            chunkLeft -= take;
            const err = onEvents(now);
            if (err) {
              finish(err);
              return null;
            }
            if (chunkLeft > 0) return buf;
            continue;
          }
          let start = 0;
          if (afterChunk) {
            if (buf.length < 2) return buf;
            start = 2; // the previous chunk's CRLF
          }
          const lineEnd = buf.indexOf(CRLF, start);
          if (lineEnd < 0) return buf;
          const size = parseInt(buf.toString('latin1', start, lineEnd), 16);
          if (!Number.isFinite(size)) {
            finish('bad chunk size line');
            return null;
          }
          buf = buf.subarray(lineEnd + 2);
          afterChunk = true;
          if (size === 0) {
            if (status !== 200) finish(`HTTP ${status}`);
            else finish(done ? undefined : 'stream ended without [DONE]');
            return null;
          }
          chunkLeft = size;
        }
      };

      this.reader = (piece: Buffer): void => {
        const now = performance.now();
        const rest = consume(held.length ? Buffer.concat([held, piece]) : piece, now);
        held = rest && rest.length ? Buffer.from(rest) : Buffer.alloc(0);
      };
      const onClose = (): void => finish('connection closed mid-response');
      const onError = (e: Error): void => finish(`socket: ${e.message}`);
      socket.on('close', onClose);
      socket.on('error', onError);
      sent = performance.now();
      sample.sentAt = performance.timeOrigin + sent;
      socket.write(request);
    });
  }
}

/** A complete POST request for /v1/chat/completions, ready to write. */
export function chatRequest(host: string, port: number, apiKey: string, body: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(body));
  const head =
    `POST /v1/chat/completions HTTP/1.1\r\nhost: ${host}:${port}\r\nauthorization: Bearer ${apiKey}\r\n` +
    `content-type: application/json\r\naccept: text/event-stream\r\ncontent-length: ${payload.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}
