// Services: what route modules get from the server. One object per process, built once at
// startup and passed to every route factory (`xxxRoutes(services): Route[]`). Modules that need
// more add a field here and build it in createServices; keep construction in that one place.
import type { Config } from '../config.js';
import { loadModel, type LoadModelOptions } from '../engine/index.js';
import type { LoadedModel } from '../engine/types.js';
import { ensureBuiltinModel } from '../model-maker/index.js';
import { createLogger, type Logger } from '../log.js';
import { Metrics } from '../metrics.js';
import { BatchSystem } from '../batch/system.js';
import { prestartMultipartPool } from '../http/multipart-pool.js';
import { executeChatCompletion } from '../api/chat-executor.js';
import { EngineMetrics } from './engine-metrics.js';
import { registerBatchMetrics } from './batch-metrics.js';
import { DEFAULT_STALL_DEADLINE_MS, Readiness } from './readiness.js';

export type CloseHook = () => Promise<void> | void;

export interface Services {
  readonly config: Config;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** performance.now() when the process started serving (for uptime_seconds). */
  readonly startedAt: number;
  /** Loaded models by id (the shape src/chat/services.ts expects). */
  readonly models: Map<string, LoadedModel>;
  /** The apply LLM (--apply-model) svc-v3-large decodes with; null: the merge engine alone. */
  readonly applyModel: LoadedModel | null;
  /** Files + Batches on LMDB under --data-dir (main API only; null for svc predict). */
  readonly batch: BatchSystem | null;
  /** GET /ready and the degraded flag of GET /health. */
  readonly readiness: Readiness;
  /** The engine series on `metrics`; models are wrapped by it as they load. */
  readonly engineMetrics: EngineMetrics;
  /** Loads the models (createServices does unless deferLoad), then resumes batches and marks the
   *  process loaded. Rejects when no model could load (or the apply model failed). Once only. */
  load(): Promise<void>;
  /** Called with each model as it joins `models` (the prediction service picks its model so). */
  onModelLoaded(listener: (model: LoadedModel) => void): void;
  /** Registers work to do on shutdown, after the HTTP servers drained (closing LMDB, engines).
   *  Hooks run last-registered first, each once, failures logged and skipped. */
  onClose(hook: CloseHook): void;
  /** Runs the close hooks (shutdown does this; tests may too). */
  close(): Promise<void>;
}

export function uptimeSeconds(services: Pick<Services, 'startedAt'>): number {
  return (performance.now() - services.startedAt) / 1000;
}

/** The engine settings every model of this process loads with. */
function engineOptions(config: Config): LoadModelOptions {
  return { threads: config.threads, kvCacheMb: config.kvCacheMb, prefixCache: config.prefixCache, maxQueued: config.maxQueue, decodeStallMs: config.decodeStallMs, engineNice: config.engineNice };
}

/**
 * Model loading for `svc serve` / `svc predict`: every `config.models` path (--model, SVC_MODEL),
 * or the built-in model (generated into <data-dir>/models on first start) when none is given.
 * Errors thrown here abort startup with exit code 1.
 */
export async function loadModels(config: Config, logger: Logger, onFailure?: (path: string, error: unknown) => void): Promise<LoadedModel[]> {
  const paths = config.models.length ? config.models : [await ensureBuiltinModel(config.dataDir)];
  const loaded: LoadedModel[] = [];
  for (const path of paths) {
    const started = performance.now();
    let model: LoadedModel;
    try {
      model = await loadModel(path, engineOptions(config));
    } catch (error) {
      // With another model serving, the process runs degraded (GET /health says why); alone it stops.
      if (!onFailure || paths.length === 1) throw error;
      logger.error('model failed to load', { path, error });
      onFailure(path, error);
      continue;
    }
    logger.info('model loaded', { id: model.info.id, path, context: model.info.contextLength, ms: Math.round(performance.now() - started) });
    loaded.push(model);
  }
  if (loaded.length === 0) throw new Error('no model could be loaded');
  return loaded;
}

/** The apply LLM of `svc serve --apply-model PATH` (main API only), or null. Errors abort startup. */
export async function loadApplyModel(config: Config, logger: Logger): Promise<LoadedModel | null> {
  if (!config.main || !config.applyModel) return null;
  const started = performance.now();
  const model = await loadModel(config.applyModel, engineOptions(config));
  logger.info('apply model loaded', { id: model.info.id, path: config.applyModel, context: model.info.contextLength, ms: Math.round(performance.now() - started) });
  return model;
}

