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

/** True for the arguments that ask for a usage text. */
export function isHelp(arg: string | undefined): boolean {
  return arg === '--help' || arg === '-h' || arg === 'help';
}

/** Whether a help flag appears anywhere among a command's arguments. */
export function asksHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/** Answers arguments that name none of a command's subcommands: help asked for (usage on stdout,
 *  exit 0), nothing given or an unknown name (usage on stderr, exit 2). */
export function usageAnswer(prefix: string, usageText: string, name: string | undefined): number {
  if (isHelp(name)) {
    console.log(usageText);
    return 0;
  }
  console.error(name === undefined ? usageText : `${prefix}: unknown command '${name}'\n\n${usageText}`);
  return 2;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const load = name === undefined ? undefined : COMMANDS[name];
  if (!load) return usageAnswer('svc', await usage(), name);
  return (await load()).run(rest);
}
