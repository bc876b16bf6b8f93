// GET /health (no key: liveness probes) and GET /metrics (Prometheus text; needs the API key
// like every other main-API endpoint, Prometheus sends it with `authorization` in its scrape config).
import type { Route } from '../http/types.js';
import { PROMETHEUS_CONTENT_TYPE } from '../metrics.js';
import { uptimeSeconds, type Services } from '../server/services.js';

export interface MainHealth {
  status: 'ok';
  uptime_seconds: number;
  models: string[];
}

export function healthRoutes(services: Pick<Services, 'startedAt' | 'models' | 'metrics'>): Route[] {
  return [
    {
      method: 'GET',
      path: '/health',
      auth: false,
      handler: (ctx) => {
        const body: MainHealth = { status: 'ok', uptime_seconds: uptimeSeconds(services), models: [...services.models.keys()] };
        ctx.json(200, body);
      },
    },
    {
      method: 'GET',
      path: '/metrics',
      handler: (ctx) => ctx.text(200, services.metrics.render(), PROMETHEUS_CONTENT_TYPE),
    },
  ];
}
