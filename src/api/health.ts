// GET /health (liveness: the process answers; `degraded` when a model failed to load or a GPU is
// there but a model runs on the CPU), GET /ready (readiness: 200 only while every model is loaded,
// each scheduler steps and each queue is below its limit; 503 from the start of shutdown), and
// GET /metrics (Prometheus text). /health and /ready need no key (probes); /metrics needs the API
// key like every other main-API endpoint (Prometheus sends it as `authorization` in its scrape
// config). All three still answer on open connections while the server drains.
import type { Route } from '../http/types.js';
import { PROMETHEUS_CONTENT_TYPE } from '../metrics.js';
import type { Metrics } from '../metrics.js';

export interface MainHealth {
  status: 'ok' | 'degraded';
  uptime_seconds: number;
  models: string[];
  /** Why degraded (absent when ok). */
  problems?: string[];
}

/** What readiness says (src/server/readiness.ts implements it). */
export interface ReadinessSource {
  check(): { ready: boolean };
  /** Why the process is degraded: failed loads, a GPU left unused; empty when healthy. */
  problems(): string[];
}

/** What the health routes read of the running services. */
export interface HealthServices {
  /** performance.now() at startup. */
  readonly startedAt: number;
  readonly models: ReadonlyMap<string, unknown>;
  readonly metrics: Metrics;
  readonly readiness: ReadinessSource;
}

export function mainHealth(services: HealthServices): MainHealth {
  const problems = services.readiness.problems();
  const body: MainHealth = { status: problems.length ? 'degraded' : 'ok', uptime_seconds: (performance.now() - services.startedAt) / 1000, models: [...services.models.keys()] };
  if (problems.length) body.problems = problems;
  return body;
}

/** GET /ready, shared by the main API and the prediction service. */
export function readyRoute(services: Pick<HealthServices, 'readiness'>): Route {
  return {
    method: 'GET',
    path: '/ready',
    auth: false,
    whileDraining: true,
    handler: (ctx) => {
      const report = services.readiness.check();
      ctx.json(report.ready ? 200 : 503, report);
    },
  };
}

/** GET /metrics, shared by the main API (key required) and the prediction service (its own auth). */
export function metricsRoute(services: Pick<HealthServices, 'metrics'>, auth?: boolean): Route {
  return {
    method: 'GET',
    path: '/metrics',
    ...(auth === undefined ? {} : { auth }),
    whileDraining: true,
    handler: (ctx) => ctx.text(200, services.metrics.render(), PROMETHEUS_CONTENT_TYPE),
  };
}

export function healthRoutes(services: HealthServices): Route[] {
  return [
    {
      method: 'GET',
      path: '/health',
      auth: false,
      whileDraining: true,
      handler: (ctx) => ctx.json(200, mainHealth(services)),
    },
    readyRoute(services),
    metricsRoute(services),
  ];
}
