import type { Command } from '../cli.js';

// Placeholder until the model command lands; it says so instead of pretending.
export const command: Command = {
  summary: '(model: not built yet)',
  async run() {
    console.error('svc model: not implemented yet');
    return 2;
  },
};
