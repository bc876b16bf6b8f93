// Routes of the prediction service (port --predict-port / svc predict --port). For now only
// GET /health, answered from what Services knows; the prediction engineer owns this file and
// replaces it with the full set (src/predict/predict-routes.ts).
import type { Route } from '../http/types.js';
import { uptimeSeconds, type Services } from '../server/services.js';

export function predictRoutes(services: Services): Route[] {
  return [
    {
      method: 'GET',
      path: '/health',
      auth: false,
      errorFormat: 'predict',
      handler: (ctx) => {
        const model = services.models.values().next().value;
        const stats = model?.stats();
        const cacheEnabled = services.config.prefixCache && (stats?.cache.enabled ?? false);
        ctx.json(200, {
          status: model ? 'healthy' : 'degraded',
          server_role: services.config.role,
          model: model?.info.id ?? '',
          gpu_available: stats?.gpuAvailable ?? false,
          cache_enabled: cacheEnabled,
          ...(cacheEnabled && stats
            ? { cache_stats: { enabled: true, hit_rate: stats.cache.hitRate, num_cached_tokens: stats.cache.cachedTokens } }
            : {}),
          uptime_seconds: uptimeSeconds(services),
        });
      },
    },
  ];
}
