// Structured JSON logs: one object per line ({ts, level, msg, ...fields}) on stdout.
// Callers pass fields, never request bodies or API keys: nothing here redacts for them.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  readonly level: LogLevel;
  isEnabled(level: Exclude<LogLevel, 'silent'>): boolean;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line (e.g. {service: 'predict'}). */
  child(fields: LogFields): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where finished lines go (default: process.stdout). Tests pass a collector. */
  sink?: (line: string) => void;
  /** Clock for `ts` (default Date.now). */
  now?: () => number;
}

const stdoutSink = (line: string): void => {
  process.stdout.write(line + '\n');
};

/** Error objects become {name, message} (stacks only at debug level): logs stay one line. */
function serialize(value: unknown, withStack: boolean): unknown {
  if (value instanceof Error) {
    return withStack ? { name: value.name, message: value.message, stack: value.stack } : { name: value.name, message: value.message };
  }
  return value;
}

export function createLogger(opts: LoggerOptions = {}, bound: LogFields = {}): Logger {
  const level = opts.level ?? 'info';
  const sink = opts.sink ?? stdoutSink;
  const now = opts.now ?? Date.now;
  const threshold = RANK[level];
  const withStack = threshold <= RANK.debug;

  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields): void => {
    if (RANK[lvl] < threshold) return;
    const entry: LogFields = { ts: new Date(now()).toISOString(), level: lvl, msg, ...bound };
    if (fields) for (const k in fields) entry[k] = serialize(fields[k], withStack);
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      line = JSON.stringify({ ts: entry.ts, level: lvl, msg, log_error: 'fields not serializable' });
    }
    sink(line);
  };

  return {
    level,
    isEnabled: (lvl) => RANK[lvl] >= threshold,
    debug: (msg, f) => emit('debug', msg, f),
    info: (msg, f) => emit('info', msg, f),
    warn: (msg, f) => emit('warn', msg, f),
    error: (msg, f) => emit('error', msg, f),
    child: (fields) => createLogger({ level, sink, now }, { ...bound, ...fields }),
  };
}
