// The prediction service: src/api/predict.ts on --host:--predict-port, plus GET /ready and
// GET /metrics (this process's metrics, engine series included). No key by default (SPEC: its
// reference requests carry none); --predict-api-key turns it on for routes that ask. The
// predictor takes the first model once it has loaded (until then /v1/predict answers 503).
import { DEFAULT_MAX_BODY } from '../config.js';
import { apiErrorOf } from '../api/engine-error-mapping.js';
import { createHttpServer, type HttpServer } from '../http/server.js';
import { createPredictor, predictRouteOptions } from './predictor-wiring.js';
import { predictServiceRoutes } from '../api/predict.js';
import { metricsRoute, readyRoute } from '../api/health.js';
import type { Services } from './services.js';

function predictRoutes(services: Services) {
  const predictor = createPredictor(services);
  let picked = false;
  services.onModelLoaded((m) => {
    if (picked) return;
    picked = true;
    predictor.setModel(m);
  });
  return [...predictServiceRoutes(predictor, predictRouteOptions(services)), readyRoute(services), metricsRoute(services)];
}

export async function startPredictServer(services: Services): Promise<HttpServer> {
  const { config } = services;
  const server = createHttpServer({
    name: 'predict',
    routes: predictRoutes(services),
    logger: services.logger,
    metrics: services.metrics,
    apiKeys: config.predictApiKey ? [config.predictApiKey] : [],
    authByDefault: config.predictApiKey !== null,
    maxBody: config.maxBody ?? DEFAULT_MAX_BODY,
    errorFormat: 'predict',
    toApiError: apiErrorOf,
  });
  await server.listen(config.host, config.predictPort);
  return server;
}
