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

// Lines are batched into one stdout write per event-loop turn (at most 256 lines each): under
// load a write per request line costs more than the request. Stdout to a file or pipe is
// synchronous on Linux, so the flush on 'exit' still lands when process.exit() is called.
let pending: string[] = [];
let flushScheduled = false;
function flushStdout(): void {
  flushScheduled = false;
  if (pending.length === 0) return;
  const out = pending.join('\n') + '\n';
  pending = [];
  process.stdout.write(out);
}
let exitHookInstalled = false;
const stdoutSink = (line: string): void => {
  pending.push(line);
  if (pending.length >= 256) flushStdout();
  else if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushStdout);
  }
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', flushStdout);
  }
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

  // Lines are built as strings: `{"ts":..,"level":..,"msg":..` + bound fields + the call's fields.
  // This runs once per request (access log), so it avoids copying objects where it can.
  const boundJson = Object.keys(bound).length ? ',' + JSON.stringify(bound).slice(1, -1) : '';
  let lastMs = -1;
  let lastIso = '';
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields): void => {
    if (RANK[lvl] < threshold) return;
    const ms = now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(ms).toISOString();
    }
    let fieldsJson = '';
    if (fields) {
      let plain: LogFields = fields;
      for (const k in fields) {
        if (fields[k] instanceof Error) {
          plain = {};
          for (const j in fields) plain[j] = serialize(fields[j], withStack);
          break;
        }
      }
      try {
        const j = JSON.stringify(plain);
        if (j.length > 2) fieldsJson = ',' + j.slice(1, -1);
      } catch {
        fieldsJson = ',"log_error":"fields not serializable"';
      }
    }
    sink(`{"ts":"${lastIso}","level":"${lvl}","msg":${JSON.stringify(msg)}${boundJson}${fieldsJson}}`);
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