export interface ServicesOptions {
  logger?: Logger;
  metrics?: Metrics;
  /** Replaces loadModels (tests pass their own models, or none); onFailure records a model that
   *  failed while others load (the process then reports degraded). */
  loadModels?: (config: Config, logger: Logger, onFailure: (path: string, error: unknown) => void) => Promise<LoadedModel[]>;
  /** Replaces loadApplyModel. */
  loadApplyModel?: (config: Config, logger: Logger) => Promise<LoadedModel | null>;
  /** Return before loading the models; the caller runs services.load() (servers answer /ready
   *  with 503 meanwhile). */
  deferLoad?: boolean;
  /** A scheduler with work that has not stepped for this long makes /ready 503 (default 30 s). */
  stallDeadlineMs?: number;
}

export async function createServices(config: Config, opts: ServicesOptions = {}): Promise<Services> {
  const logger = opts.logger ?? createLogger({ level: config.logLevel });
  const metrics = opts.metrics ?? new Metrics();
  const hooks: CloseHook[] = [];
  const loadedListeners: Array<(model: LoadedModel) => void> = [];
  let closing: Promise<void> | null = null;
  let loading: Promise<void> | null = null;
  let batch: BatchSystem | null = null;
  let applyModel: LoadedModel | null = null;
  const models = new Map<string, LoadedModel>();
  const served = (): Iterable<LoadedModel> => (applyModel ? [...models.values(), applyModel] : models.values());
  const engineMetrics = new EngineMetrics(metrics, served);
  const readiness = new Readiness(() => models.values(), { stallDeadlineMs: opts.stallDeadlineMs ?? DEFAULT_STALL_DEADLINE_MS, maxQueue: config.maxQueue });
  registerBatchMetrics(metrics, () => batch);

  const load = async (): Promise<void> => {
    const loaded = await (opts.loadModels ?? loadModels)(config, logger, (path, error) => {
      readiness.loadFailures.push({ path, error: error instanceof Error ? error.message : String(error) });
    });
    for (const m of loaded) {
      if (models.has(m.info.id)) throw new Error(`two models with the id '${m.info.id}'`);
      const metered = engineMetrics.wrap(m);
      models.set(m.info.id, metered);
      for (const l of loadedListeners) l(metered);
    }
    const apply = await (opts.loadApplyModel ?? loadApplyModel)(config, logger);
    applyModel = apply && engineMetrics.wrap(apply);
    // The batch system's validation worker and the uploads' multipart thread, started before the
    // server is ready so the first upload and validation do not start threads on the loop.
    if (batch) await Promise.all([batch.start(), prestartMultipartPool()]);
    readiness.loaded = true;
    readiness.start();
  };

  const services: Services = {
    config,
    logger,
    metrics,
    startedAt: performance.now(),
    models,
    get applyModel() {
      return applyModel;
    },
    get batch() {
      return batch;
    },
    readiness,
    engineMetrics,
    load: () => (loading ??= load()),
    onModelLoaded: (listener) => {
      loadedListeners.push(listener);
      for (const m of models.values()) listener(m);
    },
    onClose: (hook) => void hooks.push(hook),
    close: () =>
      (closing ??= (async () => {
        readiness.stop();
        for (const hook of hooks.reverse()) {
          try {
            await hook();
          } catch (err) {
            logger.error('close hook failed', { error: err });
          }
        }
      })()),
  };

  if (config.main) {
    // Opened before the models load: its data-dir lock refuses a second server on the same dir
    // at once, not after the loading. Batches resume only once the models are there (load()).
    const system = new BatchSystem({
      dataDir: config.dataDir,
      maxFileBytes: config.maxUpload,
      executor: (body, o) => executeChatCompletion(services, body, o),
      log: (message) => logger.warn('batch', { message }),
    });
    batch = system;
    services.onClose(() => system.close());
  }
  if (opts.deferLoad) return services;
  try {
    await services.load();
  } catch (err) {
    await services.close(); // releases the store and its lock
    throw err;
  }
  return services;
}
