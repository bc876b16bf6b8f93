// A decoder's link to its prefiller: asks it for the KV blocks the decoder lacks and inserts
// them into the local prefix cache. Any failure (unreachable, slow, wrong model, cut stream)
// marks the link degraded and the caller prefills locally; a heartbeat restores `healthy`
// once the prefiller answers again.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { KvBlock, KvLayout, KvTransfer } from '../engine/types.js';
import { blockFromFrame, FrameReader, sameLayout, tokensToBytes, type KvPrefillRequest } from './kv-frames.js';
import { encode } from '@msgpack/msgpack';

/** Sends a GET, or a POST of `body`, and resolves with the response stream (node:http: fetch's web
 *  streams cost about as much as the KV bytes' whole trip). Aborting `signal` destroys the request
 *  and its response. */
function requestStream(url: URL, headers: Record<string, string>, body: Uint8Array | null, agent: HttpAgent, signal: AbortSignal): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const h = body ? { ...headers, 'content-length': String(body.byteLength) } : headers;
    const req = send(url, { method: body ? 'POST' : 'GET', agent, signal, headers: h }, resolve);
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

async function readText(res: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of res) text += String(chunk);
  return text;
}

/** `server_role` of a prediction service's /health body; null for anything else. */
function roleOf(healthBody: string): string | null {
  try {
    const role = (JSON.parse(healthBody) as { server_role?: unknown }).server_role;
    return typeof role === 'string' ? role : null;
  } catch {
    return null;
  }
}

export interface PrefillerLinkOptions {
  url: string;
  apiKey?: string;
  /** Give up on a transfer (and prefill locally) when no block arrives for this long. */
  timeoutMs: number;
  heartbeatMs: number;
  log?: (level: 'info' | 'warn', msg: string, fields?: Record<string, unknown>) => void;
}

export interface TransferStats {
  requestedFromBlock: number;
  blocks: number;
  bytes: number;
  ms: number;
  /** Prompt tokens cached locally after the import. */
  cachedTokens: number;
}

export class PrefillerLink {
  private state: 'healthy' | 'degraded' = 'healthy';
  private timer: NodeJS.Timeout | null = null;
  lastError: string | null = null;
  /** KV imports that brought at least one block, and what they brought. */
  transfers = 0;
  blocksImported = 0;
  transferredBytes = 0;
  /** POST /v1/kv/prefill requests sent. */
  prefillRequests = 0;

  /** Keep-alive connections to the prefiller, reused by every transfer. */
  private readonly agent: HttpAgent;

  constructor(private readonly opts: PrefillerLinkOptions) {
    this.agent = new URL(opts.url).protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  }

