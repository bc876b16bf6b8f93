// A lean streaming Chat Completions client for measuring what the SERVER adds: one keep-alive
// TCP connection per concurrent stream, the request written as one HTTP/1.1 message, and the
// response (chunked transfer encoding, SSE inside) parsed straight off the socket. fetch (undici)
// costs about 1-2 ms per request and tens of µs per chunk on top of this, on the client's side;
// those costs are the client's, not the server's. Arrival time of a chunk is the time its socket
// read was handled, so several events in one read share a timestamp.
import { connect, type Socket } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { takeSseData } from '../../src/bench/client.js';

export interface StreamSample {
  ok: boolean;
  error?: string;
  /** ms from writing the request to the first content delta. */
  ttftMs?: number;
  /** Arrival times (ms after the request was written) of each chunk carrying content. */
  chunkTimesMs: number[];
  /** usage.completion_tokens when reported, else the count of content chunks. */
  outputTokens: number;
  /** When the request was written, as performance.timeOrigin + performance.now() (comparable across threads). */
  sentAt?: number;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection running one request at a time. */
export class SseConnection {
  private socket: Socket | null = null;
  private connecting: Promise<Socket> | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  private open(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    this.connecting ??= new Promise<Socket>((resolve, reject) => {
      const s = connect({ host: this.host, port: this.port, noDelay: true });
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
      let buf: Buffer = Buffer.alloc(0);
      let headDone = false;
      let status = 0;
      let chunked = false;
      let contentLength = -1;
      let sse = '';
      let chunkLeft = 0;
      let afterChunk = false;
      let done = false;
      let usageTokens: number | undefined;
      const decoder = new StringDecoder('utf8');
      let sent = 0;

      const finish = (error?: string): void => {
        socket.off('data', onData);
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
        const parsed = takeSseData(sse);
        sse = parsed.rest;
        for (const d of parsed.data) {
          if (d.done) {
            done = true;
            continue;
          }
          if (d.chunk.error) return `stream error: ${d.chunk.error.message ?? 'unknown'}`;
          if (d.hasOutput) {
            const t = now - sent;
            sample.ttftMs ??= t;
            sample.chunkTimesMs.push(t);
          }
          if (d.chunk.usage) usageTokens = d.chunk.usage.completion_tokens;
        }
        return null;
      };

      const onData = (piece: Buffer): void => {
        const now = performance.now();
        buf = buf.length ? Buffer.concat([buf, piece]) : piece;
        if (!headDone) {
          // The last chunked body's final CRLF may trail into this read.
          while (buf.length >= 2 && buf[0] === 13 && buf[1] === 10) buf = buf.subarray(2);
          const end = buf.indexOf(HEAD_END);
          if (end < 0) return;
          const head = buf.subarray(0, end).toString('latin1');
          buf = buf.subarray(end + 4);
          headDone = true;
          status = Number(head.slice(9, 12));
          const lower = head.toLowerCase();
          chunked = lower.includes('\r\ntransfer-encoding: chunked');
          const m = /\r\ncontent-length: *(\d+)/.exec(lower);
          contentLength = m ? Number(m[1]) : -1;
        }
        if (!chunked) {
          // An error answer (JSON with Content-Length): read it whole and report it.
          if (contentLength >= 0 && buf.length >= contentLength) {
            finish(`HTTP ${status}: ${buf.subarray(0, Math.min(contentLength, 200)).toString('utf8')}`);
          }
          return;
        }
        // Chunked framing: uWS sends each chunk's closing CRLF in front of the NEXT chunk's size
        // line, so chunk data is consumed as soon as it is here, never waiting for its CRLF.
        for (;;) {
          if (chunkLeft > 0) {
            if (buf.length === 0) return;
            const take = Math.min(chunkLeft, buf.length);
            sse += decoder.write(buf.subarray(0, take));
            buf = buf.subarray(take);
            chunkLeft -= take;
            const err = onEvents(now);
            if (err) return finish(err);
            if (chunkLeft > 0) return;
            continue;
          }
          let start = 0;
          if (afterChunk) {
            if (buf.length < 2) return;
            start = 2; // the previous chunk's CRLF
          }
          const lineEnd = buf.indexOf(CRLF, start);
          if (lineEnd < 0) return;
          const size = parseInt(buf.subarray(start, lineEnd).toString('latin1'), 16);
          if (!Number.isFinite(size)) return finish('bad chunk size line');
          buf = buf.subarray(lineEnd + 2);
          afterChunk = true;
          if (size === 0) {
            if (status !== 200) return finish(`HTTP ${status}`);
            return finish(done ? undefined : 'stream ended without [DONE]');
          }
          chunkLeft = size;
        }
      };
      const onClose = (): void => finish('connection closed mid-response');
      const onError = (e: Error): void => finish(`socket: ${e.message}`);
      socket.on('data', onData);
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
