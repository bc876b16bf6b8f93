import type { Command } from '../cli.js';

// Placeholder until the serve command lands; it says so instead of pretending.
export const command: Command = {
  summary: '(serve: not built yet)',
  async run() {
    console.error('svc serve: not implemented yet');
    return 2;
  },
};
