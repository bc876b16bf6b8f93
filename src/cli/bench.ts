import type { Command } from '../cli.js';

// Placeholder until the bench command lands; it says so instead of pretending.
export const command: Command = {
  summary: '(bench: not built yet)',
  async run() {
    console.error('svc bench: not implemented yet');
    return 2;
  },
};
