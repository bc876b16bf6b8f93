// Routes of the prediction service. Errors use the `{detail}` envelope (errorFormat 'predict').
// /health never needs a key; /v1/predict and /v1/kv/prefill need the optional --predict-api-key.
import { decode } from '@msgpack/msgpack';
import { apiError } from '../errors.js';
import type { ByteStream, Route } from '../http/types.js';
import type { Logger } from '../log.js';
import { bytesToTokens, encodeFrame, type KvPrefillRequest } from '../predict/kv-frames.js';
import { enginePacing, exportKvInChunks } from '../predict/kv-export.js';
import type { Predictor } from '../predict/predictor.js';

/** Prompt ids of a context-sized request fit easily; anything larger is not a prefill request. */
const MAX_PREFILL_BODY = 4 * 1024 * 1024;
/** /v1/predict body limit unless --max-body says otherwise: whole recorded sessions are sent
 *  (one full DOM snapshot can be megabytes) and windowed to the context here. */
export const PREDICT_MAX_BODY = 64 * 1024 * 1024;
/** Bytes of KV frames per socket write on /v1/kv/prefill. */
const WRITE_BATCH_BYTES = 1024 * 1024;

export interface PredictRouteOptions {
  requireKey: boolean;
  /** Body limit of /v1/predict; default PREDICT_MAX_BODY. */
  maxBody?: number;
  /** Gets one `predict` line per answered prediction (events dropped, cached tokens). */
  logger?: Logger;
}

export function predictServiceRoutes(predictor: Predictor, opts: PredictRouteOptions): Route[] {
  const routes: Route[] = [
    {
      method: 'GET',
      path: '/health',
      auth: false,
      errorFormat: 'predict',
      handler: (ctx) => ctx.json(200, predictor.health()),
    },
    {
      method: 'POST',
      path: '/v1/predict',
      auth: opts.requireKey,
      errorFormat: 'predict',
      maxBody: opts.maxBody ?? PREDICT_MAX_BODY,
      // Recordings are parsed and windowed (prepare) before the engine sees them: a burst's
      // gathering submit hold waits for that as it does for chat (src/intake.ts).
      generates: true,
      handler: async (ctx) => {
        const started = performance.now();
        const body = await ctx.readBody();
        const bodyBytes = body.byteLength; // the buffer may be handed to a worker
        const prompt = await predictor.prepare(body);
        const res = await predictor.predict(prompt, ctx.signal, started);
        ctx.setHeader('x-prompt-events-dropped', String(prompt.eventsDropped));
        ctx.json(200, res);
        opts.logger?.info('predict', {
          request_id: ctx.requestId,
          body_bytes: bodyBytes,
          prompt_events: prompt.events,
          prompt_events_dropped: prompt.eventsDropped,
          prompt_header_events: prompt.headerEvents,
          window_start: prompt.windowStart,
          prompt_tokens: res.usage.prompt_tokens,
          cached_tokens: res.usage.prompt_tokens_details.cached_tokens,
          tokens_generated: res.tokens_generated,
          latency_ms: res.latency_ms,
        });
      },
    },
  ];
  if (predictor.role === 'prefiller') {
    routes.push({
      method: 'POST',
      path: '/v1/kv/prefill',
      auth: opts.requireKey,
      errorFormat: 'predict',
      maxBody: MAX_PREFILL_BODY,
      handler: async (ctx) => {
        const model = predictor.requireModel();
        if (!model.kv) throw apiError('kv_export_unsupported');
        let req: KvPrefillRequest;
        try {
          req = decode(await ctx.readBody()) as KvPrefillRequest;
        } catch {
          throw apiError('kv_prefill_malformed');
        }
        if (typeof req !== 'object' || req === null || !(req.tokens instanceof Uint8Array) || !Number.isInteger(req.fromBlock) || req.fromBlock < 0) {
          throw apiError('kv_prefill_malformed');
        }
        const layout = model.kv.layout();
        if (req.fingerprint !== layout.modelFingerprint) throw apiError('kv_fingerprint_mismatch');
        const tokens = bytesToTokens(req.tokens);
        if (tokens.length > model.info.contextLength) throw apiError('input_exceeds_context', { context: model.info.contextLength, input: 'the prefill', tokens: tokens.length });
        const started = performance.now();
        const kv = model.kv;
        let out: ByteStream | null = null;
        let batch: Uint8Array[] = [encodeFrame({ t: 'layout', layout })];
        let batchBytes = batch[0]!.byteLength;
        // Frames go out in batches of about WRITE_BATCH_BYTES: one socket write per frame (a
        // 16-token block is 16 KiB on the built-in model) made the syscalls the bottleneck. The
        // response starts with the first chunk's blocks, so a failure before it is a plain error.
        const flush = async () => {
          out ??= ctx.stream(200, 'application/x-msgpack');
          if (batch.length) await out.write(Buffer.concat(batch, batchBytes));
          batch = [];
          batchBytes = 0;
        };
        let blocks = 0;
        try {
          blocks = await exportKvInChunks(kv, tokens, req.fromBlock, { prefixCache: model.stats().cache.enabled, pacing: enginePacing(model), signal: ctx.signal }, async (chunk) => {
            for (const block of chunk) {
              const frame = encodeFrame({ t: 'block', index: block.index, data: block.data });
              batch.push(frame);
              batchBytes += frame.byteLength;
              if (batchBytes >= WRITE_BATCH_BYTES) await flush();
            }
            if (batchBytes > 0) await flush(); // each chunk reaches the decoder as soon as it is ready
            return !(out as ByteStream | null)?.closed;
          });
        } catch (err) {
          if (!out) throw err;
          (out as ByteStream).end(encodeFrame({ t: 'error', message: (err as Error).message }));
          return;
        }
        batch.push(encodeFrame({ t: 'end', blocks, prefillMs: performance.now() - started }));
        out ??= ctx.stream(200, 'application/x-msgpack');
        (out as ByteStream).end(Buffer.concat(batch));
      },
    });
  }
  return routes;
}
