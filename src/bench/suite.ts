// The benchmarks that run inside this project, from one entry: `svc bench engine` (in-process
// engine, optionally beside llama.cpp), `svc bench micro` (micro-benchmarks, by filter) and
// `svc bench suite` (the standard suite behind `npm run bench`). Each benchmark is its own
// script under dist/bench/, run as a child process so one cannot disturb the next.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readGgufHeader } from '../gguf/gguf-reader.js';
import type { ModelDtype, PresetName } from '../model-maker/index.js';
import { benchModel } from './models.js';
import { PACKAGE_ROOT } from '../paths.js';
import { markdownTable } from './report.js';
import type { ServeResult } from './serve-load.js';
import { benchServe } from '../cli/bench.js';
import { startSvc } from './svc-process.js';

interface MicroBench {
  name: string;
  summary: string;
  command: string[];
}

const dist = (p: string) => join(PACKAGE_ROOT, 'dist', p);

/** Micro-benchmarks (tinybench or native), each one command. */
const MICRO: MicroBench[] = [
  { name: 'kernels', summary: 'CPU matvec GB/s and prefill GFLOP/s per weight type', command: ['bash', join(PACKAGE_ROOT, 'bench/kernels/kernels-bench.sh')] },
  { name: 'grammar', summary: 'grammar mask time per token over the Qwen vocabulary', command: ['bash', join(PACKAGE_ROOT, 'bench/grammar/grammar-bench.sh')] },
  { name: 'tokenizer', summary: 'tokenizer encode/decode throughput', command: [process.execPath, dist('bench/tokenizer/tokenizer-bench.js')] },
  { name: 'chat-pipeline', summary: 'per-token chat pipeline (parse, OpenAI chunk, Anthropic delta)', command: [process.execPath, dist('bench/chat/pipeline-bench.js')] },
  { name: 'apply', summary: 'apply merge latency and tokens/s for 100/1,000/5,000-line files', command: [process.execPath, dist('bench/apply/apply-bench.js')] },
  { name: 'http', summary: 'GET /health: uWS stack vs node:http', command: [process.execPath, dist('bench/http/health-bench.js')] },
  { name: 'model-maker', summary: 'GGUF generation time per preset and type', command: [process.execPath, dist('bench/model-maker/make-bench.js')] },
];

function runChild(command: string[], opts: { capture?: boolean } = {}): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    const [cmd, ...args] = command as [string, ...string[]];
    const child = spawn(cmd, args, { cwd: PACKAGE_ROOT, stdio: ['ignore', opts.capture ? 'pipe' : 'inherit', 'inherit'] });
    let stdout = '';
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      process.stdout.write(d);
    });
    child.on('exit', (code) => resolve({ code: code ?? 1, stdout }));
  });
}

async function ensureLlamaCpp(): Promise<void> {
  const r = await runChild([process.execPath, join(PACKAGE_ROOT, 'tools/llamacpp/ensure.mjs')], { capture: true });
  if (r.code !== 0) throw new Error('installing node-llama-cpp failed (tools/llamacpp/ensure.mjs)');
}

interface EngineArgs {
  model: string;
  threads: number;
  reps: number;
  peer: boolean;
  concurrency: string;
  json?: string;
}

async function runEngineBench(a: EngineArgs): Promise<Record<string, unknown> | null> {
  if (a.peer) await ensureLlamaCpp();
  const json = a.json ?? join(tmpdir(), `svc-engine-bench-${process.pid}.json`);
  const args = [dist('bench/engine/engine-bench.js'), '--model', a.model, '--threads', String(a.threads), '--reps', String(a.reps), '--concurrency', a.concurrency, '--json', json];
  if (a.peer) args.push('--peer');
  const r = await runChild([process.execPath, ...args]);
  if (r.code !== 0 || !existsSync(json)) return null;
  return JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown>;
}

export const EXTRA_BENCH_USAGE: Record<'engine' | 'micro' | 'suite', string> = {
  engine: 'usage: svc bench engine --model PATH [--peer llamacpp] [--threads N] [--reps N] [--concurrency 1,4,16,64] [--out FILE]',
  micro: 'usage: svc bench micro [--filter NAME] [--list]',
  suite: 'usage: svc bench suite [--quick] [--no-peer] [--serve-only] [--out FILE]',
};

