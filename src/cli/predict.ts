// `svc predict`: the prediction service alone (standalone, prefiller or decoder role).
import type { Command } from '../cli.js';
import { flagHelp, parsePredictConfig, PREDICT_FLAGS } from '../config.js';
import { createLogger } from '../log.js';
import { startPredictServer } from '../server/predict-server.js';
import { createServices } from '../server/services.js';
import { installShutdown } from '../server/shutdown.js';
import { configOrExit } from './serve.js';

const USAGE = `usage: svc predict --role standalone|prefiller|decoder [--prefiller URL] [options]

Starts the next-action prediction service on its own.`;

export const command: Command = {
  summary: 'run the prediction service alone',
  async run(argv) {
    if (argv.includes('--help') || argv.includes('-h')) {
      console.log(flagHelp(USAGE, PREDICT_FLAGS));
      return 0;
    }
    const config = configOrExit(() => parsePredictConfig(argv), 'predict');
    if (typeof config === 'number') return config;
    const logger = createLogger({ level: config.logLevel });
    let services;
    try {
      services = await createServices(config, { logger });
    } catch (err) {
      logger.error('startup failed', { error: err });
      return 1;
    }
    let server;
    try {
      server = await startPredictServer(services);
    } catch (err) {
      logger.error('startup failed', { error: err });
      await services.close();
      return 1;
    }
    logger.info('listening', { predict_url: `http://${config.host}:${server.port}`, role: config.role, models: [...services.models.keys()] });
    installShutdown({ servers: [server], services, timeoutMs: config.shutdownTimeoutS * 1000 });
    return new Promise<number>(() => {});
  },
};
