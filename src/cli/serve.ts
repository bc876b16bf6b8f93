// `svc serve`: the main API and (unless --no-predict) the prediction service in one process.
import { asksHelp, type Command } from '../cli.js';
import { ConfigError, flagHelp, parseServeConfig, SERVE_FLAGS, type Config } from '../config.js';
import { createLogger } from '../log.js';
import { resolveApiKeys } from '../server/api-key-file.js';
import { startMainServer } from '../server/main-server.js';
import { startPredictServer } from '../server/predict-server.js';
import { runServers, type ServerStarter } from '../server/run-servers.js';

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
    if (asksHelp(argv)) {
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

    const starters: ServerStarter[] = [{ urlKey: 'main_url', start: startMainServer }];
    if (config.predict) starters.push({ urlKey: 'predict_url', start: startPredictServer });
    return runServers(config, logger, starters);
  },
};
