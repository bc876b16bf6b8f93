// What the HTTP chat path adds on top of the engine: time to first token, inter-token latency and
// tokens/s for C concurrent streams of the built-in model, streamed through /v1/chat/completions
// (real uWS server, client on its own thread) versus LoadedModel.generate() called in-process with
// the same prompt tokens. The HTTP client is a lean one (sse-socket-client.ts: keep-alive sockets,
// HTTP/1.1 and SSE parsed off the socket) so that the figures are what the server adds; the same
// streams through fetch (undici, what most Node clients use) are reported as a secondary column,
// and that difference is client cost. Both paths ban EOS so every stream yields exactly --tokens
// tokens, and all paths alternate (in rotating order) so that load and cache state are shared
// fairly; medians are quoted.
// With --baseline DIR (the dist/ of another build of this repository, e.g. the commit before a
// change, compiled with tsc), that build's HTTP server and chat route serve the same model on a
// second port and run in the same rounds: a before/after comparison under the same load.
// Server-side columns: handler entry → engine generate() call ("prep": body, zod, chat template,
// tokenizer, and any wait before submitting), the spread of one burst's submits, and the main
// thread's CPU time per streamed token (/proc schedstat of the main thread over each path's runs ÷
// tokens: prep, token callbacks and socket writes; the in-process path's figure is the engine's
// callbacks alone). "engine ms/token" is the mean time between one stream's tokens at the engine's
// callback (server side): its change is how much the HTTP path slowed the engine itself, apart from
// when the client got to read (the client shares the machine's cores too).
// The HTTP TTFT is also split per stream (matched by x-request-id): client send → engine submit
// (what the server does before the engine sees the request), submit → first token at the engine's
// callback (compare with TTFT direct: at 64 streams it differs because the requests reach the
// engine spread over the burst, and late ones wait for a step already running), and first token →
// client read (the token's way out).
//
// --threads and --engine-nice take lists: each combination loads its own engine (a copy of the model
// file), and all of them alternate in the same rounds; rows are labelled "t<threads> n<nice>".
//
// --loop-slice and --submit-hold take lists too (0,100 and 0,1,2): the event loop's scheduler slice in
// µs (0 = the kernel's default; src/engine/loop-slice.ts) and the engine's submit hold (0 off, 1 per
// event-loop turn, 2 per turn or, for an idle engine, across turns while submits keep coming; see
// holdSubmitsForTurn in src/engine/native-model.ts; --gather-ms sets its bound, default 10), set before each of the combination's paths
// runs, so that the settings alternate in one process; rows are labelled "s<slice> h<hold>" as well.
//
// --model FILE serves that GGUF instead of the built-in model (whose tokens take well under a
// millisecond, so any per-token cost shows at its largest there).
//
//   node dist/bench/chat/server-overhead.js [--concurrency 1,64] [--tokens 32] [--rounds 5] [--reps 10]
//     [--threads 2[,1]] [--engine-nice 0[,10,19]] [--loop-slice 0,100] [--submit-hold 0,1,2] [--model FILE] [--no-fetch] [--baseline /path/to/other/dist[,...]] [--json out.json]
import { copyFileSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { loadModel, type EngineModel } from '../../src/engine/index.js';
import { ensureBuiltinModel } from '../../src/model-maker/index.js';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { chatCompletionRoutes } from '../../src/api/chat-completions.js';
import type { Route } from '../../src/http/types.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import type { ClientJob } from './http-client-worker.js';
import { benchChat, mainThreadCpuMs, runClientJob } from './bench-run.js';
import { median } from '../../src/bench/stats.js';
import { GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import { ENGINE_DEFAULTS } from '../../src/config.js';
import { gatherEndCounts, MAX_GATHER_MS, setSubmitHold } from '../../src/engine/native-model.js';
import { DEFAULT_LOOP_SLICE_US } from '../../src/engine/loop-slice.js';
import { native } from '../../src/native/binding.js';
import { intakeCount } from '../../src/intake.js';
import { readFileSync } from 'node:fs';

interface StreamTiming {
  ttftMs: number;
  itlMs: number[];
  tokens: number;
}

interface RunStats {
  ttft: number[];
  itl: number[];
  tokensPerSec: number;
  tokens: number;
}

/** Adds a stream's mean time between tokens where the engine hands them over (first to last;
 *  streams of one token add nothing). Taken at the engine's callback, it is what the engine's speed
 *  became, whenever and however fast the client reads. */
function recordEngineMs(into: number[], times: readonly number[]): void {
  if (times.length > 1) into.push((times[times.length - 1]! - times[0]!) / (times.length - 1));
}

const KEY = 'sk-bench-chat';

/** How many groups one burst's engine submits came in (a gap over 1 ms starts a new one): 1 when
 *  the whole burst reached the engine in one go. */
function submitGroups(at: readonly number[], gapMs = 1): number {
  const t = [...at].sort((a, b) => a - b);
  return t.reduce((n, x, i) => (i > 0 && x - t[i - 1]! > gapMs ? n + 1 : n), t.length ? 1 : 0);
}

/** How many of one burst's submits came in its first group (gaps as submitGroups). */
function firstGroupSize(at: readonly number[], gapMs = 1): number {
  const t = [...at].sort((a, b) => a - b);
  let n = t.length ? 1 : 0;
  while (n < t.length && t[n]! - t[n - 1]! <= gapMs) n++;
  return n;
}

function stats(streams: StreamTiming[], wallMs: number): RunStats {
  const tokens = streams.reduce((a, s) => a + s.tokens, 0);
  return { ttft: streams.map((s) => s.ttftMs), itl: streams.flatMap((s) => s.itlMs), tokensPerSec: (tokens / wallMs) * 1000, tokens };
}

async function inProcess(
  model: EngineModel,
  prompt: Uint32Array,
  c: number,
  tokens: number,
  logitBias: Record<number, number>,
  engineMs: number[] = [],
): Promise<RunStats> {
  const t0 = performance.now();
  const streams = await Promise.all(
    Array.from({ length: c }, async () => {
      const start = performance.now();
      const times: number[] = [];
      await model.generate(
        {
          prompt,
          maxTokens: tokens,
          sampling: { ...GREEDY_SAMPLING, logitBias },
          priority: 'interactive',
        },
        () => times.push(performance.now()),
      );
      recordEngineMs(engineMs, times);
      return { ttftMs: times[0]! - start, itlMs: times.slice(1).map((t, i) => t - times[i]!), tokens: times.length };
    }),
  );
  return stats(streams, performance.now() - t0);
}

/** Where each HTTP stream's time to first token went (ms, per stream): client send → engine
 *  submit, submit → first token at the engine's callback, that callback → client read. */
interface TtftSplit {
  toSubmit: number[];
  engine: number[];
  toClient: number[];
  /** Per burst: the client's own send spread (first to last request written), ms. */
  sendSpread: number[];
  /** Per stream: client send → the route's handler entered (the request's way in: the client's
   *  socket write, the kernel, the loop reaching that socket, uWS parsing the head). */
  toHandler: number[];
  /** Per burst: the spread of handler entries, ms, and how many groups they came in (1 ms gaps). */
  handlerSpread: number[];
  handlerGroups: number[];
  /** Per stream: TTFT counted from the request's arrival at the server (handler entry) instead of
   *  the client's send: what the server adds, whatever the client's own sending spread. */
  ttftFromArrival: number[];
  /** Per burst, with --timeline: each stream's send, handler entry, submit, first token and body
   *  read, ms after the burst's first send. */
  timelines: Array<Array<[number, number, number, number, number]>>;
}

async function overHttp(worker: Worker, job: ClientJob, server?: TimedServer, split?: TtftSplit): Promise<RunStats> {
  const m = await runClientJob(worker, job);
  if (split) {
    const sent = m.samples.flatMap((s) => (s.sentAt === undefined ? [] : [s.sentAt]));
    if (sent.length) split.sendSpread.push(Math.max(...sent) - Math.min(...sent));
  }
  if (server && split) {
    const entries: number[] = [];
    const timeline: Array<[number, number, number, number, number]> = [];
    const t0 = Math.min(...m.samples.map((s) => s.sentAt ?? Infinity));
    for (const s of m.samples) {
      const mark = s.requestId === undefined ? undefined : server.marks.get(s.requestId);
      if (!mark || s.sentAt === undefined || s.ttftMs === undefined || mark.submit === undefined || mark.firstToken === undefined) continue;
      split.toSubmit.push(mark.submit - s.sentAt);
      split.engine.push(mark.firstToken - mark.submit);
      split.toClient.push(s.sentAt + s.ttftMs - mark.firstToken);
      split.toHandler.push(mark.entry - s.sentAt);
      split.ttftFromArrival.push(s.sentAt + s.ttftMs - mark.entry);
      entries.push(mark.entry);
      timeline.push([s.sentAt - t0, mark.entry - t0, mark.submit - t0, mark.firstToken - t0, (mark.body ?? NaN) - t0]);
    }
    if (entries.length) {
      split.handlerSpread.push(Math.max(...entries) - Math.min(...entries));
      split.handlerGroups.push(submitGroups(entries));
    }
    split.timelines.push(timeline.sort((a, b) => a[1] - b[1]));
  }
  const streams = m.samples.map((s) => ({
    ttftMs: s.ttftMs ?? NaN,
    itlMs: s.chunkTimesMs.slice(1).map((t, i) => t - s.chunkTimesMs[i]!),
    tokens: s.outputTokens,
  }));
  return stats(streams, m.wallMs);
}

interface Mark {
  entry: number;
  body?: number;
  submit?: number;
  firstToken?: number;
}

interface ServerModules {
  createHttpServer: typeof createHttpServer;
  chatCompletionRoutes: typeof chatCompletionRoutes;
}

/** One HTTP server over the shared model, with the marks its columns need. */
class TimedServer {
  /** Handler entry times not yet matched with an engine call (requests are FIFO per tick). */
  private readonly entries: number[] = [];
  readonly prepMs: number[] = [];
  /** recordEngineMs of each stream this server ran. */
  readonly engineMs: number[] = [];
  /** When each request reached the engine: the spread of one burst shows how many streams missed
   *  the first engine step (the in-process path submits all of them in one tick). */
  readonly submitAt: number[] = [];
  /** How this server's runs' gathering holds ended (gatherEndCounts before and after each run). */
  readonly gatherEnds = { quiet: 0, bound: 0 };
  /** Handler entry, engine submit and first-token times (timeOrigin-based) by request id, for
   *  TtftSplit. */
  readonly marks = new Map<string, Mark>();
  /** The request id behind each handler's abort signal (the route passes it to generate()). */
  private readonly idOfSignal = new WeakMap<AbortSignal, string>();
  server!: HttpServer;
  port = 0;

  constructor(
    readonly label: string,
    private readonly mods: ServerModules,
    private readonly model: EngineModel,
  ) {}

  async start(): Promise<void> {
    const timed = Object.create(this.model) as EngineModel;
    timed.generate = (req, onToken) => {
      const entry = this.entries.shift();
      if (entry !== undefined) this.prepMs.push(performance.now() - entry);
      this.submitAt.push(performance.now());
      const id = req.signal ? this.idOfSignal.get(req.signal) : undefined;
      const mark = id === undefined ? undefined : this.marks.get(id);
      if (mark) mark.submit = performance.timeOrigin + performance.now();
      const times: number[] = [];
      return this.model
        .generate(req, (ev) => {
          times.push(performance.now());
          if (mark && mark.firstToken === undefined) mark.firstToken = performance.timeOrigin + times[0]!;
          onToken(ev);
        })
        .then((r) => {
          recordEngineMs(this.engineMs, times);
          return r;
        });
    };
    const routes: Route[] = this.mods.chatCompletionRoutes({ models: new Map([['builtin', timed]]) }).map((r) => ({
      ...r,
      handler: (ctx: Parameters<typeof r.handler>[0]) => {
        this.entries.push(performance.now());
        const mark: Mark = { entry: performance.timeOrigin + performance.now() };
        this.marks.set(ctx.requestId, mark);
        // When the route has the body (the chat route reads it first): handler → body is the
        // body's wait, body → submit the route's own work plus its wait for the end of the I/O batch.
        const readJson = ctx.readJson.bind(ctx);
        (ctx as { readJson: () => Promise<unknown> }).readJson = () =>
          readJson().then((v) => {
            mark.body = performance.timeOrigin + performance.now();
            return v;
          });
        this.idOfSignal.set(ctx.signal, ctx.requestId); // the route reads ctx.signal too
        return r.handler(ctx);
      },
    }));
    this.server = this.mods.createHttpServer({
      name: 'bench',
      routes,
      logger: createLogger({ level: 'error', sink: () => {} }),
      apiKeys: [KEY],
      maxBody: 1 << 20,
    });
    this.port = await this.server.listen('127.0.0.1', 0);
    console.error(`${this.label}: port ${this.port}`);
  }
}

/** One engine configuration under test: its own model (a copy of the file, so that the registry
 *  gives it its own engine), HTTP servers and in-process path. */
interface Variant {
  label: string;
  model: EngineModel;
  servers: TimedServer[];
  /** Sets this combination's loop slice and submit hold before one of its paths runs. */
  apply: () => void;
}

/** The main thread's scheduler slice in µs (/proc; NaN where the kernel shows none). */
function ownSliceUs(): number {
  try {
    const m = /^se\.slice\s*:\s*(\d+)/m.exec(readFileSync(`/proc/self/task/${process.pid}/sched`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1000) : NaN;
  } catch {
    return NaN;
  }
}

/** A markdown table: the header, its separator row (one cell per column) and the rows. */
function printTable(header: string[], rows: unknown[][]): void {
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---|').join('')}`);
  for (const cols of rows) console.log(`| ${cols.join(' | ')} |`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      concurrency: { type: 'string', default: '1,64' },
      tokens: { type: 'string', default: '32' },
      rounds: { type: 'string', default: '5' },
      reps: { type: 'string', default: '10' },
      threads: { type: 'string', default: '2' },
      'engine-nice': { type: 'string', default: String(ENGINE_DEFAULTS.engineNice) },
      model: { type: 'string' },
      json: { type: 'string' },
      'no-fetch': { type: 'boolean', default: false },
      baseline: { type: 'string' },
      'decode-stall-ms': { type: 'string' },
      'loop-slice': { type: 'string', default: String(DEFAULT_LOOP_SLICE_US) },
      'submit-hold': { type: 'string', default: '2' },
      timeline: { type: 'string' },
      'gather-ms': { type: 'string', default: String(MAX_GATHER_MS) },
    },
  });
  const kernelSliceUs = ownSliceUs(); // before the first loadModel shortens it
  const levels = values.concurrency.split(',').map(Number);
  const tokens = Number(values.tokens);
  const rounds = Number(values.rounds);
  const reps = Number(values.reps);
  const withFetch = !values['no-fetch'];
  // --threads and --engine-nice take lists: every combination is an engine of its own, and all of
  // them run in the same rounds (alternating), so that they see the same machine load.
  const threadList = values.threads.split(',').map(Number);
  const niceList = values['engine-nice'].split(',').map(Number);
  const sliceList = values['loop-slice'].split(',').map(Number);
  const holdList = values['submit-hold'].split(',').map(Number);
  const gatherMs = Number(values['gather-ms']);
  const combos = threadList.flatMap((threads) =>
    niceList.flatMap((nice) => sliceList.flatMap((slice) => holdList.map((hold) => ({ threads, nice, slice, hold })))),
  );
  const many = (xs: unknown[]): boolean => xs.length > 1;

  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-chat-'));
  const path = values.model ? resolve(values.model) : await ensureBuiltinModel(dataDir);
  const baselines: Array<{ label: string; mods: ServerModules }> = [];
  // --baseline DIR[,DIR...]: other builds' servers, labelled by their directory's parent name.
  for (const dirArg of values.baseline ? values.baseline.split(',') : []) {
    const dir = resolve(dirArg);
    const load = async <T>(rel: string): Promise<T> => (await import(pathToFileURL(join(dir, rel)).href)) as T;
    baselines.push({
      label: basename(dirname(dir)),
      mods: {
        createHttpServer: (await load<{ createHttpServer: typeof createHttpServer }>('src/http/server.js')).createHttpServer,
        chatCompletionRoutes: (await load<{ chatCompletionRoutes: typeof chatCompletionRoutes }>('src/api/chat-completions.js')).chatCompletionRoutes,
      },
    });
  }
  const variants: Variant[] = [];
  // One engine per (threads, nice); the loop slice and the submit hold are process-wide settings
  // applied per path, so their variants share an engine (a second engine on a copied file came out
  // slower in whichever position it ran: an A/B of two engines measures that too).
  const engines = new Map<string, EngineModel>();
  for (const { threads, nice, slice, hold } of combos) {
    const key = `${threads}/${nice}`;
    let model = engines.get(key);
    if (!model) {
      let file = path;
      if (engines.size > 0) copyFileSync(path, (file = join(dataDir, `variant-${engines.size}.gguf`)));
      model = await loadModel(file, { id: 'builtin', threads, engineNice: nice, maxSequences: Math.max(64, ...levels),
        ...(values['decode-stall-ms'] !== undefined ? { decodeStallMs: Number(values['decode-stall-ms']) } : {}),
      });
      engines.set(key, model);
    }
    const tag = [
      ...(many(threadList) || many(niceList) ? [` t${threads} n${nice}`] : []),
      ...(many(sliceList) ? [` s${slice}`] : []),
      ...(many(holdList) ? [` h${hold}`] : []),
    ].join('');
    const servers = [
      ...baselines.map((b) => new TimedServer(b.label + tag, b.mods, model)),
      new TimedServer('http' + tag, { createHttpServer, chatCompletionRoutes }, model),
    ];
    for (const s of servers) await s.start();
    const apply = (): void => {
      const us = slice > 0 ? slice : kernelSliceUs;
      if (Number.isFinite(us)) native().markLatencyThread(us);
      setSubmitHold(hold === 2 ? 2 : hold !== 0, gatherMs);
    };
    variants.push({ label: combos.length > 1 ? tag.trim() : 'direct', model, servers, apply });
  }
  const worker = new Worker(new URL('./http-client-worker.js', import.meta.url));

  // Both paths prefill the same prompt tokens.
  const { body, logitBias, prompt } = await benchChat(variants[0]!.model, tokens);

  const results: Array<Record<string, unknown>> = [];
  for (const c of levels) {
    const n = c === 1 ? reps : 1; // single streams are short: repeat them for stable medians
    const busy = new Map<string, { ms: number; tokens: number }>();
    const timedRun = async (label: string, run: () => Promise<RunStats>): Promise<RunStats> => {
      const before = mainThreadCpuMs();
      const r = await run();
      const b = busy.get(label) ?? { ms: 0, tokens: 0 };
      b.ms += mainThreadCpuMs() - before;
      b.tokens += r.tokens;
      busy.set(label, b);
      return r;
    };
    const loopUs = (label: string) => {
      const b = busy.get(label)!;
      return (b.ms * 1000) / b.tokens;
    };
    const paths: Array<() => Promise<void>> = [];
    const pathVariant: Variant[] = [];
    const report: Array<() => void> = [];
    for (const v of variants) {
      const { model, servers } = v;
      const jobs = servers.map((s): ClientJob => ({ host: '127.0.0.1', port: s.port, apiKey: KEY, body, concurrency: c, client: 'socket' }));
      const fetchJob: ClientJob = { ...jobs[jobs.length - 1]!, client: 'fetch' };
      v.apply();
      await inProcess(model, prompt, c, tokens, logitBias); // warm-up (also fills the prefix cache)
      for (const j of jobs) await overHttp(worker, j);
      if (withFetch) await overHttp(worker, fetchJob);
      for (const s of servers) s.prepMs.length = s.engineMs.length = 0;
      const directEngineMs: number[] = [];
      const direct: RunStats[] = [];
      const http = servers.map(() => [] as RunStats[]);
      const splits = servers.map(
        (): TtftSplit => ({ toSubmit: [], engine: [], toClient: [], sendSpread: [], toHandler: [], handlerSpread: [], handlerGroups: [], ttftFromArrival: [], timelines: [] }),
      );
      const spreads = servers.map(() => [] as number[]);
      const groups = servers.map(() => [] as number[]);
      const firstGroups = servers.map(() => [] as number[]);
      // Engine steps one run took (EngineStats.steps before and after): with --tokens 1, how many
      // steps the burst was admitted in; otherwise tokens - 1 plus that.
      const stepsNow = (): number => model.stats().steps ?? NaN;
      const directSteps: number[] = [];
      const httpSteps = servers.map(() => [] as number[]);
      const viaFetch: RunStats[] = [];
      paths.push(
        async () => {
          const steps0 = stepsNow();
          direct.push(await timedRun(v.label, () => inProcess(model, prompt, c, tokens, logitBias, directEngineMs)));
          directSteps.push(stepsNow() - steps0);
        },
        ...servers.map((s, k) => async () => {
          s.submitAt.length = 0;
          s.marks.clear(); // only this run's requests (warm-up and fetch rounds leave theirs)
          const steps0 = stepsNow();
          const ends0 = gatherEndCounts();
          http[k]!.push(await timedRun(s.label, () => overHttp(worker, jobs[k]!, s, splits[k])));
          httpSteps[k]!.push(stepsNow() - steps0);
          const ends1 = gatherEndCounts();
          s.gatherEnds.quiet += ends1.quiet - ends0.quiet;
          s.gatherEnds.bound += ends1.bound - ends0.bound;
          firstGroups[k]!.push(firstGroupSize(s.submitAt));
          spreads[k]!.push(Math.max(...s.submitAt) - Math.min(...s.submitAt));
          groups[k]!.push(submitGroups(s.submitAt));
        }),
      );
      if (withFetch) {
        paths.push(async () => {
          // fetch's rounds are not in the server-side columns (prep, spread, CPU time).
          const s = servers[servers.length - 1]!;
          const marks = [s.prepMs.length, s.engineMs.length] as const;
          viaFetch.push(await overHttp(worker, fetchJob));
          s.prepMs.length = marks[0];
          s.engineMs.length = marks[1];
        });
      }
      while (pathVariant.length < paths.length) pathVariant.push(v);
      report.push(() => {
        const directTtft = median(direct.flatMap((s) => s.ttft));
        const directTokS = median(direct.map((s) => s.tokensPerSec));
        servers.forEach((s, k) => {
          const ttft = median(http[k]!.flatMap((x) => x.ttft));
          const tokS = median(http[k]!.map((x) => x.tokensPerSec));
          const last = k === servers.length - 1;
          results.push({
            concurrency: c,
            server: s.label,
            streams: direct.reduce((a, x) => a + x.ttft.length, 0),
            direct_ttft_p50_ms: directTtft,
            http_ttft_p50_ms: ttft,
            added_ttft_ms: ttft - directTtft,
            http_send_to_submit_p50_ms: median(splits[k]!.toSubmit),
            http_send_to_handler_p50_ms: median(splits[k]!.toHandler),
            http_handler_spread_ms: median(splits[k]!.handlerSpread),
            http_handler_groups: median(splits[k]!.handlerGroups),
            http_ttft_from_arrival_p50_ms: median(splits[k]!.ttftFromArrival),
            added_ttft_from_arrival_ms: median(splits[k]!.ttftFromArrival) - directTtft,
            http_engine_ttft_p50_ms: median(splits[k]!.engine),
            http_token_to_client_p50_ms: median(splits[k]!.toClient),
            server_prep_p50_ms: median(s.prepMs),
            http_submit_spread_ms: median(spreads[k]!),
            http_send_spread_ms: median(splits[k]!.sendSpread),
            http_submit_groups: median(groups[k]!),
            http_first_group: median(firstGroups[k]!),
            http_gather_ends: `${s.gatherEnds.quiet} quiet / ${s.gatherEnds.bound} bound`,
            direct_engine_steps: median(directSteps),
            http_engine_steps: median(httpSteps[k]!),
            http_engine_steps_each: httpSteps[k]!,
            direct_main_cpu_us_per_token: loopUs(v.label),
            http_main_cpu_us_per_token: loopUs(s.label),
            direct_itl_p50_ms: median(direct.flatMap((x) => x.itl)),
            http_itl_p50_ms: median(http[k]!.flatMap((x) => x.itl)),
            direct_tok_s: directTokS,
            http_tok_s: tokS,
            tok_s_change_pct: ((tokS - directTokS) / directTokS) * 100,
            direct_engine_ms_per_token: median(directEngineMs),
            http_engine_ms_per_token: median(s.engineMs),
            engine_tok_s_change_pct: (median(directEngineMs) / median(s.engineMs) - 1) * 100,
            ...(values.timeline ? { timelines: splits[k]!.timelines } : {}),
            ...(withFetch && last
              ? { fetch_ttft_p50_ms: median(viaFetch.flatMap((x) => x.ttft)), fetch_tok_s: median(viaFetch.map((x) => x.tokensPerSec)) }
              : {}),
          });
        });
      });
    }
    // Every path once per repetition, so that they see the same load, in an order rotated from one
    // repetition to the next: the path run last came out ~10% slower in tokens/s even when two
    // paths ran the same build.
    let rep = 0;
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < n; i++, rep++) {
        for (let j = 0; j < paths.length; j++) {
          const k = (j + rep) % paths.length;
          pathVariant[k]!.apply();
          await paths[k]!();
        }
      }
    }
    for (const r of report) r();
  }
  await worker.terminate();
  // Every request left intake at its submit or end (src/intake.ts): anything left is a leak.
  if (intakeCount() !== 0) console.error(`requests still in intake after the runs: ${intakeCount()}`);
  for (const v of variants) for (const s of v.servers) await s.server.shutdown(1000);
  for (const m of engines.values()) m.unload();
  rmSync(dataDir, { recursive: true, force: true });

  const f = (x: unknown): string => (typeof x === 'number' ? x.toFixed(2) : typeof x === 'string' ? x : '–');
  console.log(
    `chat server overhead: ${values.model ? basename(values.model) : 'built-in model'}, prompt ${prompt.length} tokens, ${tokens} tokens/stream, medians over all streams; http = lean socket client` +
      (values.baseline ? `; base = ${values.baseline}` : ''),
  );
  printTable(
    [
      'concurrent',
      'server',
      'streams/path',
      'TTFT direct ms',
      'TTFT http ms',
      'added ms',
      'http: send → submit ms',
      'http: submit → first token ms',
      'http: first token → client ms',
      'server prep ms',
      'submit spread ms',
      'client send spread ms',
      'submit groups',
      'engine steps direct',
      'engine steps http',
      'main-thread CPU µs/token direct',
      'main-thread CPU µs/token http',
      'ITL direct ms',
      'ITL http ms',
      'tok/s direct',
      'tok/s http',
      'tok/s change',
      'engine ms/token direct',
      'engine ms/token http',
      'engine tok/s change',
      'TTFT fetch ms',
      'tok/s fetch',
    ],
    results.map((r) => [
      r.concurrency,
      r.server,
      r.streams,
      f(r.direct_ttft_p50_ms),
      f(r.http_ttft_p50_ms),
      f(r.added_ttft_ms),
      f(r.http_send_to_submit_p50_ms),
      f(r.http_engine_ttft_p50_ms),
      f(r.http_token_to_client_p50_ms),
      f(r.server_prep_p50_ms),
      f(r.http_submit_spread_ms),
      f(r.http_send_spread_ms),
      f(r.http_submit_groups),
      f(r.direct_engine_steps),
      f(r.http_engine_steps),
      f(r.direct_main_cpu_us_per_token),
      f(r.http_main_cpu_us_per_token),
      f(r.direct_itl_p50_ms),
      f(r.http_itl_p50_ms),
      f(r.direct_tok_s),
      f(r.http_tok_s),
      `${f(r.tok_s_change_pct)}%`,
      f(r.direct_engine_ms_per_token),
      f(r.http_engine_ms_per_token),
      `${f(r.engine_tok_s_change_pct)}%`,
      f(r.fetch_ttft_p50_ms),
      f(r.fetch_tok_s),
    ]),
  );
  // The burst's way in, stage by stage (ms, medians): client send → handler entry → engine submit,
  // with each stage's spread over one burst and the groups (1 ms gaps) it came in.
  console.log('');
  printTable(
    [
      'concurrent',
      'server',
      'added ms',
      'added from arrival ms',
      'send spread',
      'send → handler',
      'handler spread',
      'handler groups',
      'server prep',
      'submit spread',
      'submit groups',
      'first group',
      'engine steps http',
      'gathering holds ended',
    ],
    results.map((r) => [
      r.concurrency,
      r.server,
      f(r.added_ttft_ms),
      f(r.added_ttft_from_arrival_ms),
      f(r.http_send_spread_ms),
      f(r.http_send_to_handler_p50_ms),
      f(r.http_handler_spread_ms),
      f(r.http_handler_groups),
      f(r.server_prep_p50_ms),
      f(r.http_submit_spread_ms),
      f(r.http_submit_groups),
      f(r.http_first_group),
      f(r.http_engine_steps),
      f(r.http_gather_ends),
    ]),
  );
  if (values.timeline) {
    // Per burst and stream: [send, handler entry, submit, first token, body read], ms after the burst's first send.
    writeFileSync(values.timeline, JSON.stringify(results.map((r) => ({ concurrency: r.concurrency, server: r.server, timelines: r.timelines }))));
  }
  for (const r of results) delete r.timelines;
  const out = values.json ?? join(PACKAGE_ROOT, 'bench', 'results', 'chat-server-overhead.json');
  mkdirSync(join(out, '..'), { recursive: true });
  writeFileSync(out, JSON.stringify({ model: values.model ?? 'builtin', promptTokens: prompt.length, tokens, rounds, baseline: values.baseline ?? null, results }, null, 2));
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
