// Process lifecycle shared by `svc serve` and `svc predict`: build the services, start each
// server (GET /health answers and GET /ready says 503 while the models load), load the models,
// log one `listening` line with the URLs, serve until a signal.
import type { Config } from '../config.js';
import type { HttpServer } from '../http/server.js';
import type { Logger } from '../log.js';
import { createServices, type Services } from './services.js';
import { installShutdown } from './shutdown.js';

export interface ServerStarter {
  /** Key of this server's URL in the `listening` log line, e.g. `main_url`. */
  urlKey: string;
  start(services: Services): Promise<HttpServer>;
}

/** A failed start goes to the log and, like usage errors, to stderr: with --log-level silent (or
 *  logs collected elsewhere) it would otherwise exit 1 without a word. */
function startupFailed(logger: Logger, err: unknown): number {
  logger.error('startup failed', { error: err });
  process.stderr.write(`svc: startup failed: ${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
}

/** The URL clients use for a listening address; an IPv6 host goes in brackets. */
export function serverUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Resolves only with an exit code for a failed start; a running process ends in shutdown. */
export async function runServers(config: Config, logger: Logger, starters: ServerStarter[], extra: Record<string, unknown> = {}): Promise<number> {
  let services: Services;
  try {
    services = await createServices(config, { logger, deferLoad: true });
  } catch (err) {
    return startupFailed(logger, err);
  }
  const servers: HttpServer[] = [];
  const urls: Record<string, string> = {};
  try {
    for (const s of starters) {
      const server = await s.start(services);
      servers.push(server);
      urls[s.urlKey] = serverUrl(config.host, server.port);
    }
  } catch (err) {
    await Promise.all(servers.map((s) => s.shutdown(0)));
    await services.close();
    return startupFailed(logger, err);
  }
  logger.info('started', { ...urls, loading: true });
  // Signals during the load already shut down gracefully (and /ready says 503 from their start).
  installShutdown({ servers, services, timeoutMs: config.shutdownTimeoutS * 1000 });
  try {
    await services.load();
  } catch (err) {
    await Promise.all(servers.map((s) => s.shutdown(0)));
    await services.close();
    return startupFailed(logger, err);
  }
  logger.info('listening', { ...urls, ...extra, models: [...services.models.keys()] });
  return new Promise<number>(() => {}); // serves until a signal; shutdown exits the process
}
