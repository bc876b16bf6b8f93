// Configuration of `svc serve` and `svc predict`: one flag table per command (flag, env name,
// default, help), parsed from the environment first and the command line second (flags win),
// then validated by one zod schema. Every flag FOO-BAR is also SVC_FOO_BAR in the environment.
// Bad input throws ConfigError with a message meant for the user; the CLI exits 2 on it.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { LOG_LEVELS } from './log.js';

/** The engine's defaults, in one place: the server's flags and loadModel() (src/engine) both
 *  read them, so a model loaded by a test, a bench or `svc serve` gets the same engine. */
export const ENGINE_DEFAULTS = {
  /** Compute threads, the scheduler's included: one per core. */
  threads: availableParallelism(),
  /** KV cache budget per model, MiB (reserved, not touched until used). */
  kvCacheMb: 1024,
  /** Interactive requests that may wait for a running slot, per model. */
  maxQueued: 1024,
  /** Sequences decoding at once. */
  maxSequences: 64,
  /** Tokens per engine step (the chunked-prefill budget). */
  maxBatchTokens: 512,
  /** Tokens per KV block. */
  blockTokens: 16,
  prefixCache: true,
  /** Prefill first while no decoding stream has waited this long (0: always mix). */
  decodeStallMs: 50,
  /** Nice increment of the engine's compute threads: the event loop preempts them (docs/serving-under-load.md). */
  engineNice: 0,
} as const;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const SERVER_ROLES = ['standalone', 'prefiller', 'decoder'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

const MiB = 1024 * 1024;
/** The JSON body limit when --max-body is not given (the Messages routes have their own). */
export const DEFAULT_MAX_BODY = 8 * MiB;

const ByteSize = z.union([z.number(), z.string()]).transform((v, zctx) => {
  const n = typeof v === 'number' ? v : parseBytes(v);
  if (n === null || !Number.isSafeInteger(n) || n < 1) {
    zctx.addIssue({ code: 'custom', message: `expected a byte size like 1048576, 512KiB, 8MiB or 1GiB, got '${v}'` });
    return z.NEVER;
  }
  return n;
});

/** Validated configuration shared by both commands (svc predict leaves the main-API fields at defaults). */
export const ConfigSchema = z.object({
  host: z.string().min(1),
  port: z.coerce.number().int().min(0).max(65535),
  predictPort: z.coerce.number().int().min(0).max(65535),
  /** Run the prediction service beside the main API (svc serve). */
  predict: z.boolean(),
  /** Run the main API (false for svc predict). */
  main: z.boolean(),
  dataDir: z.string().min(1),
  models: z.array(z.string().min(1)),
  apiKeys: z.array(z.string().min(8, 'API keys must be at least 8 characters')),
  /** Largest JSON body on every route; null: DEFAULT_MAX_BODY, and MESSAGES_MAX_BODY on the Messages routes. */
  maxBody: ByteSize.nullable(),
  maxUpload: ByteSize,
  rateLimitRps: z.coerce.number().min(0).max(1_000_000),
  rateLimitBurst: z.coerce.number().int().min(1).max(1_000_000),
  logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']),
  threads: z.coerce.number().int().min(1).max(1024),
  kvCacheMb: z.coerce.number().int().min(16).max(1_048_576),
  maxQueue: z.coerce.number().int().min(0).max(1_000_000),
  prefixCache: z.boolean(),
  decodeStallMs: z.coerce.number().min(0).max(60_000),
  engineNice: z.coerce.number().int().min(0).max(19),
  /** GGUF model svc-v3-large decodes with, the merge result as its speculative draft (null: merge only). */
  applyModel: z.string().min(1).nullable(),
  predictApiKey: z.string().min(8, 'the prediction API key must be at least 8 characters').nullable(),
  shutdownTimeoutS: z.coerce.number().min(0).max(3600),
  /** uWS cuts a response stuck behind backpressure at about 10 s on its own: no use above. */
  streamStallTimeoutS: z.coerce.number().min(0).max(10),
  role: z.enum(SERVER_ROLES),
  prefillerUrl: z
    .string()
    .url()
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http:// or https:// URL')
    .nullable(),
});

export type Config = z.infer<typeof ConfigSchema>;
type ConfigKey = keyof Config;

/** Parses 8MiB, 512KiB, 1GiB, 2M (binary), 1MB (decimal) or a plain byte count. */
export function parseBytes(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?)(b?)\s*$/i.exec(text);
  if (!m) return null;
  const unit = m[2]!.toLowerCase();
  if (!unit && (m[3] || m[4])) return m[4] && !m[3] ? Number(m[1]) : null; // "12b" ok, "12i" not
  const binary = m[3] !== '' || m[4] === ''; // KiB and bare K are binary; KB is decimal
  const base = binary ? 1024 : 1000;
  const exp = { '': 0, k: 1, m: 2, g: 3, t: 4 }[unit] ?? 0;
  return Math.round(Number(m[1]) * base ** exp);
}