/** A whole number from 1 to max for a flag, or an Error naming it. */
function countFlag(flag: string, text: string, max: number): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!(n >= 1 && n <= max)) throw new Error(`--${flag} must be a whole number from 1 to ${max}, got '${text}'`);
  return n;
}

function engineCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { model: { type: 'string' }, peer: { type: 'string' }, threads: { type: 'string', default: '2' }, reps: { type: 'string', default: '3' }, concurrency: { type: 'string', default: '1,4,16,64' }, out: { type: 'string' } },
  });
  if (!values.model) {
    console.error(EXTRA_BENCH_USAGE.engine);
    return Promise.resolve(2);
  }
  if (values.peer !== undefined && values.peer !== 'llamacpp') {
    console.error(`svc bench engine: unknown --peer '${values.peer}' (supported: llamacpp)`);
    return Promise.resolve(2);
  }
  let args: EngineArgs;
  try {
    // Everything the run needs is checked before it starts: a bad model used to end in the
    // child's stack trace, a bad number in NaN results, a missing --out folder after the run.
    readGgufHeader(values.model);
    const concurrency = (values.concurrency as string).split(',').map((c) => countFlag('concurrency', c, 1024));
    args = {
      model: values.model,
      threads: countFlag('threads', values.threads as string, 256),
      reps: countFlag('reps', values.reps as string, 1000),
      peer: values.peer === 'llamacpp',
      concurrency: concurrency.join(','),
      ...(values.out ? { json: values.out } : {}),
    };
    if (values.out) mkdirSync(dirname(resolve(values.out)), { recursive: true });
  } catch (e) {
    console.error(`svc bench engine: ${(e as Error).message}`);
    return Promise.resolve(2);
  }
  return runEngineBench(args).then((r) => (r ? 0 : 1));
}

async function microCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { filter: { type: 'string' }, list: { type: 'boolean' } } });
  const chosen = MICRO.filter((m) => !values.filter || m.name.includes(values.filter));
  const list = MICRO.map((m) => `${m.name.padEnd(15)}${m.summary}`).join('\n');
  if (chosen.length === 0) {
    console.error(`svc bench micro: no micro-benchmark matches '${values.filter}'; there are:\n${list}`);
    return 2;
  }
  if (values.list) {
    console.log(list);
    return 0;
  }
  let failed = 0;
  for (const m of chosen) {
    console.log(`\n## ${m.name}: ${m.summary}`);
    if ((await runChild(m.command)).code !== 0) failed++;
  }
  return failed ? 1 : 0;
}

function engineRow(label: string, r: Record<string, unknown> | null): string {
  if (!r) return `| ${label} | failed | | | | | |`;
  const peer = r.llamacpp as { prefillTokS: number; decodeTokS: number } | undefined;
  const f = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(1) : '—');
  const ratio = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' && b > 0 ? `${(a / b).toFixed(2)}×` : '—');
  return `| ${label} | ${f(r.prefillTokS)} | ${f(peer?.prefillTokS)} | ${ratio(r.prefillTokS, peer?.prefillTokS)} | ${f(r.decodeTokS)} | ${f(peer?.decodeTokS)} | ${ratio(r.decodeTokS, peer?.decodeTokS)} |`;
}

/** Real shapes of the families besides qwen2 (random weights; speed depends only on the shapes). */
const FAMILY_ROWS: Array<[string, PresetName, ModelDtype]> = [
  ['Qwen3-0.6B q8_0', 'qwen3-0.6b', 'q8_0'],
  ['Qwen3-0.6B q4_k_m', 'qwen3-0.6b', 'q4_k_m'],
  ['Gemma-3-1B q8_0', 'gemma3-1b', 'q8_0'],
  ['Gemma-3-1B q4_k_m', 'gemma3-1b', 'q4_k_m'],
  ['Phi-3-mini q4_k_m', 'phi3-mini', 'q4_k_m'],
];

/** `npm run bench`: engine vs llama.cpp on the built-in and 0.5B-shaped models, then the
 *  serving benchmark against our own server on the built-in model. */
