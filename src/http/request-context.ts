// RequestContext over one uWS request/response. uWS rules kept here, once, for every route:
// - the HttpRequest is only valid during the synchronous handler call: headers, url and query
//   are copied out before anything else;
// - onAborted is attached by the server before the handler runs (before any await);
// - every write goes through res.cork (writes after an await are not corked by uWS);
// - a streamed response's status and headers wait for its first body write (same cork, so one
//   socket write carries both) or, when nothing is written in the same tick, for a microtask;
// - after end() or abort the HttpResponse must not be touched again (`aborted`/`finished` guard it).
import { STATUS_CODES } from 'node:http';
import type { HttpResponse } from 'uWebSockets.js';
import { ApiError, ERROR_CATALOGUE, apiError, anthropicErrorBody, openaiErrorBody, predictErrorBody } from '../errors.js';
import type { BodyPipe, BodySink, ByteStream, ErrorFormat, HttpMethod, RequestContext, SseWriter } from './types.js';
import { BodyReader, ClientAbortedError } from './body-reader.js';
import { takeAbortController } from './abort-controllers.js';
import { UwsSseWriter } from './sse-writer.js';
import { UwsByteStream } from './byte-stream.js';
import type { StreamOwner } from './response-sink.js';
import { microtask } from '../microtask.js';

const statusLines = new Map<number, string>();
export function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (!line) {
    line = `${status} ${STATUS_CODES[status] ?? 'Unknown'}`;
    statusLines.set(status, line);
  }
  return line;
}

/** The envelope a route's errors use. */
export function errorBody(format: ErrorFormat, err: ApiError, requestId: string): unknown {
  switch (format) {
    case 'anthropic':
      return anthropicErrorBody(err, requestId);
    case 'predict':
      return predictErrorBody(err);
    default:
      return openaiErrorBody(err);
  }
}

/** The HTTP status of `err` in a route's envelope: Anthropic answers overloaded_error with 529. */
export function errorStatus(format: ErrorFormat, err: ApiError): number {
  const entry = ERROR_CATALOGUE[err.code];
  return format === 'anthropic' && entry.anthropicStatus !== undefined && err.status === entry.status ? entry.anthropicStatus : err.status;
}

export interface ContextInit {
  method: HttpMethod;
  path: string;
  rawQuery: string;
  headers: Map<string, string>;
  requestId: string;
  params: Record<string, string>;
  errorFormat: ErrorFormat;
  maxBody: number;
  maxQueuedBytes: number;
  /** A stream whose client takes no bytes for this long is cut; 0: never. */
  stallTimeoutMs: number;
  body: BodyReader | null;
  /** Called once when the response completed or the client went away. */
  onFinish: (ctx: UwsRequestContext) => void;
  /** Called when a stream or the server must cut the connection. */
  onDestroy?: (ctx: UwsRequestContext, reason: string) => void;
}

type StreamKind = 'none' | 'sse' | 'bytes';

export class UwsRequestContext implements RequestContext, StreamOwner {
  readonly method: HttpMethod;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly requestId: string;
  readonly errorFormat: ErrorFormat;
  readonly maxQueuedBytes: number;
  readonly stallTimeoutMs: number;
  readonly startedAt = performance.now();

  status = 0;
  bytesOut = 0;
  aborted = false;
  finished = false;
  responded = false;
  streamKind: StreamKind = 'none';
  sseWriter: UwsSseWriter | null = null;
  /** Set by the server once a route matched (metrics label). */
  routePattern = 'unmatched';
  /** Close the connection after this response (set while the server drains). */
  closeConnection = false;
  /** The signal this request is in intake by (src/intake.ts), for a route that generates; the
   *  server leaves it when the request finishes. */
  intakeKey: AbortSignal | null = null;

  private readonly rawQuery: string;
  private readonly headers: Map<string, string>;
  private readonly body: BodyReader | null;
  private readonly onFinishCb: (ctx: UwsRequestContext) => void;
  private readonly onDestroyCb?: (ctx: UwsRequestContext, reason: string) => void;
  private outHeaders: Array<[string, string]> | null = null;
  private controller: AbortController | null = null;
  /** Set by interrupt(): the reason the handler's signal gives. */
  private interruption: ApiError | null = null;
  private abortListeners: Array<() => void> | null = null;
  private queryCache: URLSearchParams | null = null;
  /** Status line and headers of a started stream, not yet handed to uWS. */
  private pendingHead: Array<[string, string]> | null = null;

