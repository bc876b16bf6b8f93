// The main API server: mainRoutes on --host:--port, API key required by default, per-key
// rate limit, OpenAI error envelope for unmatched paths.
import { closeApplyPool, warmApplyPool } from '../apply/pool.js';
import { DEFAULT_MAX_BODY } from '../config.js';
import { apiErrorOf } from '../api/engine-error-mapping.js';
import { createHttpServer, type HttpServer } from '../http/server.js';
import { closeMultipartPool } from '../http/multipart-pool.js';
import { mainRoutes } from './routes.js';
import type { Services } from './services.js';

export async function startMainServer(services: Services): Promise<HttpServer> {
  const { config } = services;
  const server = createHttpServer({
    name: 'main',
    routes: mainRoutes(services),
    logger: services.logger,
    metrics: services.metrics,
    apiKeys: config.apiKeys,
    authByDefault: true,
    maxBody: config.maxBody ?? DEFAULT_MAX_BODY,
    rateLimit: { rps: config.rateLimitRps, burst: config.rateLimitBurst },
    errorFormat: 'openai',
    streamStallTimeoutMs: config.streamStallTimeoutS * 1000,
    toApiError: apiErrorOf,
  });
  await server.listen(config.host, config.port);
  // Apply workers build their tokenizer once; start that now, not on the first apply request.
  warmApplyPool().catch((error: unknown) => services.logger.warn('apply pool warm-up failed', { error }));
  services.onClose(closeApplyPool);
  services.onClose(closeMultipartPool);
  return server;
}
