import type { Command } from '../cli.js';

// Placeholder until the predict command lands; it says so instead of pretending.
export const command: Command = {
  summary: '(predict: not built yet)',
  async run() {
    console.error('svc predict: not implemented yet');
    return 2;
  },
};
