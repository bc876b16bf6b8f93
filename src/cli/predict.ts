// `svc predict`: the prediction service alone (standalone, prefiller or decoder role).
import { asksHelp, type Command } from '../cli.js';
import { flagHelp, parsePredictConfig, PREDICT_FLAGS } from '../config.js';
import { createLogger } from '../log.js';
import { startPredictServer } from '../server/predict-server.js';
import { runServers } from '../server/run-servers.js';
import { configOrExit } from './serve.js';

const USAGE = `usage: svc predict --role standalone|prefiller|decoder [--prefiller URL] [options]

Starts the next-action prediction service on its own.`;

export const command: Command = {
  summary: 'run the prediction service alone',
  async run(argv) {
    if (asksHelp(argv)) {
      console.log(flagHelp(USAGE, PREDICT_FLAGS));
      return 0;
    }
    const config = configOrExit(() => parsePredictConfig(argv), 'predict');
    if (typeof config === 'number') return config;
    const logger = createLogger({ level: config.logLevel });
    return runServers(config, logger, [{ urlKey: 'predict_url', start: startPredictServer }], { role: config.role });
  },
};
