// `svc serve`: the main API and (unless --no-predict) the prediction service in one process.
import type { Command } from '../cli.js';
import { ConfigError, flagHelp, parseServeConfig, SERVE_FLAGS, type Config } from '../config.js';
import { createLogger } from '../log.js';
import type { HttpServer } from '../http/server.js';
import { resolveApiKeys } from '../server/api-key-file.js';
import { startMainServer } from '../server/main-server.js';
import { startPredictServer } from '../server/predict-server.js';
import { createServices } from '../server/services.js';
import { installShutdown } from '../server/shutdown.js';

const USAGE = `usage: svc serve [options]

Starts the main API (OpenAI/Anthropic-compatible, API key required) and the prediction service.`;

/** Parses flags or prints why not; null means "exit with this code". */
export function configOrExit(parse: () => Config, command: string): Config | number {
  try {
    return parse();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`svc ${command}: ${err.message}\n(svc ${command} --help lists every flag)`);
      return 2;
    }
    throw err;
  }
}

export const command: Command = {
  summary: 'run the main API and the prediction service',
  async run(argv) {
    if (argv.includes('--help') || argv.includes('-h')) {
      console.log(flagHelp(USAGE, SERVE_FLAGS));
      return 0;
    }
    const parsed = configOrExit(() => parseServeConfig(argv), 'serve');
    if (typeof parsed === 'number') return parsed;
    const logger = createLogger({ level: parsed.logLevel });

    let config: Config;
    try {
      const resolved = resolveApiKeys(parsed.apiKeys, parsed.dataDir, (msg) => console.error(msg));
      config = { ...parsed, apiKeys: resolved.keys };
      logger.info('api keys', { source: resolved.source, count: resolved.keys.length, ...(resolved.file ? { file: resolved.file } : {}) });
    } catch (err) {
      console.error(`svc serve: ${(err as Error).message}`);
      return 1;
    }

    let services;
    try {
      services = await createServices(config, { logger });
    } catch (err) {
      logger.error('startup failed', { error: err });
      return 1;
    }
    const servers: HttpServer[] = [];
    try {
      servers.push(await startMainServer(services));
      if (config.predict) servers.push(await startPredictServer(services));
    } catch (err) {
      logger.error('startup failed', { error: err });
      await Promise.all(servers.map((s) => s.shutdown(0)));
      await services.close();
      return 1;
    }
    const [main, predict] = servers;
    logger.info('listening', {
      main_url: `http://${config.host}:${main!.port}`,
      ...(predict ? { predict_url: `http://${config.host}:${predict.port}` } : {}),
      models: [...services.models.keys()],
    });
    installShutdown({ servers, services, timeoutMs: config.shutdownTimeoutS * 1000 });
    return new Promise<number>(() => {}); // serves until a signal; shutdown exits the process
  },
};
