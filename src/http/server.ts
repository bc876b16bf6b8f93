// createHttpServer: one uWS app serving a Route[] (src/http/types.ts). Per request, in order:
// copy what we need out of uWS's HttpRequest, match the route (404 / 405 + Allow), check the
// API key (401), take a rate-limit token (429 + Retry-After), refuse an oversized Content-Length
// (413), attach the body reader and onAborted, then run the handler. Every response carries
// x-request-id and request-id; every finished request gives one access-log line and one metrics
// sample. Handler failures become the route's error envelope and never reach uWS.
import { randomBytes } from 'node:crypto';
import uWS from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp, us_listen_socket } from 'uWebSockets.js';
import { ApiError, apiError, toApiError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import type { ErrorFormat, HttpMethod, Route } from './types.js';
import { Router } from './router.js';
import { stockAbortControllers } from './abort-controllers.js';
import { ApiKeyAuth, presentedKeys } from './auth.js';
import { RateLimiter, type RateLimit } from './rate-limiter.js';
import { BodyReader, ClientAbortedError, tooLarge } from './body-reader.js';
import { UwsRequestContext } from './request-context.js';
import { enterIntake, leaveIntake } from '../intake.js';

export interface HttpServerOptions {
  /** Label in logs and metrics ('main', 'predict'). */
  name: string;
  routes: readonly Route[];
  logger: Logger;
  metrics?: Metrics;
  /** Keys accepted on routes with auth (Authorization: Bearer or x-api-key). None: those routes always 401. */
  apiKeys?: readonly string[];
  /** Auth for routes that do not say (Route.auth). Main API: true; prediction service: false. */
  authByDefault?: boolean;
  /** Body limit in bytes for routes without their own maxBody. */
  maxBody: number;
  /** Per-key token bucket on authenticated routes; absent or rps 0: off. */
  rateLimit?: RateLimit;
  /** Envelope for requests no route matched (404/405). Default 'openai'. */
  errorFormat?: ErrorFormat;
  /** Per-stream cap on bytes queued in JS behind backpressure (default 1 MiB). */
  maxStreamQueueBytes?: number;
  /** A streamed response whose client takes no bytes for this long while output waits is cut
   *  and its request's signal aborts (generation cancelled, KV freed). Default
   *  DEFAULT_STREAM_STALL_TIMEOUT_MS; 0: only uWS's own ~10 s backpressure timeout. */
  streamStallTimeoutMs?: number;
  /** Monotonic ms clock for the rate limiter (tests). */
  clock?: () => number;
  /** How a handler's thrown value becomes the catalogue error sent (default: ApiErrors as they
   *  are, anything else internal_error). The servers pass the API layer's mapping, which knows
   *  the engine's errors (src/api/engine-error-mapping.ts). */
  toApiError?: (err: unknown) => ApiError;
}

export interface ShutdownResult {
  /** Requests still running when the timeout hit, cut off. */
  aborted: number;
}

export interface HttpServer {
  readonly name: string;
  /** Resolves with the bound port (pass 0 for an ephemeral one). */
  listen(host: string, port: number): Promise<number>;
  /** Bound port, or -1 before listen. */
  readonly port: number;
  /** Requests whose response has not finished (streams included). */
  readonly inFlight: number;
  readonly draining: boolean;
  /** Stops accepting, lets in-flight requests finish for up to timeoutMs, cuts the rest, closes
   *  every socket. Idempotent: later calls get the same promise. */
  shutdown(timeoutMs: number): Promise<ShutdownResult>;
}

/** uWS closes a response stuck behind backpressure after about 10 s (HTTP_IDLE_TIMEOUT_S, not
 *  settable from JS): a stall timeout is useful below that. */
export const DEFAULT_STREAM_STALL_TIMEOUT_MS = 8_000;

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;
const METHODS = new Set<string>(['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS']);

// Request ids: a random per-process prefix plus a counter, `req_` + 32 hex digits. Unique
// without a random draw per request; ids identify requests, they are not secrets.
const ID_PREFIX = 'req_' + randomBytes(10).toString('hex');
let idCounter = 0;
function newRequestId(incoming: string | undefined): string {
  if (incoming && REQUEST_ID_RE.test(incoming)) return incoming;
  idCounter = (idCounter + 1) % 0x1000000000000;
  return ID_PREFIX + idCounter.toString(16).padStart(12, '0');
}

// uWS binds with SO_REUSEPORT unless told otherwise: a second server started on the same port
// would then share it and split its traffic. The exclusive option makes that bind fail instead.
// (The binary takes (host, port, options, cb); the bundled typings lack that overload.)
const LIBUS_LISTEN_EXCLUSIVE_PORT = 1;
type ListenWithOptions = (host: string, port: number, options: number, cb: (ls: us_listen_socket | false) => void) => TemplatedApp;

function listenExclusive(app: TemplatedApp, host: string, port: number, cb: (ls: us_listen_socket | false) => void): void {
  (app.listen as unknown as ListenWithOptions).call(app, host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, cb);
}

export function createHttpServer(opts: HttpServerOptions): HttpServer {
  const router = new Router(opts.routes);
  stockAbortControllers(); // the first burst finds them made (abort-controllers.ts)
  const auth = new ApiKeyAuth(opts.apiKeys ?? []);
  const limiter = new RateLimiter(opts.rateLimit ?? { rps: 0, burst: 1 }, opts.clock);
  const authByDefault = opts.authByDefault ?? true;
  const defaultFormat = opts.errorFormat ?? 'openai';
  const maxQueuedBytes = opts.maxStreamQueueBytes ?? 1 << 20;
  const stallTimeoutMs = opts.streamStallTimeoutMs ?? DEFAULT_STREAM_STALL_TIMEOUT_MS;
  const { logger, metrics, name } = opts;
  const errorOf = opts.toApiError ?? toApiError;
  const accessLog = logger.isEnabled('info');

  const active = new Set<UwsRequestContext>();
  let idleWaiter: (() => void) | null = null;
  let listenSocket: us_listen_socket | null = null;
  let port = -1;
  let draining = false;
  let shutdownPromise: Promise<ShutdownResult> | null = null;

  const onFinish = (ctx: UwsRequestContext): void => {
    active.delete(ctx);
    if (ctx.intakeKey) leaveIntake(ctx.intakeKey); // ended before reaching the engine, or after
    const ms = performance.now() - ctx.startedAt;
    // 499: the client closed the connection before a response started (nginx's convention).
    const status = ctx.aborted && !ctx.responded ? 499 : ctx.status;
    // Methods are client-chosen tokens: anything unusual shares one label so series stay bounded.
    metrics?.recordRequest(name, ctx.routePattern, METHODS.has(ctx.method) ? ctx.method : 'OTHER', status, ms / 1000);
    if (accessLog) {
      const fields: Record<string, unknown> = {
        server: name,
        request_id: ctx.requestId,
        method: ctx.method,
        path: ctx.path,
        status,
        ms: Math.round(ms * 100) / 100,
        bytes: ctx.bytesOut,
      };
      if (ctx.aborted) fields.aborted = true;
      logger.info('http', fields);
    }
    if (active.size === 0 && idleWaiter) idleWaiter();
  };

  const onDestroy = (ctx: UwsRequestContext, reason: string): void => {
    logger.warn('connection cut', { server: name, request_id: ctx.requestId, path: ctx.path, reason });
  };

  const handleFailure = (ctx: UwsRequestContext, route: Route, err: unknown): void => {
    if (ctx.aborted || err instanceof ClientAbortedError) return; // nobody to answer
    const failure = errorOf(err);
    if (!(err instanceof ApiError) && failure.code === 'internal_error') {
      logger.error('handler failed', { server: name, request_id: ctx.requestId, route: route.path, error: err });
    }
    if (ctx.finished) return;
    try {
      ctx.fail(failure);
    } catch (e) {
      logger.error('error response failed', { server: name, request_id: ctx.requestId, error: e });
      ctx.destroy('error response failed');
    }
  };

  const afterHandler = (ctx: UwsRequestContext, route: Route): void => {
    if (!ctx.responded && !ctx.aborted) {
      handleFailure(ctx, route, new Error(`handler for ${route.method} ${route.path} returned without responding`));
    }
  };

  // Synchronous handlers (health, metrics) finish without a promise or microtask.
  const runHandler = (ctx: UwsRequestContext, route: Route): void => {
    let result: Promise<void> | void;
    try {
      result = route.handler(ctx);
    } catch (err) {
      handleFailure(ctx, route, err);
      return;
    }
    if (result && typeof result.then === 'function') {
      result.then(
        () => afterHandler(ctx, route),
        (err: unknown) => handleFailure(ctx, route, err),
      );
    } else afterHandler(ctx, route);
  };

  /** Decides the request's fate synchronously: an early error, or go ahead with the matched route. */
  const admit = (route: Route, headers: Map<string, string>): ApiError | null => {
    if (route.auth ?? authByDefault) {
      const keys = presentedKeys(headers.get('authorization'), headers.get('x-api-key'));
      const keyIndex = keys.length ? auth.check(keys) : -1;
      if (keyIndex < 0) {
        return keys.length ? apiError('invalid_api_key') : apiError('missing_api_key');
      }
      const decision = limiter.take(String(keyIndex));
      if (!decision.ok) {
        return apiError('rate_limited', { seconds: decision.retryAfterSeconds });
      }
    }
    const limit = route.maxBody ?? opts.maxBody;
    const cl = headers.get('content-length');
    if (cl !== undefined && Number(cl) > limit) return tooLarge(limit);
    return null;
  };

  const onRequest = (res: HttpResponse, req: HttpRequest): void => {
    // uWS's HttpRequest dies when this function returns: copy everything first.
    const method = req.getCaseSensitiveMethod();
    const path = req.getUrl();
    const rawQuery = req.getQuery() ?? '';
    const headers = new Map<string, string>();
    req.forEach((k, v) => {
      if (!headers.has(k)) headers.set(k, v);
    });

    const m = router.match(method, path);
    const route = m.kind === 'found' ? m.route : null;
    let error: ApiError | null = null;
    if (draining && !route?.whileDraining) error = apiError('shutting_down');
    else if (m.kind === 'not_found') error = apiError('no_route', { method, path });
    else if (m.kind === 'method_not_allowed') {
      error = apiError('method_not_allowed', { method, path, allow: m.allow.join(', ') });
    } else error = admit(m.route, headers);

    const limit = route?.maxBody ?? opts.maxBody;
    const hasBody = (headers.get('content-length') ?? '0') !== '0' || headers.has('transfer-encoding');
    // The body reader must attach now: uWS drops body bytes that arrive with no onData handler.
    const body = route && !error && hasBody ? new BodyReader(res, limit) : null;
    const ctx = new UwsRequestContext(res, {
      method: (METHODS.has(method) ? method : method.toUpperCase()) as HttpMethod,
      path,
      rawQuery,
      headers,
      requestId: newRequestId(headers.get('x-request-id')),
      params: m.kind === 'found' ? m.params : {},
      errorFormat: (route ? route.errorFormat : router.errorFormatFor(path)) ?? defaultFormat,
      maxBody: limit,
      maxQueuedBytes,
      stallTimeoutMs,
      body,
      onFinish,
      onDestroy,
    });
    res.onAborted(() => ctx.handleAborted());
    active.add(ctx);
    if (route) ctx.routePattern = route.path;
    if (draining) ctx.closeConnection = true; // keep-alive clients reconnect elsewhere

    if (error || !route) {
      ctx.fail(error ?? apiError('no_route', { method, path }));
      return;
    }
    if (route.generates) {
      // On its way to the engine until it submits or finishes: the engine's gathering hold waits
      // for it (src/intake.ts).
      ctx.intakeKey = ctx.signal;
      enterIntake(ctx.intakeKey);
    }
    runHandler(ctx, route);
  };

  const app: TemplatedApp = uWS.App();
  app.any('/*', onRequest);

  const waitIdle = (timeoutMs: number): Promise<boolean> => {
    if (active.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        idleWaiter = null;
        resolve(false);
      }, timeoutMs);
      idleWaiter = () => {
        clearTimeout(timer);
        idleWaiter = null;
        resolve(true);
      };
    });
  };

  return {
    name,
    get port() {
      return port;
    },
    get inFlight() {
      return active.size;
    },
    get draining() {
      return draining;
    },
    listen(host: string, wanted: number): Promise<number> {
      return new Promise((resolve, reject) => {
        listenExclusive(app, host, wanted, (ls) => {
          if (!ls) {
            reject(new Error(`${name}: cannot listen on ${host}:${wanted} (address in use or not available)`));
            return;
          }
          listenSocket = ls;
          port = uWS.us_socket_local_port(ls);
          resolve(port);
        });
      });
    },
    shutdown(timeoutMs: number): Promise<ShutdownResult> {
      shutdownPromise ??= (async () => {
        draining = true;
        if (listenSocket) {
          uWS.us_listen_socket_close(listenSocket);
          listenSocket = null;
        }
        const idle = await waitIdle(timeoutMs);
        let aborted = 0;
        if (!idle) {
          const err = apiError('shutting_down');
          for (const ctx of [...active]) {
            ctx.interrupt(err, `still running after the ${timeoutMs} ms shutdown timeout`);
            aborted++;
          }
        }
        // Idle keep-alive connections would otherwise hold the process open. close() exists in
        // this uWS build (closes every socket) but is missing from its type declarations.
        (app as TemplatedApp & { close(): void }).close();
        return { aborted };
      })();
      return shutdownPromise;
    },
  };
}
