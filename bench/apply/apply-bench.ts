// Apply model throughput: output tokens/s and p50/p99 latency for 100-, 1,000- and 5,000-line
// files, svc-v3-fast and svc-v3-large, measured three ways side by side in one run:
//   merge    mergeApply() alone, in-process (the algorithm)
//   task     runApplyTask() in-process: parse + merge + token counting with the served tokenizer
//            (what one worker thread does per request)
//   http     POST /v1/chat/completions on the real uWS server (chat route → apply handler →
//            piscina worker, one thread), non-streaming and streaming, client on the same process.
// fast and large alternate request by request so both see the same machine load.
// Output tokens = usage.completion_tokens (the built-in model's BPE). tokens/s = tokens / p50 latency.
//
//   node dist/bench/apply/apply-bench.js [--sizes 100,1000,5000] [--iters 200,60,20] [--out bench/results/apply.json]
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { makeDefinitionUpdate, makeFile, makeUpdate } from './synthetic-edit.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000,5000' },
    iters: { type: 'string', default: '200,60,20' },
    out: { type: 'string', default: 'bench/results/apply.json' },
    'no-http': { type: 'boolean', default: false },
    // hunks: three partial hunks (the syntax pass finds no whole definition, parses only the update);
    // definitions: three whole functions (the syntax pass parses the original and swaps them).
    update: { type: 'string', default: 'hunks' },
  },
});

// One worker thread for the HTTP rows: "one core" for the merge.
process.env.SVC_APPLY_THREADS ??= '1';

const { mergeApply } = await import('../../src/apply/merge.js');
const { runApplyTask } = await import('../../src/apply/run.js');
const { servedTokenizer } = await import('../../src/apply/tokens.js');
const { closeApplyPool, applyPool } = await import('../../src/apply/pool.js');
const { createHttpServer } = await import('../../src/http/server.js');
const { createLogger } = await import('../../src/log.js');
const { chatCompletionRoutes } = await import('../../src/api/chat-completions.js');
const { ensureAllGrammars } = await import('../../src/apply/syntax/grammars.js');
// The in-process rows use the grammars loaded here; the HTTP rows load them in the worker on first use.
await ensureAllGrammars();


function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

interface Row {
  lines: number;
  model: string;
  path: string;
  iters: number;
  completionTokens: number;
  p50Ms: number;
  p99Ms: number;
  tokensPerSec: number;
}


const sizes = args.sizes.split(',').map(Number);
const iters = args.iters.split(',').map(Number);
const tok = servedTokenizer();
const rows: Row[] = [];

let url = '';
let server: Awaited<ReturnType<typeof createHttpServer>> | null = null;
const KEY = 'sk-bench-apply';
if (!args['no-http']) {
  server = createHttpServer({
    name: 'apply-bench',
    routes: chatCompletionRoutes({ models: new Map() }),
    logger: createLogger({ level: 'error', sink: () => {} }),
    apiKeys: [KEY],
    maxBody: 64 * 1024 * 1024,
  });
  url = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`;
  // Start the worker (and its tokenizer) before timing.
  await applyPool().run({ content: '<code>a\n</code>\n<update>b\n</update>', mode: 'fast', maxTokens: null });
}

async function httpOnce(body: string, stream: boolean): Promise<void> {
  const res = await fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body,
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  if (stream) {
    const text = await res.text();
    if (!text.endsWith('data: [DONE]\n\n')) throw new Error('stream did not end with [DONE]');
  } else await res.json();
}

/** Times two alternatives round by round, so both see the same machine load; sorted samples of each. */
async function timePair(iters: number, a: () => unknown, b: () => unknown): Promise<[number[], number[]]> {
  for (let i = 0; i < Math.min(3, iters); i++) {
    await a();
    await b();
  }
  const ma: number[] = [];
  const mb: number[] = [];
  for (let i = 0; i < iters; i++) {
    for (const [fn, out] of [[a, ma], [b, mb]] as const) {
      const t0 = performance.now();
      await fn();
      out.push(performance.now() - t0);
    }
  }
  return [ma.sort((x, y) => x - y), mb.sort((x, y) => x - y)];
}

for (let s = 0; s < sizes.length; s++) {
  const n = sizes[s]!;
  const it = iters[s] ?? iters[iters.length - 1]!;
  const code = makeFile(n);
  const update = args.update === 'definitions' ? makeDefinitionUpdate(code) : makeUpdate(code);
  const content = `<instruction>I will time each handler.</instruction>\n<code>${code}</code>\n<update>${update}</update>`;
  const tokensOf: Record<string, number> = {};
  for (const mode of ['fast', 'large'] as const) {
    const merged = mergeApply({ instruction: null, code, update }, mode);
    if (merged.content.split('\n').length !== code.split('\n').length + 3) throw new Error(`${mode} ${n}: unexpected merge`);
    tokensOf[mode] = tok.encode(merged.content, { addSpecial: false }).length;
  }
  const add = (mode: 'fast' | 'large', path: string, ms: number[]): void => {
    const p50 = quantile(ms, 0.5);
    const completionTokens = tokensOf[mode]!;
    const model = mode === 'fast' ? 'svc-v3-fast' : 'svc-v3-large';
    rows.push({ lines: n, model, path, iters: ms.length, completionTokens, p50Ms: p50, p99Ms: quantile(ms, 0.99), tokensPerSec: (completionTokens / p50) * 1000 });
  };
  const pair = async (path: string, make: (mode: 'fast' | 'large') => () => unknown): Promise<void> => {
    const [f, l] = await timePair(it, make('fast'), make('large'));
    add('fast', path, f);
    add('large', path, l);
  };
  await pair('merge (in-process)', (mode) => () => mergeApply({ instruction: null, code, update }, mode));
  await pair('task (in-process)', (mode) => () => runApplyTask({ content, mode, maxTokens: null }));
  if (server) {
    const body = (mode: string, stream: boolean) =>
      JSON.stringify({ model: mode === 'fast' ? 'svc-v3-fast' : 'svc-v3-large', stream, messages: [{ role: 'user', content }] });
    await pair('http json', (mode) => {
      const b = body(mode, false);
      return () => httpOnce(b, false);
    });
    await pair('http sse', (mode) => {
      const b = body(mode, true);
      return () => httpOnce(b, true);
    });
  }
}
rows.sort((x, y) => x.lines - y.lines || x.model.localeCompare(y.model));

await server?.shutdown(2000);
await closeApplyPool();

const fmt = (x: number, d = 2) => x.toFixed(d);
console.log('| lines | model | path | completion tokens | p50 ms | p99 ms | tokens/s (p50) |');
console.log('|---:|---|---|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.lines} | ${r.model} | ${r.path} | ${r.completionTokens} | ${fmt(r.p50Ms)} | ${fmt(r.p99Ms)} | ${Math.round(r.tokensPerSec).toLocaleString('en-US')} |`);
}
const out = join(PACKAGE_ROOT, args.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify({ date: new Date().toISOString(), node: process.version, applyThreads: process.env.SVC_APPLY_THREADS, rows }, null, 2) + '\n');
console.log(`wrote ${args.out}`);
