// The prediction service: src/predict/routes.ts on --host:--predict-port. No key by default
// (SPEC: its reference requests carry none); --predict-api-key turns it on for routes that ask.
import { DEFAULT_MAX_BODY } from '../config.js';
import { createHttpServer, type HttpServer } from '../http/server.js';
import { predictRoutes } from '../predict/routes.js';
import type { Services } from './services.js';

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
  });
  await server.listen(config.host, config.predictPort);
  return server;
}