type Kind = 'string' | 'number' | 'bytes' | 'bool' | 'list';

export interface FlagSpec {
  flag: string;
  key: ConfigKey;
  kind: Kind;
  /** Shown in --help; undefined: none. */
  def: string | undefined;
  help: string;
  /** Environment variable (default SVC_<FLAG>). */
  env?: string;
  /** Extra environment names accepted (comma-separated lists). */
  envAlso?: string[];
  /** Value shown in usage after the flag. */
  arg?: string;
  /** For bool flags named --no-x: the config value is the negation. */
  negated?: boolean;
}

function envName(f: FlagSpec): string {
  return f.env ?? 'SVC_' + f.flag.toUpperCase().replace(/-/g, '_');
}

const COMMON: FlagSpec[] = [
  { flag: 'host', key: 'host', kind: 'string', def: '127.0.0.1', arg: 'ADDR', help: 'interface to listen on' },
  { flag: 'data-dir', key: 'dataDir', kind: 'string', def: './data', arg: 'DIR', help: 'state: the generated built-in model; for svc serve also the API key file, LMDB store, uploaded files' },
  { flag: 'model', key: 'models', kind: 'list', def: undefined, arg: 'PATH', help: 'GGUF model to load (repeatable; env: comma-separated)' },
  {
    flag: 'max-body',
    key: 'maxBody',
    kind: 'bytes',
    def: undefined,
    arg: 'BYTES',
    help: 'largest JSON request body on every route (413 past it) (default 8MiB, and 32MiB on /v1/messages and count_tokens as in the Anthropic API)',
  },
  { flag: 'log-level', key: 'logLevel', kind: 'string', def: 'info', arg: 'LEVEL', help: `${LOG_LEVELS.join('|')}` },
  { flag: 'threads', key: 'threads', kind: 'number', def: String(ENGINE_DEFAULTS.threads), arg: 'N', help: 'engine CPU threads' },
  { flag: 'kv-cache-mb', key: 'kvCacheMb', kind: 'number', def: '1024', arg: 'MB', help: 'KV cache memory per model' },
  { flag: 'max-queue', key: 'maxQueue', kind: 'number', def: '1024', arg: 'N', help: 'requests that may wait for a free engine slot, per model (503 overloaded past it)' },
  { flag: 'no-prefix-cache', key: 'prefixCache', kind: 'bool', negated: true, def: undefined, help: 'disable prefix caching' },
  {
    flag: 'decode-stall-ms',
    key: 'decodeStallMs',
    kind: 'number',
    def: '50',
    arg: 'MS',
    help: 'prefill first: a step that can finish new prompts leaves decoding streams out (when that at least halves its work) while none has waited this long (0: always mix them in)',
  },
  {
    flag: 'engine-nice',
    key: 'engineNice',
    kind: 'number',
    def: String(ENGINE_DEFAULTS.engineNice),
    arg: 'N',
    help: 'run the engine compute threads this much nicer than the server (0-19, Linux): the event loop gets a core first when both want one',
  },
  { flag: 'predict-api-key', key: 'predictApiKey', kind: 'string', def: undefined, arg: 'KEY', help: 'require this key on the prediction service (default: no auth)' },
  { flag: 'shutdown-timeout', key: 'shutdownTimeoutS', kind: 'number', def: '10', arg: 'SECONDS', help: 'on SIGINT/SIGTERM, how long in-flight requests may finish' },
  {
    flag: 'stream-stall-timeout',
    key: 'streamStallTimeoutS',
    kind: 'number',
    def: '8',
    arg: 'SECONDS',
    help: 'cut a streamed response (and cancel its generation) whose client takes no bytes for this long (at most 10: the HTTP layer cuts at about 10 s itself; 0: leave it to that)',
  },
];

