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
import { executeChatCompletion } from '../api/chat-executor.js';

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
  return { threads: config.threads, kvCacheMb: config.kvCacheMb, prefixCache: config.prefixCache, maxQueued: config.maxQueue, decodeStallMs: config.decodeStallMs };
}

/**
 * Model loading for `svc serve` / `svc predict`: every `config.models` path (--model, SVC_MODEL),
 * or the built-in model (generated into <data-dir>/models on first start) when none is given.
 * Errors thrown here abort startup with exit code 1.
 */
export async function loadModels(config: Config, logger: Logger): Promise<LoadedModel[]> {
  const paths = config.models.length ? config.models : [await ensureBuiltinModel(config.dataDir)];
  const loaded: LoadedModel[] = [];
  for (const path of paths) {
    const started = performance.now();
    const model = await loadModel(path, engineOptions(config));
    logger.info('model loaded', { id: model.info.id, path, context: model.info.contextLength, ms: Math.round(performance.now() - started) });
    loaded.push(model);
  }
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
  /** Replaces loadModels (tests pass their own models, or none). */
  loadModels?: (config: Config, logger: Logger) => Promise<LoadedModel[]>;
  /** Replaces loadApplyModel. */
  loadApplyModel?: (config: Config, logger: Logger) => Promise<LoadedModel | null>;
}

export async function createServices(config: Config, opts: ServicesOptions = {}): Promise<Services> {
  const logger = opts.logger ?? createLogger({ level: config.logLevel });
  const metrics = opts.metrics ?? new Metrics();
  const hooks: CloseHook[] = [];
  let closing: Promise<void> | null = null;
  let batch: BatchSystem | null = null;
  let applyModel: LoadedModel | null = null;

  const services: Services = {
    config,
    logger,
    metrics,
    startedAt: performance.now(),
    models: new Map(),
    get applyModel() {
      return applyModel;
    },
    get batch() {
      return batch;
    },
    onClose: (hook) => void hooks.push(hook),
    close: () =>
      (closing ??= (async () => {
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
    // at once, not after the loading. Batches resume only once the models are there (start()).
    const system = new BatchSystem({
      dataDir: config.dataDir,
      maxFileBytes: config.maxUpload,
      executor: (body, o) => executeChatCompletion(services, body, o),
      log: (message) => logger.warn('batch', { message }),
    });
    batch = system;
    services.onClose(() => system.close());
  }
  try {
    const models = await (opts.loadModels ?? loadModels)(config, logger);
    for (const m of models) {
      if (services.models.has(m.info.id)) throw new Error(`two models with the id '${m.info.id}'`);
      services.models.set(m.info.id, m);
    }
    applyModel = await (opts.loadApplyModel ?? loadApplyModel)(config, logger);
    await batch?.start();
  } catch (err) {
    await services.close(); // releases the store and its lock
    throw err;
  }
  return services;
}