  constructor(
    readonly res: HttpResponse,
    init: ContextInit,
  ) {
    this.method = init.method;
    this.path = init.path;
    this.rawQuery = init.rawQuery;
    this.headers = init.headers;
    this.requestId = init.requestId;
    this.params = init.params;
    this.errorFormat = init.errorFormat;
    this.maxQueuedBytes = init.maxQueuedBytes;
    this.stallTimeoutMs = init.stallTimeoutMs;
    this.body = init.body;
    this.onFinishCb = init.onFinish;
    this.onDestroyCb = init.onDestroy;
    this.maxBody = init.maxBody;
  }

  readonly maxBody: number;

  get query(): URLSearchParams {
    return (this.queryCache ??= new URLSearchParams(this.rawQuery));
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = takeAbortController();
    }
    if (!this.controller.signal.aborted) {
      if (this.interruption) this.controller.abort(this.interruption);
      else if (this.aborted) this.controller.abort(new ClientAbortedError());
    }
    return this.controller.signal;
  }

  header(name: string): string | undefined {
    return this.headers.get(name.toLowerCase());
  }

  // ---- body --------------------------------------------------------------------------------

  async readBody(): Promise<Buffer> {
    if (!this.body) return Buffer.alloc(0);
    return this.body.readAll();
  }

  async readJson(): Promise<unknown> {
    const buf = await this.readBody();
    if (buf.byteLength === 0) throw apiError('body_empty');
    try {
      return JSON.parse(buf.toString('utf8'));
    } catch (err) {
      throw apiError('body_not_json', { reason: (err as Error).message });
    }
  }

  bodyChunks(): AsyncIterable<Uint8Array> {
    if (!this.body) return (async function* () {})();
    return this.body.chunksIterator();
  }

  pipeBody(sink: BodySink): BodyPipe {
    if (!this.body) return { done: Promise.resolve(), drained: () => undefined };
    return this.body.pipeTo(sink);
  }

  // ---- responses ---------------------------------------------------------------------------

  setHeader(name: string, value: string): void {
    if (this.responded) throw new Error(`setHeader('${name}') after the response started`);
    (this.outHeaders ??= []).push([name.toLowerCase(), value]);
  }

  json(status: number, body: unknown): void {
    this.endWith(status, 'application/json', JSON.stringify(body));
  }

  text(status: number, body: string, contentType = 'text/plain; charset=utf-8'): void {
    this.endWith(status, contentType, body);
  }

  sse(): SseWriter {
    // The writer's open comment (or first event, when one follows at once) carries the head.
    this.startResponse(
      200,
      'sse',
      [
        ['content-type', 'text/event-stream; charset=utf-8'],
        ['cache-control', 'no-cache'],
        ['x-accel-buffering', 'no'],
      ],
      false,
    );
    const w = new UwsSseWriter(this);
    this.sseWriter = w;
    if (!this.aborted) w.open();
    return w;
  }

  stream(status: number, contentType: string, contentLength?: number): ByteStream {
    if (contentLength !== undefined && !(Number.isSafeInteger(contentLength) && contentLength >= 0)) {
      throw new Error(`stream(): bad contentLength ${contentLength}`);
    }
    if (this.method === 'HEAD') return this.headOfStream(status, contentType, contentLength);
    this.startResponse(status, 'bytes', [['content-type', contentType]]);
    return new UwsByteStream(this, contentLength);
  }

  /** HEAD of a streamed GET (a download): the head with the length the body would have; the
   *  handler gets a stream that is already closed, so it stops before reading any content. */
  private headOfStream(status: number, contentType: string, contentLength: number | undefined): ByteStream {
    if (this.responded) throw new Error('response already started');
    this.responded = true;
    this.status = status;
    if (!this.aborted) {
      this.body?.release();
      this.res.cork(() => {
        this.writeHead(status, [['content-type', contentType]]);
        this.res.endWithoutBody(contentLength, this.closeConnection || this.closeAfterResponse);
      });
      this.finish();
    }
    return { closed: true, write: () => Promise.resolve(), end: () => undefined };
  }

  /** Sends `err` in this route's envelope; mid-stream it becomes an SSE error event or a cut connection. */
  fail(err: ApiError): void {
    if (this.aborted || this.finished) return;
    if (!this.responded) {
      for (const [k, v] of Object.entries(err.headers)) this.setHeader(k, v);
      this.json(errorStatus(this.errorFormat, err), errorBody(this.errorFormat, err, this.requestId));
      return;
    }
    if (this.sseWriter && !this.sseWriter.closed) {
      const body = errorBody(this.errorFormat, err, this.requestId);
      // OpenAI streams carry errors as a plain data line; Anthropic streams as `event: error`.
      this.sseWriter.end([this.errorFormat === 'anthropic' ? { data: body as object, event: 'error' } : { data: body as object }]);
      return;
    }
    this.destroy(`error after the response started: ${err.code}`);
  }

  // ---- lifecycle (server and sinks) ----------------------------------------------------------

  onAbort(listener: () => void): void {
    if (this.aborted) listener();
    else (this.abortListeners ??= []).push(listener);
  }

  countBytes(n: number): void {
    this.bytesOut += n;
  }

  /** Hands a started stream's status and headers to uWS; call inside res.cork, before a body write. */
  writePendingHead(): void {
    const head = this.pendingHead;
    if (!head) return;
    this.pendingHead = null;
    if (!this.aborted) this.writeHead(this.status, head);
  }

  /** uWS onAborted: the socket is gone and `res` is dead. */
  handleAborted(): void {
    if (this.aborted || this.finished) return;
    this.aborted = true;
    this.body?.abort();
    this.controller?.abort(new ClientAbortedError());
    for (const l of this.abortListeners?.splice(0) ?? []) {
      try {
        l();
      } catch {
        // a listener's failure must not stop the others
      }
    }
    this.finish();
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.onFinishCb(this);
  }

  /** Ends a request the server will not finish (the shutdown deadline): an open event stream gets
   *  `err` as its last event, in the route's envelope, and ends; anything else is cut. Either way
   *  the handler's signal aborts, so that its generation stops. */
  interrupt(err: ApiError, reason: string): void {
    if (this.aborted || this.finished) return;
    this.interruption = err;
    this.controller?.abort(err);
    if (this.sseWriter && !this.sseWriter.closed) {
      this.onDestroyCb?.(this, `${reason}; the stream ends with an error event`);
      this.fail(err);
      if (this.finished) return;
    }
    this.destroy(reason);
  }

  destroy(reason: string): void {
    if (this.aborted || this.finished) return;
    this.onDestroyCb?.(this, reason);
    this.res.close(); // runs onAborted synchronously → handleAborted()
    this.handleAborted();
  }

  /** Keep-alive is unsafe once the body went past its limit: the rest of it is still on the wire. */
  private get closeAfterResponse(): boolean {
    return this.body?.overLimit === true && !this.body.complete;
  }

  private writeHead(status: number, head: Array<[string, string]>): void {
    const res = this.res;
    if (status !== 200) res.writeStatus(statusLine(status)); // uWS writes "200 OK" by itself
    for (const [k, v] of head) res.writeHeader(k, v);
    if (this.outHeaders) for (const [k, v] of this.outHeaders) res.writeHeader(k, v);
    res.writeHeader('x-request-id', this.requestId);
    res.writeHeader('request-id', this.requestId);
  }

  private endWith(status: number, contentType: string, body: string): void {
    if (this.responded) throw new Error('response already started');
    this.responded = true;
    this.status = status;
    if (this.aborted) return;
    const close = this.closeConnection || this.closeAfterResponse;
    this.body?.release();
    const bytes = Buffer.byteLength(body);
    this.res.cork(() => {
      this.writeHead(status, [['content-type', contentType]]);
      if (this.method === 'HEAD') this.res.endWithoutBody(bytes, close);
      else this.res.end(body, close);
    });
    if (this.method !== 'HEAD') this.bytesOut += bytes;
    this.finish();
  }

  /** The head waits for the first body write (one socket write for both); with `flushSoon` it
   *  goes out by itself after the current synchronous run if nothing was written by then. */
  private startResponse(status: number, kind: StreamKind, head: Array<[string, string]>, flushSoon = true): void {
    if (this.responded) throw new Error('response already started');
    this.responded = true;
    this.status = status;
    this.streamKind = kind;
    if (this.aborted) return;
    this.body?.release();
    this.pendingHead = head;
    if (flushSoon) {
      microtask(() => {
        if (this.pendingHead && !this.aborted && !this.finished) this.res.cork(() => this.writePendingHead());
      });
    }
  }
}