export const SERVE_FLAGS: FlagSpec[] = [
  COMMON[0]!,
  { flag: 'port', key: 'port', kind: 'number', def: '8080', arg: 'N', help: 'main API port (0: any free port)' },
  { flag: 'predict-port', key: 'predictPort', kind: 'number', def: '8081', arg: 'N', help: 'prediction service port (0: any free port)' },
  { flag: 'no-predict', key: 'predict', kind: 'bool', negated: true, def: undefined, help: 'run the main API only' },
  ...COMMON.slice(1, 3),
  { flag: 'api-key', key: 'apiKeys', kind: 'list', def: undefined, arg: 'KEY', env: 'SVC_API_KEYS', envAlso: ['SVC_API_KEY'], help: 'accepted API key (repeatable; env: comma-separated). None: one is generated into <data-dir>/api-key' },
  COMMON[3]!,
  { flag: 'max-upload', key: 'maxUpload', kind: 'bytes', def: '512MiB', arg: 'BYTES', help: 'largest file upload' },
  { flag: 'rate-limit-rps', key: 'rateLimitRps', kind: 'number', def: '50', arg: 'N', help: 'requests per second per API key (0: no limit)' },
  { flag: 'rate-limit-burst', key: 'rateLimitBurst', kind: 'number', def: '100', arg: 'N', help: 'requests a key may send at once' },
  ...COMMON.slice(4, 8),
  { flag: 'apply-model', key: 'applyModel', kind: 'string', def: undefined, arg: 'PATH', help: 'GGUF model svc-v3-large (and auto when it picks large) decodes with, the merge result as its speculative draft (default: none, the merge alone)' },
  ...COMMON.slice(8),
];

export const PREDICT_FLAGS: FlagSpec[] = [
  { flag: 'role', key: 'role', kind: 'string', def: 'standalone', arg: 'ROLE', help: SERVER_ROLES.join('|') },
  { flag: 'prefiller', key: 'prefillerUrl', kind: 'string', def: undefined, arg: 'URL', help: 'prefiller service address (role decoder)' },
  COMMON[0]!,
  { flag: 'port', key: 'predictPort', kind: 'number', def: '8081', arg: 'N', env: 'SVC_PREDICT_PORT', help: 'prediction service port (0: any free port)' },
  ...COMMON.slice(1),
];

const DEFAULTS: Record<ConfigKey, unknown> = {
  host: '127.0.0.1',
  port: 8080,
  predictPort: 8081,
  predict: true,
  main: true,
  dataDir: './data',
  models: [],
  apiKeys: [],
  maxBody: null,
  maxUpload: 512 * MiB,
  rateLimitRps: 50,
  rateLimitBurst: 100,
  logLevel: 'info',
  threads: ENGINE_DEFAULTS.threads,
  kvCacheMb: ENGINE_DEFAULTS.kvCacheMb,
  maxQueue: ENGINE_DEFAULTS.maxQueued,
  prefixCache: ENGINE_DEFAULTS.prefixCache,
  decodeStallMs: ENGINE_DEFAULTS.decodeStallMs,
  engineNice: ENGINE_DEFAULTS.engineNice,
  applyModel: null,
  predictApiKey: null,
  shutdownTimeoutS: 10,
  streamStallTimeoutS: 8,
  role: 'standalone',
  prefillerUrl: null,
};

