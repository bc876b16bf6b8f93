// `svc` entry: dispatches to one module per subcommand (src/cli/<name>.ts).
import { PACKAGE_ROOT } from './paths.js';

export interface Command {
  summary: string;
  run(argv: string[]): Promise<number>;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./cli/serve.js')).command,
  predict: async () => (await import('./cli/predict.js')).command,
  model: async () => (await import('./cli/model.js')).command,
  bench: async () => (await import('./cli/bench.js')).command,
};

async function usage(): Promise<string> {
  const lines = ['usage: svc <command> [options]   (svc <command> --help for its options)', '', 'commands:'];
  for (const [name, load] of Object.entries(COMMANDS)) lines.push(`  ${name.padEnd(10)}${(await load()).summary}`);
  lines.push('', `package: ${PACKAGE_ROOT}`);
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(await usage());
    return name ? 0 : 2;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`svc: unknown command '${name}'\n\n${await usage()}`);
    return 2;
  }
  return (await load()).run(rest);
}