  get status(): 'healthy' | 'degraded' {
    return this.state;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.heartbeat(), this.opts.heartbeatMs);
    this.timer.unref();
    void this.heartbeat();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.agent.destroy();
  }

  /** `path` under the prefiller's URL (a path prefix in it is kept). */
  private endpoint(path: string): URL {
    return new URL(path, this.opts.url.endsWith('/') ? this.opts.url : `${this.opts.url}/`);
  }

  private headers(): Record<string, string> {
    return this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {};
  }

  private mark(state: 'healthy' | 'degraded', reason?: string): void {
    if (state !== this.state) this.opts.log?.(state === 'healthy' ? 'info' : 'warn', `prefiller ${state}`, { prefiller: this.opts.url, reason });
    this.state = state;
    if (reason) this.lastError = reason;
  }

  async heartbeat(): Promise<void> {
    try {
      const res = await requestStream(this.endpoint('health'), this.headers(), null, this.agent, AbortSignal.timeout(Math.min(this.opts.timeoutMs, 2000)));
      const status = res.statusCode ?? 0;
      if (status < 200 || status > 299) {
        res.resume();
        this.mark('degraded', `health answered ${status}`);
        return;
      }
      // Answering is not enough: a standalone or decoder node (a wrong --prefiller URL) answers
      // /health too, but every KV request to it fails.
      const role = roleOf(await readText(res));
      if (role === 'prefiller') this.mark('healthy');
      else this.mark('degraded', `${this.opts.url} is ${role ? `a ${role} node` : 'not a prediction service'}, not a prefiller`);
    } catch (err) {
      this.mark('degraded', `unreachable: ${(err as Error).message}`);
    }
  }

  /**
   * Fetches the blocks of `tokens` that `kv` does not hold and imports them. Returns null when the
   * prefiller could not help (the caller then prefills locally); never throws.
   */
  async pull(kv: KvTransfer, tokens: Uint32Array, signal?: AbortSignal): Promise<TransferStats | null> {
    const layout = kv.layout();
    const have = kv.cachedPrefixTokens(tokens);
    const fromBlock = Math.floor(have / layout.blockTokens);
    const fullBlocks = Math.floor(tokens.length / layout.blockTokens);
    if (fromBlock >= fullBlocks) return { requestedFromBlock: fromBlock, blocks: 0, bytes: 0, ms: 0, cachedTokens: have };
    const started = performance.now();
    // A stalled prefiller times out, not a slow long prompt: the timer restarts with every block
    // (a 16k-token prompt streams for longer than the timeout on a slow machine, a block at a time).
    const stalled = new AbortController();
    const timer = setTimeout(() => stalled.abort(), this.opts.timeoutMs);
    const abort = signal ? AbortSignal.any([signal, stalled.signal]) : stalled.signal;
    const blocks: KvBlock[] = [];
    try {
      await this.download(layout, tokens, fromBlock, blocks, abort, () => timer.refresh());
      this.mark('healthy');
    } catch (err) {
      const reason = stalled.signal.aborted ? `no KV for ${this.opts.timeoutMs} ms` : (err as Error).message;
      this.mark('degraded', reason);
      if (signal?.aborted) return null;
      // Blocks that did arrive whole are still good: keep them, prefill the rest locally.
      if (blocks.length === 0) return null;
    } finally {
      clearTimeout(timer);
    }
    const bytes = blocks.reduce((n, b) => n + b.data.byteLength, 0);
    const cachedTokens = await kv.importKv(tokens, blocks);
    this.transfers++;
    this.blocksImported += blocks.length;
    this.transferredBytes += bytes;
    return { requestedFromBlock: fromBlock, blocks: blocks.length, bytes, ms: performance.now() - started, cachedTokens };
  }

  /**
   * Streams blocks [fromBlock, ...) of `tokens` from the prefiller into `blocks` (whole blocks
   * only, in order, so a failure leaves the ones that did arrive). Throws on any failure.
   */
  async download(layout: KvLayout, tokens: Uint32Array, fromBlock: number, blocks: KvBlock[], signal: AbortSignal, onBlock?: () => void): Promise<void> {
    const req: KvPrefillRequest = { fingerprint: layout.modelFingerprint, tokens: tokensToBytes(tokens), fromBlock };
    this.prefillRequests++;
    const res = await requestStream(this.endpoint('v1/kv/prefill'), { 'content-type': 'application/x-msgpack', ...this.headers() }, encode(req), this.agent, signal);
    const status = res.statusCode ?? 0;
    if (status < 200 || status > 299) throw new Error(`prefill answered ${status}: ${(await readText(res).catch(() => '')).slice(0, 200)}`);
    const reader = new FrameReader();
    let ended = false;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      for (const frame of reader.push(chunk)) {
        if (frame.t === 'layout' && !sameLayout(frame.layout, layout)) throw new Error('prefiller serves a different model or KV layout');
        if (frame.t === 'error') throw new Error(`prefiller: ${frame.message}`);
        if (frame.t === 'block') {
          if (frame.index !== fromBlock + blocks.length) throw new Error(`block ${frame.index} out of order`);
          blocks.push(blockFromFrame(frame));
          onBlock?.();
        }
        if (frame.t === 'end') ended = true;
      }
    }
    if (!ended) throw new Error('KV stream ended early');
  }
}
