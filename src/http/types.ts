// The contract between the HTTP layer (src/http, on uWebSockets.js) and the route modules
// (src/api, src/predict). Route modules never touch uWS directly: they get a RequestContext.
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'DELETE' | 'PUT' | 'PATCH';

/** Which envelope a route's errors use (see src/errors.ts). */
export type ErrorFormat = 'openai' | 'anthropic' | 'predict';

/** One server-sent event: `data` (objects JSON-encoded) and an optional `event:` name. */
export interface SseEvent {
  data: string | object;
  event?: string;
}

export interface SseWriter {
  /** Sends one event (`event:` line when a name is given, then `data:`); objects are JSON-encoded.
   *  Resolves once uWS accepted the bytes; while the client is slow it waits for `onWritable`. */
  send(data: string | object, eventName?: string): Promise<void>;
  /** Several events in one socket write. */
  sendBatch(events: readonly SseEvent[]): Promise<void>;
  /** `: text` comment line, e.g. a keep-alive ping. */
  comment(text: string): Promise<void>;
  /** Ends the response, after `last` when given (in the same socket write). Idempotent. */
  end(last?: readonly SseEvent[]): void;
  /** True once the client went away or end() was called; producers stop when they see it. */
  readonly closed: boolean;
}

export interface ByteStream {
  /** Resolves when the chunk is handed to the socket (backpressure-aware). */
  write(chunk: Uint8Array | string): Promise<void>;
  end(chunk?: Uint8Array | string): void;
  readonly closed: boolean;
}

/** Takes a body's bytes as they arrive (RequestContext.pipeBody). */
export interface BodySink {
  /** `data` is valid only during the call (it may be uWS's own buffer): copy what you keep.
   *  Return false when full: the reader pauses the socket until the pipe's `drained()`. */
  write(data: Uint8Array): boolean;
}

export interface BodyPipe {
  /** Resolves when the whole body went to the sink; rejects with 413 past the limit, or with
   *  ClientAbortedError when the client goes away. */
  readonly done: Promise<void>;
  /** The sink has room again: the socket resumes. */
  drained(): void;
}

export interface RequestContext {
  readonly method: HttpMethod;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly requestId: string;
  /** Aborted when the client disconnects (uWS onAborted) or the server shuts down. */
  readonly signal: AbortSignal;
  /** Header by lower-case name. */
  header(name: string): string | undefined;
  /** Whole body parsed as JSON; throws ApiError 413 past the route's limit, 400 on bad JSON. */
  readJson(): Promise<unknown>;
  /** Whole body as bytes, same limit. */
  readBody(): Promise<Buffer>;
  /** Body as it arrives, chunks copied out of uWS; throws ApiError 413 past the route's limit. */
  bodyChunks(): AsyncIterable<Uint8Array>;
  /** Body as it arrives, handed to `sink` straight out of uWS's buffer; same limit. */
  pipeBody(sink: BodySink): BodyPipe;
  /** Adds a response header (before the response starts). */
  setHeader(name: string, value: string): void;
  json(status: number, body: unknown): void;
  text(status: number, body: string, contentType?: string): void;
  /** Starts a `text/event-stream` response. */
  sse(): SseWriter;
  /** Starts a streamed response with a body written piece by piece. */
  stream(status: number, contentType: string, contentLength?: number): ByteStream;
  readonly responded: boolean;
}

export type Handler = (ctx: RequestContext) => Promise<void> | void;

export interface Route {
  method: HttpMethod;
  /** Path pattern with `:name` parameters, e.g. `/v1/batches/:batch_id/cancel`. */
  path: string;
  handler: Handler;
  /** Default true on the main API. */
  auth?: boolean;
  /** Default 'openai'. */
  errorFormat?: ErrorFormat;
  /** Body limit in bytes for this route; default the server's --max-body. */
  maxBody?: number;
  /** Still served while the server drains for shutdown (probes, metrics); others get 503. */
  whileDraining?: boolean;
  /** A request here is submitted to the engine (it generates): from the moment it is taken in
   *  until it submits or finishes, it counts as in intake (src/intake.ts), which a burst's
   *  gathering submit hold waits for. The route hands ctx.signal to the engine's generate(). */
  generates?: boolean;
}
