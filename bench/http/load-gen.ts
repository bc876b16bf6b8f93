// A small closed-loop HTTP/1.1 load generator for GET requests: N keep-alive connections over raw
// sockets, each sending the next request as soon as the previous response is complete. It runs in
// its own process (health-bench.ts spawns it) so it never shares an event loop with a server.
// Usage: node load-gen.js <url> <connections> <seconds> [warmupSeconds]
// Prints one JSON line: {requests, errors, non2xx, seconds, rps, p50Ms, p99Ms, meanMs, maxMs, hist}
// where hist maps 10-µs latency buckets to counts, so several generators' runs can be merged.
import { connect, type Socket } from 'node:net';

export interface LoadGenResult {
  /** Responses in the measured window. */
  requests: number;
  /** Responses including warm-up (the bench divides server CPU time by this). */
  totalResponses: number;
  errors: number;
  non2xx: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  /** bucket index (latency / 10 µs) -> count */
  hist: Record<number, number>;
}

export const HIST_BUCKET_MS = 0.01;

/** Percentile (ms, bucket upper edge) of a merged latency histogram. */
export function histPercentile(hist: Record<number, number>, p: number): number {
  const keys = Object.keys(hist).map(Number).sort((a, b) => a - b);
  const total = keys.reduce((n, k) => n + hist[k]!, 0);
  const want = Math.ceil((p / 100) * total);
  let seen = 0;
  for (const k of keys) {
    seen += hist[k]!;
    if (seen >= want) return (k + 1) * HIST_BUCKET_MS;
  }
  return NaN;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

export async function runLoad(url: string, connections: number, seconds: number, warmupSeconds = 1): Promise<LoadGenResult> {
  const u = new URL(url);
  const request = Buffer.from(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAccept: application/json\r\n\r\n`);
  let latencies = new Float64Array(1 << 20);
  let count = 0;
  let totalResponses = 0;
  let errors = 0;
  let non2xx = 0;
  let measuring = false;
  let stopping = false;
  const sockets: Socket[] = [];

  const record = (ms: number): void => {
    if (count === latencies.length) {
      const bigger = new Float64Array(latencies.length * 2);
      bigger.set(latencies);
      latencies = bigger;
    }
    latencies[count++] = ms;
  };

  const open = (): Promise<void> =>
    new Promise((resolve) => {
      const s = connect(Number(u.port), u.hostname);
      s.setNoDelay(true);
      let buf: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      const send = (): void => {
        if (stopping) return;
        sentAt = performance.now();
        s.write(request);
      };
      s.on('connect', () => {
        sockets.push(s);
        send();
        resolve();
      });
      s.on('data', (d: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, d]) : d;
        for (;;) {
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          const head = buf.subarray(0, end).toString('latin1');
          const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          const len = m ? Number(m[1]) : 0;
          if (buf.length < end + 4 + len) return;
          const status = Number(head.slice(9, 12));
          buf = buf.subarray(end + 4 + len);
          totalResponses++;
          if (measuring) {
            if (status < 200 || status > 299) non2xx++;
            record(performance.now() - sentAt);
          }
          send();
        }
      });
      s.on('error', () => {
        errors++;
        resolve();
      });
    });

  await Promise.all(Array.from({ length: connections }, open));
  await new Promise((r) => setTimeout(r, warmupSeconds * 1000));
  measuring = true;
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - t0) / 1000;
  stopping = true;
  for (const s of sockets) s.destroy();

  const sorted = latencies.slice(0, count).sort();
  let sum = 0;
  const hist: Record<number, number> = {};
  for (let i = 0; i < count; i++) {
    sum += sorted[i]!;
    const b = Math.floor(sorted[i]! / HIST_BUCKET_MS);
    hist[b] = (hist[b] ?? 0) + 1;
  }
  return {
    requests: count,
    totalResponses,
    errors,
    non2xx,
    seconds: elapsed,
    rps: count / elapsed,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    meanMs: count ? sum / count : NaN,
    maxMs: count ? sorted[count - 1]! : NaN,
    hist,
  };
}

const [, script, url, conns, secs, warm] = process.argv;
if (script && /load-gen\.[jt]s$/.test(script) && url) {
  runLoad(url, Number(conns ?? 50), Number(secs ?? 5), Number(warm ?? 1)).then(
    (r) => {
      process.stdout.write(JSON.stringify(r) + '\n');
      process.exit(0);
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