function parseBool(text: string, where: string): boolean {
  const v = text.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on', ''].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${where}: expected true or false, got '${text}'`);
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function setValue(raw: Record<string, unknown>, spec: FlagSpec, text: string, where: string, fromArgv: boolean, seen: Set<string>): void {
  switch (spec.kind) {
    case 'bool': {
      const b = parseBool(text, where);
      raw[spec.key] = spec.negated ? !b : b;
      return;
    }
    case 'list': {
      const items = fromArgv ? [text] : splitList(text);
      // The first command-line occurrence replaces the environment's list; later ones append.
      raw[spec.key] = fromArgv && seen.has(spec.key) ? [...(raw[spec.key] as string[]), ...items] : items;
      if (fromArgv) seen.add(spec.key);
      return;
    }
    case 'number':
      // Plain decimal only: Number() would read '' and ' ' as 0 (a blank --rate-limit-rps turned
      // the limit off) and accept '0x10' or '1e3'.
      if (!/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text.trim())) throw new ConfigError(`${where}: expected a number, got '${text}'`);
      raw[spec.key] = text.trim();
      return;
    default:
      raw[spec.key] = text;
  }
}

/** Parses env + argv against a flag table into a validated Config. */
export function parseConfig(
  flags: readonly FlagSpec[],
  argv: readonly string[],
  env: Record<string, string | undefined>,
  overrides: Partial<Config> = {},
): Config {
  const raw: Record<string, unknown> = { ...DEFAULTS, ...overrides };
  const byFlag = new Map(flags.map((f) => [f.flag, f]));

  for (const f of flags) {
    const names = [envName(f), ...(f.envAlso ?? [])].filter((name) => env[name] !== undefined && env[name] !== '');
    if (names.length === 0) continue;
    // A list takes every variable that names it (SVC_API_KEYS and SVC_API_KEY together); a
    // scalar the first.
    const text = f.kind === 'list' ? names.map((name) => env[name]!).join(',') : env[names[0]!]!;
    setValue(raw, f, text, names.join(', '), false, new Set());
  }

  const seen = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const spec = byFlag.get(name);
    if (!spec) throw new ConfigError(`unknown flag --${name}`);
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (spec.kind === 'bool') value = 'true';
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new ConfigError(`--${name} needs a value (${spec.arg ?? 'VALUE'})`);
      value = next;
      i++;
    }
    setValue(raw, spec, value, `--${name}`, true, seen);
  }

  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const keyToFlag = new Map(flags.map((f) => [f.key as string, f]));
    const msgs = parsed.error.issues.map((iss) => {
      const key = String(iss.path[0] ?? '');
      const f = keyToFlag.get(key);
      const label = f ? `--${f.flag} (${envName(f)})` : key;
      return `${label}: ${iss.message}`;
    });
    throw new ConfigError(msgs.join('\n'));
  }
  const cfg = parsed.data;
  if (cfg.role === 'decoder' && !cfg.prefillerUrl) throw new ConfigError('--role decoder needs --prefiller URL');
  if (cfg.role !== 'decoder' && cfg.prefillerUrl) throw new ConfigError(`--prefiller is for --role decoder; this node's role is ${cfg.role}`);
  return cfg;
}

export function parseServeConfig(argv: readonly string[], env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(SERVE_FLAGS, argv, env);
}

export function parsePredictConfig(argv: readonly string[], env: Record<string, string | undefined> = process.env): Config {
  return parseConfig(PREDICT_FLAGS, argv, env, { main: false, predict: true });
}

/** The --help text: one line per flag with its default and environment variable. */
export function flagHelp(usage: string, flags: readonly FlagSpec[]): string {
  const lefts = flags.map((f) => `  --${f.flag}${f.arg ? ' ' + f.arg : ''}`);
  const width = Math.max(30, ...lefts.map((l) => l.length + 2));
  const rows = flags.map((f, i) => {
    const def = f.def !== undefined ? ` (default ${f.def})` : '';
    const envs = [envName(f), ...(f.envAlso ?? [])].join(', ');
    return `${lefts[i]!.padEnd(width)}${f.help}${def}\n${' '.repeat(width)}env ${envs}`;
  });
  return `${usage}\n\noptions (flags override environment variables):\n${rows.join('\n')}\n${'  --help'.padEnd(width)}this text`;
}
