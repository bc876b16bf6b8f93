// Graceful shutdown on SIGINT/SIGTERM: every server stops accepting and drains in-flight
// requests and streams for up to the timeout (the rest are cut), then the close hooks run
// (LMDB, engines) and the process exits 0. A second signal exits 1 at once.
import type { HttpServer } from '../http/server.js';
import type { Services } from './services.js';

export interface ShutdownOptions {
  servers: readonly HttpServer[];
  services: Services;
  timeoutMs: number;
  exit?: (code: number) => void;
}

export async function shutdownAll(opts: ShutdownOptions, reason: string): Promise<number> {
  const { logger } = opts.services;
  // GET /ready turns 503 before anything stops, so a load balancer stops sending here.
  opts.services.readiness.shuttingDown = true;
  logger.info('shutting down', { reason, in_flight: opts.servers.reduce((n, s) => n + s.inFlight, 0), timeout_ms: opts.timeoutMs });
  const results = await Promise.all(opts.servers.map((s) => s.shutdown(opts.timeoutMs)));
  const aborted = results.reduce((n, r) => n + r.aborted, 0);
  // Close hooks get their own bounded time so a stuck one cannot keep the process alive.
  let timer: NodeJS.Timeout | undefined;
  const hooksDone = await Promise.race([
    opts.services.close().then(() => true),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), Math.max(5000, opts.timeoutMs)))),
  ]);
  clearTimeout(timer);
  if (!hooksDone) {
    logger.error('close hooks did not finish in time');
    return 1;
  }
  logger.info('stopped', { aborted_requests: aborted });
  return 0;
}

export function installShutdown(opts: ShutdownOptions): void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let started = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (started) {
      opts.services.logger.warn('second signal: exiting now', { signal });
      exit(1);
      return;
    }
    started = true;
    shutdownAll(opts, signal).then(exit, (err: unknown) => {
      opts.services.logger.error('shutdown failed', { error: err });
      exit(1);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
