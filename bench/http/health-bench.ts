// GET /health throughput and latency: our uWS stack against a plain node:http server answering
// the same JSON, side by side in one run. Each server and the load generator run in their own
// processes; rounds alternate the servers so drift on a shared machine hits both alike, and the
// summary quotes medians over rounds. Besides wall-clock req/s (which other load on the machine
// distorts) it reports the server process's CPU time per response (utime+stime from /proc over
// the run / responses): the capacity of one core, much less sensitive to a busy machine.
// Usage (after the build): node dist/bench/http/health-bench.js [--connections 50] [--seconds 5] [--rounds 3]
//   or: npm run bench:http -- --seconds 5
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { histPercentile, type LoadGenResult } from './load-gen.js';
import { median } from '../../src/bench/stats.js';

const here = dirname(fileURLToPath(import.meta.url));
type Kind = 'uws' | 'uws-nolog' | 'uws-bare' | 'node';

/** USER_HZ: /proc times are in 1/100 s on Linux. */
const CLOCK_TICKS = 100;

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime, stime (fields 14, 15)
}

/** Merged generator results (no `seconds`: the generators overlap), plus the server's CPU cost. */
type LoadResult = Omit<LoadGenResult, 'seconds'> & {
  /** Server CPU µs per response over the run (set by the bench). */
  cpuUsPerReq?: number;
};

function startServer(kind: Kind): Promise<{ proc: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [join(here, 'health-servers.js'), kind], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /\{"port":(\d+)\}/.exec(err);
      if (m) resolve({ proc, port: Number(m[1]) });
    });
    proc.on('exit', (code) => reject(new Error(`${kind} server exited (${code}): ${err}`)));
  });
}

/** `clients` generator processes share the connections; their counts and histograms are merged. */
async function runLoad(url: string, connections: number, seconds: number, clients: number): Promise<LoadResult> {
  const per = Array.from({ length: clients }, (_, i) => Math.floor(connections / clients) + (i < connections % clients ? 1 : 0));
  const parts = await Promise.all(per.map((c) => runLoadGen(url, c, seconds)));
  const hist: Record<number, number> = {};
  for (const p of parts) for (const [k, v] of Object.entries(p.hist)) hist[Number(k)] = (hist[Number(k)] ?? 0) + v;
  const requests = parts.reduce((n, p) => n + p.requests, 0);
  return {
    requests,
    totalResponses: parts.reduce((n, p) => n + p.totalResponses, 0),
    errors: parts.reduce((n, p) => n + p.errors, 0),
    non2xx: parts.reduce((n, p) => n + p.non2xx, 0),
    rps: parts.reduce((n, p) => n + p.rps, 0),
    p50Ms: histPercentile(hist, 50),
    p99Ms: histPercentile(hist, 99),
    meanMs: parts.reduce((n, p) => n + p.meanMs * p.requests, 0) / requests,
    maxMs: Math.max(...parts.map((p) => p.maxMs)),
    hist,
  };
}

function runLoadGen(url: string, connections: number, seconds: number): Promise<LoadGenResult> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [join(here, 'load-gen.js'), url, String(connections), String(seconds), '1'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as LoadGenResult) : reject(new Error(`load generator failed (${code})`))));
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      connections: { type: 'string', default: '50' },
      seconds: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      // Load generator processes; one is enough on a 2-CPU box, more where there are cores to spare.
      clients: { type: 'string', default: String(availableParallelism() > 4 ? Math.min(4, availableParallelism() - 2) : 1) },
      out: { type: 'string', default: join(here, '..', '..', '..', 'bench', 'results', 'http-health.json') },
    },
  });
  const connections = Number(values.connections);
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const clients = Number(values.clients);
  const kinds: Kind[] = ['node', 'uws', 'uws-nolog', 'uws-bare'];
  const runs: Record<Kind, LoadResult[]> = { node: [], uws: [], 'uws-nolog': [], 'uws-bare': [] };

  for (let r = 0; r < rounds; r++) {
    for (const kind of r % 2 ? [...kinds].reverse() : kinds) {
      const { proc, port } = await startServer(kind);
      try {
        const cpu0 = cpuSeconds(proc.pid!);
        const res = await runLoad(`http://127.0.0.1:${port}/health`, connections, seconds, clients);
        res.cpuUsPerReq = ((cpuSeconds(proc.pid!) - cpu0) * 1e6) / res.totalResponses;
        if (res.errors || res.non2xx) throw new Error(`${kind}: ${res.errors} connection errors, ${res.non2xx} non-2xx`);
        runs[kind].push(res);
        console.error(
          `round ${r + 1} ${kind.padEnd(9)} ${res.rps.toFixed(0).padStart(7)} req/s  p50 ${res.p50Ms.toFixed(2)} ms  p99 ${res.p99Ms.toFixed(2)} ms  server CPU ${res.cpuUsPerReq.toFixed(1)} µs/req`,
        );
      } finally {
        proc.kill('SIGKILL');
      }
    }
  }

  const summary = kinds.map((k) => ({
    server: k,
    rps: median(runs[k].map((x) => x.rps)),
    p50Ms: median(runs[k].map((x) => x.p50Ms)),
    p99Ms: median(runs[k].map((x) => x.p99Ms)),
    cpuUsPerReq: median(runs[k].map((x) => x.cpuUsPerReq!)),
  }));
  const base = summary.find((s) => s.server === 'node')!;
  const label: Record<Kind, string> = {
    node: 'plain node:http',
    uws: 'svc uWS stack (access log + metrics)',
    'uws-nolog': 'svc uWS stack (metrics, no access log)',
    'uws-bare': 'bare uWS handler (reference floor)',
  };
  const lines = [
    `GET /health, ${connections} keep-alive connections from ${clients} load-generator process(es), ${seconds} s per run, median of ${rounds} rounds (${availableParallelism()} CPUs: ${cpus()[0]?.model ?? '?'})`,
    '',
    '| server | req/s | vs node:http | p50 ms | p99 ms | server CPU µs/req | req/s per core (1e6/CPU µs) | vs node:http |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...summary.map(
      (s) =>
        `| ${label[s.server]} | ${s.rps.toFixed(0)} | ${(s.rps / base.rps).toFixed(2)}x | ${s.p50Ms.toFixed(2)} | ${s.p99Ms.toFixed(2)} | ${s.cpuUsPerReq.toFixed(1)} | ${(1e6 / s.cpuUsPerReq).toFixed(0)} | ${(base.cpuUsPerReq / s.cpuUsPerReq).toFixed(2)}x |`,
    ),
  ];
  console.log(lines.join('\n'));
  mkdirSync(dirname(values.out!), { recursive: true });
  const compact = Object.fromEntries(Object.entries(runs).map(([k, rs]) => [k, rs.map(({ hist: _h, ...r }) => r)]));
  writeFileSync(values.out!, JSON.stringify({ date: new Date().toISOString(), connections, clients, seconds, rounds, summary, runs: compact }, null, 2));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
