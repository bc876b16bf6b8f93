// The prediction service's wiring for this process: a Predictor in the configured role over the
// first loaded model; in the decoder role, a link to the prefiller that a heartbeat keeps current.
import type { Services } from './services.js';
import { PREDICT_MAX_BODY, type PredictRouteOptions } from '../api/predict.js';
import { Predictor } from '../predict/predictor.js';
import { PrefillerLink } from '../predict/prefiller-link.js';

/** How long a decoder waits for the next block of its prefiller's KV before prefilling locally. */
const PREFILL_TIMEOUT_MS = 10_000;
const HEARTBEAT_MS = 2_000;

export function createPredictor(services: Services): Predictor {
  const { config, logger } = services;
  let link: PrefillerLink | null = null;
  if (config.role === 'decoder' && config.prefillerUrl) {
    link = new PrefillerLink({
      url: config.prefillerUrl.replace(/\/+$/, ''),
      apiKey: config.predictApiKey ?? undefined,
      timeoutMs: PREFILL_TIMEOUT_MS,
      heartbeatMs: HEARTBEAT_MS,
      log: (level, msg, fields) => logger[level](msg, fields),
    });
    link.start();
    services.onClose(() => link?.stop());
  }
  const predictor = new Predictor(config.role, link);
  services.onClose(() => predictor.close());
  const model = services.models.values().next().value;
  if (model) predictor.setModel(model);
  return predictor;
}

/** Route options from the config: --max-body, when given, is the predict body limit too. */
export function predictRouteOptions(services: Services): PredictRouteOptions {
  const { config } = services;
  return { requireKey: config.predictApiKey !== null, maxBody: config.maxBody ?? PREDICT_MAX_BODY, logger: services.logger };
}
