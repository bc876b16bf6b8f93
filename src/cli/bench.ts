// `svc bench …`: the serving benchmark (any OpenAI-compatible server), run comparison with an
// SVG chart, and the project's own micro-benchmarks and standard suite.
import { writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { asksHelp, isHelp, usageAnswer, type Command } from '../cli.js';
import { loadDataset, parseDatasetSpec } from '../bench/datasets.js';
import { markdownTable, svgChart } from '../bench/report.js';
import { machineInfo, runServeLoad, summarizeSamples, type LoadShape, type ServeResult } from '../bench/serve-load.js';

const SERVE_HELP = `usage: svc bench serve --base-url URL [options]

Drives an OpenAI-compatible /v1/chat/completions endpoint with streaming requests.
  --base-url URL        server address (with or without /v1)            env SVC_BENCH_BASE_URL
  --api-key KEY         bearer key                                      env SVC_BENCH_API_KEY
  --model NAME          model field of every request (default: first of /v1/models;
                        with --dataset apply, the first apply model listed)
  --dataset SPEC        synthetic[:IN:OUT] | shared-prefix[:N:M:PREFIX:SUFFIX:OUT] |
                        jsonl:PATH | apply[:LINES]                     (default synthetic:128:64)
  --concurrency N       closed loop with N clients (default 1)
  --rate R              open loop, Poisson arrivals at R requests/s (instead of --concurrency)
  --max-in-flight N     client-side cap in rate mode (default 1024)
  --requests N          requests to send (default 32)
  --duration S          stop issuing requests after S seconds
  --warmup N            uncounted warm-up requests (default 2)
  --timeout-ms MS       per-request timeout (default 120000)
  --seed N              dataset and arrival seed (default 1)
  --max-failed N        failed requests tolerated before the exit status is 3 (default 0;
                        the results are reported and written either way)
  --label TEXT          name of this run in reports (default: the base URL)
  --out FILE            write the JSON result here
  --markdown FILE       write the markdown summary here (also printed)`;

const ServeArgs = z.object({
  baseUrl: z.string().url(),
  apiKey: z.string().optional(),
  model: z.string().optional(),
  dataset: z.string().default('synthetic:128:64'),
  concurrency: z.coerce.number().int().min(1).max(4096).default(1),
  rate: z.coerce.number().positive().optional(),
  maxInFlight: z.coerce.number().int().min(1).default(1024),
  requests: z.coerce.number().int().min(1).max(1_000_000).default(32),
  duration: z.coerce.number().positive().optional(),
  warmup: z.coerce.number().int().min(0).default(2),
  timeoutMs: z.coerce.number().int().min(1).default(120_000),
  seed: z.coerce.number().int().default(1),
  maxFailed: z.coerce.number().int().min(0).default(0),
  label: z.string().optional(),
  out: z.string().optional(),
  markdown: z.string().optional(),
});

function parseFlags(argv: string[], names: string[]): Record<string, string | undefined> {
  const options = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
  const { values } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } }, allowPositionals: true, strict: true });
  return values as Record<string, string | undefined>;
}

function camel(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

function writeOut(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** The first model the server lists; of `kind` when the server says what each model is (ours do),
 *  so that an apply dataset goes to an apply model, not to a chat model that would write until its
 *  context is full. */
async function firstModel(baseUrl: string, apiKey?: string, kind?: string): Promise<string> {
  const url = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '') + '/v1/models';
  const res = await fetch(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {} }).catch((e: unknown) => {
    // fetch says only "fetch failed"; the reason (ECONNREFUSED, ENOTFOUND, …) is its cause.
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    throw new Error(`cannot reach ${url}: ${cause ?? (e as Error).message}`);
  });
  if (res.status === 401 || res.status === 403) throw new Error(`GET ${url}: HTTP ${res.status}: the server refused the key (--api-key / SVC_BENCH_API_KEY)`);
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}; pass --model`);
  const json = (await res.json()) as { data?: Array<{ id: string; kind?: string }> };
  const id = (json.data?.find((m) => m.kind === kind) ?? json.data?.[0])?.id;
  if (!id) throw new Error(`GET ${url} listed no models; pass --model`);
  return id;
}

function progressBar(label: string): (done: number, total: number) => void {
  if (!process.stderr.isTTY) return () => {};
  return (done, total) => {
    const width = 30;
    const filled = Math.round((width * done) / total);
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}${done === total ? '\n' : ''}`);
  };
}

