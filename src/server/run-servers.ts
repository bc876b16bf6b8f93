// Process lifecycle shared by `svc serve` and `svc predict`: build the services (models load
// here), start each server, log one `listening` line with their URLs, serve until a signal.
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

/** Resolves only with an exit code for a failed start; a running process ends in shutdown. */
export async function runServers(config: Config, logger: Logger, starters: ServerStarter[], extra: Record<string, unknown> = {}): Promise<number> {
  let services: Services;
  try {
    services = await createServices(config, { logger });
  } catch (err) {
    logger.error('startup failed', { error: err });
    return 1;
  }
  const servers: HttpServer[] = [];
  const urls: Record<string, string> = {};
  try {
    for (const s of starters) {
      const server = await s.start(services);
      servers.push(server);
      urls[s.urlKey] = `http://${config.host}:${server.port}`;
    }
  } catch (err) {
    logger.error('startup failed', { error: err });
    await Promise.all(servers.map((s) => s.shutdown(0)));
    await services.close();
    return 1;
  }
  logger.info('listening', { ...urls, ...extra, models: [...services.models.keys()] });
  installShutdown({ servers, services, timeoutMs: config.shutdownTimeoutS * 1000 });
  return new Promise<number>(() => {}); // serves until a signal; shutdown exits the process
}