async function suiteCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { quick: { type: 'boolean' }, 'no-peer': { type: 'boolean' }, 'serve-only': { type: 'boolean' }, families: { type: 'boolean' }, out: { type: 'string', default: join(PACKAGE_ROOT, 'bench/results/latest.json') } } });
  const reps = values.quick ? 1 : 3;
  const peer = !values['no-peer'];
  const startedAt = new Date().toISOString();
  let engine: Record<string, Record<string, unknown> | null> = {};
  // --serve-only re-runs the serving half and keeps the engine half of the previous result.
  if (values['serve-only'] && existsSync(values.out as string)) engine = (JSON.parse(readFileSync(values.out as string, 'utf8')) as { engine: typeof engine }).engine;
  // --families: only the rows of the other model families' real shapes (their own table).
  const models: Array<[string, PresetName, ModelDtype]> = values.quick
    ? [['builtin q8_0', 'builtin', 'q8_0']]
    : values.families
      ? FAMILY_ROWS
      : [['builtin q8_0', 'builtin', 'q8_0'], ['0.5B q8_0', 'small', 'q8_0'], ['0.5B f16', 'small', 'f16'], ...FAMILY_ROWS];
  for (const [label, preset, dtype] of values['serve-only'] ? [] : models) {
    console.log(`\n## engine: ${label}`);
    engine[label] = await runEngineBench({ model: await benchModel(preset, dtype), threads: 2, reps, peer, concurrency: '1,4,16,64' });
  }

  console.log('\n## serve: our server on the built-in model');
  const serve: ServeResult[] = [];
  // Access logs stay on (info): the server is measured as it runs in production.
  const server = await startSvc(['serve', '--no-predict', '--port', '0', '--data-dir', join(tmpdir(), `svc-bench-suite-${process.pid}`), '--api-key', 'bench-key-0123456789', '--rate-limit-rps', '0']);
  try {
    const base = ['--base-url', server.mainUrl as string, '--api-key', 'bench-key-0123456789'];
    const n = values.quick ? 8 : 32;
    // Every run gets its own seed: a run must not replay an earlier run's prompts from the cache.
    let seed = 100;
    const run = (extra: string[]) => benchServe([...base, ...extra, '--seed', String(seed++)]);
    for (const c of [1, 4, 16]) serve.push(await run(['--model', 'builtin', '--dataset', 'synthetic:128:64', '--concurrency', String(c), '--requests', String(Math.max(n, c * 2)), '--label', 'svc builtin']));
    serve.push(await run(['--model', 'builtin', '--dataset', 'shared-prefix:4:8:512:32:32', '--concurrency', '4', '--requests', String(n), '--label', 'svc shared-prefix']));
    serve.push(await run(['--model', 'svc-v3-fast', '--dataset', 'apply:1000', '--concurrency', '4', '--requests', String(n), '--label', 'svc apply 1000 lines']));
  } finally {
    await server.stop('SIGTERM');
  }

  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version };
  const result = { tool: 'svc-bench', kind: 'suite', startedAt, finishedAt: new Date().toISOString(), command: `npm run bench${argv.length ? ' -- ' + argv.join(' ') : ''}`, machine, engine, runs: serve };
  mkdirSync(join(PACKAGE_ROOT, 'bench/results'), { recursive: true });
  writeFileSync(values.out as string, JSON.stringify(result, null, 2) + '\n');
  const md = [
    `Machine: ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}; ${startedAt}; \`${result.command}\`.`,
    '',
    'Engine, 2 threads, medians (prefill: one 512-token prompt; decode: 128 tokens after 21):',
    '',
    '| model | prefill tok/s | llama.cpp | ratio | decode tok/s | llama.cpp | ratio |',
    '|---|---|---|---|---|---|---|',
    ...Object.entries(engine).map(([label, r]) => engineRow(label, r)),
    '',
    'Serving (streaming over HTTP, `svc bench serve`):',
    '',
    markdownTable(serve),
  ].join('\n');
  writeFileSync((values.out as string).replace(/\.json$/, '.md'), md + '\n');
  console.log('\n' + md);
  return Object.values(engine).some((r) => r === null) ? 1 : 0;
}

export async function runExtraBench(sub: string, argv: string[]): Promise<number> {
  switch (sub) {
    case 'engine':
      return engineCommand(argv);
    case 'micro':
      return microCommand(argv);
    case 'suite':
      return suiteCommand(argv);
    default:
      return 2;
  }
}