export async function benchServe(argv: string[], stop?: AbortSignal): Promise<ServeResult> {
  const flags = ['base-url', 'api-key', 'model', 'dataset', 'concurrency', 'rate', 'max-in-flight', 'requests', 'duration', 'warmup', 'timeout-ms', 'seed', 'max-failed', 'label', 'out', 'markdown'];
  const raw = parseFlags(argv, flags);
  const fromEnv = { baseUrl: process.env.SVC_BENCH_BASE_URL, apiKey: process.env.SVC_BENCH_API_KEY };
  const merged: Record<string, unknown> = { ...fromEnv };
  for (const f of flags) if (raw[f] !== undefined) merged[camel(f)] = raw[f];
  const args = ServeArgs.parse(merged);
  // Rate mode has no fixed client count: a --concurrency beside it would be silently ignored.
  if (args.rate !== undefined && raw['concurrency'] !== undefined) throw new Error('--rate (open loop) and --concurrency (closed loop) exclude each other; for a cap in rate mode use --max-in-flight');
  const spec = parseDatasetSpec(args.dataset);
  const model = args.model ?? (await firstModel(args.baseUrl, args.apiKey, spec.kind === 'apply' ? 'apply' : 'chat'));
  const load: LoadShape = args.rate !== undefined ? { kind: 'rate', ratePerSecond: args.rate, maxInFlight: args.maxInFlight } : { kind: 'concurrency', concurrency: args.concurrency };
  const requests = loadDataset(spec, model, args.requests, args.seed);
  const warmup = loadDataset(spec, model, args.warmup, args.seed + 1_000_003); // never a later run's seed
  const startedAt = new Date().toISOString();
  const { samples, wallS } = await runServeLoad({
    client: { baseUrl: args.baseUrl, apiKey: args.apiKey, timeoutMs: args.timeoutMs },
    requests,
    warmup,
    load,
    durationS: args.duration,
    seed: args.seed,
    ...(stop ? { stop } : {}),
    onProgress: progressBar(args.label ?? 'bench'),
  });
  const result: ServeResult = {
    tool: 'svc-bench',
    kind: 'serve',
    label: args.label ?? args.baseUrl,
    baseUrl: args.baseUrl,
    model,
    dataset: args.dataset,
    load,
    maxFailed: args.maxFailed,
    startedAt,
    machine: machineInfo(),
    ...summarizeSamples(samples, wallS),
  };
  if (args.out) writeOut(args.out, JSON.stringify(result, null, 2) + '\n');
  const md = markdownTable([result]);
  if (args.markdown) writeOut(args.markdown, md + '\n');
  console.log(md);
  return result;
}

const REPORT_USAGE = 'usage: svc bench report a.json [b.json …] [--svg chart.svg] [--markdown table.md]';

function benchReport(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, options: { svg: { type: 'string' }, markdown: { type: 'string' } }, allowPositionals: true });
  if (positionals.length === 0) {
    console.error(REPORT_USAGE);
    return 2;
  }
  const results = positionals.flatMap((p) => {
    const json = JSON.parse(readFileSync(p, 'utf8')) as ServeResult | ServeResult[] | { runs?: ServeResult[] };
    const list = Array.isArray(json) ? json : 'runs' in json && json.runs ? json.runs : [json as ServeResult];
    return list.filter((r) => r.kind === 'serve');
  });
  if (results.length === 0) {
    console.error('svc bench report: no serve results in the given files');
    return 1;
  }
  const md = markdownTable(results);
  console.log(md);
  if (values.markdown) writeOut(values.markdown, md + '\n');
  const svgPath = values.svg ?? 'bench/results/report.svg';
  writeOut(svgPath, svgChart(results));
  console.error(`chart: ${svgPath}`);
  return 0;
}

const USAGE = `usage: svc bench <serve|report|engine|micro|suite> [options]
  serve    load-test any OpenAI-compatible server (svc bench serve --help)
  report   compare result files in a table and an SVG chart
  engine   in-process prefill/decode tokens/s, optionally beside llama.cpp (--peer llamacpp)
  micro    the project's micro-benchmarks (--filter NAME)
  suite    the standard suite (npm run bench): writes bench/results/latest.json`;

export const command: Command = {
  summary: 'benchmarks: serve (any OpenAI-compatible server), report, engine, micro, suite',
  async run(argv) {
    const [sub, ...rest] = argv;
    try {
      if (sub !== undefined && !isHelp(sub) && asksHelp(rest)) {
        const { EXTRA_BENCH_USAGE } = await import('../bench/suite.js');
        const help = sub === 'serve' ? SERVE_HELP : sub === 'report' ? REPORT_USAGE : EXTRA_BENCH_USAGE[sub as keyof typeof EXTRA_BENCH_USAGE];
        console.log(help ?? USAGE);
        return help ? 0 : 2;
      }
      switch (sub) {
        case 'serve': {
          // Ctrl-C stops issuing requests and reports what finished (written to --out too);
          // a second one quits at once.
          const stop = new AbortController();
          const onSigint = (): void => {
            if (stop.signal.aborted) process.exit(130);
            stop.abort();
            console.error('svc bench serve: interrupted; finishing the requests in flight (Ctrl-C again to quit)');
          };
          process.on('SIGINT', onSigint);
          let r: ServeResult;
          try {
            r = await benchServe(rest, stop.signal);
          } finally {
            process.off('SIGINT', onSigint);
          }
          if (stop.signal.aborted) return 130;
          // A run in which no request succeeded measured nothing; one with failures measured a
          // server that did not serve them all: the exit status says so (1, 3) for scripts.
          if (r.requests.completed === 0) {
            console.error(`svc bench serve: all ${r.requests.sent} requests failed`);
            return 1;
          }
          if (r.requests.failed > (r.maxFailed ?? 0)) {
            console.error(`svc bench serve: ${r.requests.failed} of ${r.requests.sent} requests failed (more than --max-failed ${r.maxFailed ?? 0})`);
            return 3;
          }
          return 0;
        }
        case 'report':
          return benchReport(rest);
        case 'engine':
        case 'micro':
        case 'suite': {
          const { runExtraBench } = await import('../bench/suite.js');
          return await runExtraBench(sub, rest);
        }
        default:
          return usageAnswer('svc bench', USAGE, sub);
      }
    } catch (err) {
      const flag = (path: PropertyKey[]): string => path.join('.').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      const msg = err instanceof z.ZodError ? err.issues.map((i) => `--${flag(i.path)}: ${i.message}`).join('\n') : (err as Error).message;
      console.error(`svc bench ${sub}: ${msg}`);
      return 2;
    }
  },
};
