// Batch and Files benchmark against a real `svc serve` process (spawned from dist/):
//   1. upload / download MB/s for a large file (default 100 MB), streamed both ways, with the
//      server's peak RSS sampled during a small and a large upload (must not grow with size);
//   2. an N-request batch (default 10,000) vs the same requests over HTTP at the same concurrency:
//      requests/s and tokens/s, side by side in one run.
// Usage (after `node scripts/build.mjs`):
//   node dist/bench/batch/batch-bench.js [--requests 10000] [--upload-mb 100] [--model svc-v3-fast]
//        [--serve-arg=--model=PATH ...] [--out bench/results/batch.json]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { DEFAULT_BATCH_LIMITS } from '../../src/batch/types.js';
import { freePort } from '../../src/bench/svc-process.js';

interface Args {
  requests: number;
  uploadMb: number;
  smallUploadMb: number;
  model: string;
  maxTokens: number;
  serveArgs: string[];
  out: string | null;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { requests: 10_000, uploadMb: 100, smallUploadMb: 10, model: 'svc-v3-fast', maxTokens: 16, serveArgs: [], out: null };
  for (let i = 0; i < argv.length; i++) {
    const [k, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const v = (): string => inline ?? argv[++i] ?? '';
    if (k === '--requests') a.requests = Number(v());
    else if (k === '--upload-mb') a.uploadMb = Number(v());
    else if (k === '--small-upload-mb') a.smallUploadMb = Number(v());
    else if (k === '--model') a.model = v();
    else if (k === '--max-tokens') a.maxTokens = Number(v());
    else if (k === '--serve-arg') a.serveArgs.push(v());
    else if (k === '--out') a.out = v();
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

const KEY = 'sk-bench-batch';
const MB = 1024 * 1024;


const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function request(port: number, method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers: { authorization: `Bearer ${KEY}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function json(port: number, method: string, path: string, body?: unknown): Promise<any> {
  const r = await request(port, method, path, body === undefined ? undefined : JSON.stringify(body), body === undefined ? {} : { 'content-type': 'application/json' });
  const parsed = JSON.parse(r.body.toString('utf8'));
  if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status}: ${r.body.toString('utf8').slice(0, 300)}`);
  return parsed;
}

/** Resident set of the server: total, and anonymous (heap and buffers, without LMDB's mapped file pages). */
function rss(pid: number): { total: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { total: kb('VmRSS'), anon: kb('RssAnon') };
}

function rssBytes(pid: number): number {
  return rss(pid).total;
}

class RssPeak {
  total = 0;
  anon = 0;
  sample(pid: number): void {
    const r = rss(pid);
    this.total = Math.max(this.total, r.total);
    this.anon = Math.max(this.anon, r.anon);
  }
}

/** Streams a generated file as multipart (never held whole on the client either). */
function upload(port: number, sizeBytes: number, filename: string, purpose: string, pid: number): Promise<{ seconds: number; peak: RssPeak; id: string }> {
  const boundary = '----svcbench' + Date.now().toString(16);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const block = Buffer.alloc(MB);
  for (let i = 0; i < block.length; i++) block[i] = 0x20 + ((i * 7919) % 90);
  return new Promise((resolve, reject) => {
    const peak = new RssPeak();
    peak.sample(pid);
    const sampler = setInterval(() => peak.sample(pid), 5);
    const t0 = performance.now();
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/files',
        agent,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + sizeBytes + tail.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearInterval(sampler);
          peak.sample(pid);
          const seconds = (performance.now() - t0) / 1000;
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (res.statusCode !== 200) reject(new Error(`upload → ${res.statusCode}: ${JSON.stringify(body)}`));
          else resolve({ seconds, peak, id: body.id });
        });
      },
    );
    req.on('error', reject);
    let sent = 0;
    const pump = (): void => {
      while (sent < sizeBytes) {
        const n = Math.min(block.length, sizeBytes - sent);
        sent += n;
        if (!req.write(n === block.length ? block : block.subarray(0, n))) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail);
    };
    req.write(head);
    pump();
  });
}

function download(port: number, id: string): Promise<{ seconds: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http
      .get({ host: '127.0.0.1', port, path: `/v1/files/${id}/content`, agent, headers: { authorization: `Bearer ${KEY}` } }, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => resolve({ seconds: (performance.now() - t0) / 1000, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function requestBody(i: number, model: string, maxTokens: number): Record<string, unknown> {
  if (model.startsWith('svc-v3') || model === 'auto') {
    const code = `export function handler${i}(req) {\n  const a = req.a;\n  const b = req.b;\n  return a + b;\n}\n\nexport function other() {\n  return ${i};\n}\n`;
    const update = `export function handler${i}(req) {\n  // ... existing code ...\n  return a * b + ${i};\n}\n// ... existing code ...\n`;
    return { model, messages: [{ role: 'user', content: `<instruction>I multiply instead of adding.</instruction>\n<code>${code}</code>\n<update>${update}</update>` }] };
  }
  return { model, max_tokens: maxTokens, temperature: 0, messages: [{ role: 'user', content: `Request ${i}: say something.` }] };
}

function tokensOf(body: any): number {
  return Number(body?.usage?.total_tokens ?? 0);
}

async function overHttp(port: number, bodies: Array<Record<string, unknown>>, concurrency: number) {
  let next = 0;
  let ok = 0;
  let tokens = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const b = bodies[next++]!;
        const r = await request(port, 'POST', '/v1/chat/completions', JSON.stringify(b), { 'content-type': 'application/json' });
        if (r.status === 200) {
          ok++;
          tokens += tokensOf(JSON.parse(r.body.toString('utf8')));
        }
      }
    }),
  );
  return { seconds: (performance.now() - t0) / 1000, ok, tokens };
}

async function asBatch(port: number, pid: number, bodies: Array<Record<string, unknown>>) {
  const lines = bodies.map((body, i) => JSON.stringify({ custom_id: `r${i}`, method: 'POST', url: '/v1/chat/completions', body })).join('\n') + '\n';
  const content = Buffer.from(lines);
  const boundary = '----svcbenchbatch';
  const form = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.jsonl"\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const up = await request(port, 'POST', '/v1/files', form, { 'content-type': `multipart/form-data; boundary=${boundary}` });
  const file = JSON.parse(up.body.toString('utf8'));
  if (up.status !== 200) throw new Error(`batch upload → ${up.status}: ${JSON.stringify(file)}`);
  const t0 = performance.now();
  let batch = await json(port, 'POST', '/v1/batches', { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
  let peak = 0;
  while (!['completed', 'failed', 'expired', 'cancelled'].includes(batch.status)) {
    await new Promise((r) => setTimeout(r, 50));
    peak = Math.max(peak, rssBytes(pid));
    batch = await json(port, 'GET', `/v1/batches/${batch.id}`);
  }
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, batch, peakRss: peak, inputBytes: content.length };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-batch-bench-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [join(PACKAGE_ROOT, 'bin/svc.mjs'), 'serve', '--no-predict', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir, '--api-key', KEY, '--log-level', 'warn', '--rate-limit-rps', '0', '--max-upload', `${Math.max(args.uploadMb, 1) + 16}MiB`, ...args.serveArgs],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const stop = (): void => {
    child.kill('SIGTERM');
  };
  process.on('exit', stop);
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      try {
        if ((await request(port, 'GET', '/health')).status === 200) break;
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline || child.exitCode !== null) throw new Error('server did not come up');
      await new Promise((r) => setTimeout(r, 200));
    }
    const pid = child.pid!;
    const result: Record<string, unknown> = { date: new Date().toISOString(), model: args.model, requests: args.requests, concurrency: DEFAULT_BATCH_LIMITS.concurrency };

    // Files: RSS must not scale with the upload.
    const idle = rss(pid);
    const small = await upload(port, args.smallUploadMb * MB, 'small.bin', 'user_data', pid);
    const big = await upload(port, args.uploadMb * MB, 'big.bin', 'user_data', pid);
    const down = await download(port, big.id);
    if (down.bytes !== args.uploadMb * MB) throw new Error(`downloaded ${down.bytes} bytes, expected ${args.uploadMb * MB}`);
    result.files = {
      upload_mb: args.uploadMb,
      upload_MBps: +(args.uploadMb / big.seconds).toFixed(1),
      download_MBps: +(args.uploadMb / down.seconds).toFixed(1),
      rss_idle_mb: +(idle.total / MB).toFixed(1),
      rss_peak_small_upload_mb: +(small.peak.total / MB).toFixed(1),
      rss_peak_big_upload_mb: +(big.peak.total / MB).toFixed(1),
      rss_anon_idle_mb: +(idle.anon / MB).toFixed(1),
      rss_anon_peak_small_upload_mb: +(small.peak.anon / MB).toFixed(1),
      rss_anon_peak_big_upload_mb: +(big.peak.anon / MB).toFixed(1),
      small_upload_mb: args.smallUploadMb,
    };
    console.error('files', JSON.stringify(result.files));

    // Same requests, over HTTP and as a batch, same concurrency.
    if (args.requests === 0) {
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    const bodies = Array.from({ length: args.requests }, (_, i) => requestBody(i, args.model, args.maxTokens));
    // Warm-up (worker threads, tokenizer, engine) outside both measurements.
    await overHttp(port, bodies.slice(0, Math.min(200, bodies.length)), DEFAULT_BATCH_LIMITS.concurrency);
    const httpPeak = new RssPeak();
    const sampler = setInterval(() => httpPeak.sample(pid), 50);
    const h = await overHttp(port, bodies, DEFAULT_BATCH_LIMITS.concurrency);
    clearInterval(sampler);
    const b = await asBatch(port, pid, bodies);
    const usage = b.batch.usage ?? { total_tokens: 0 };
    result.http = {
      seconds: +h.seconds.toFixed(2),
      ok: h.ok,
      req_per_s: +(args.requests / h.seconds).toFixed(1),
      tokens_per_s: +(h.tokens / h.seconds).toFixed(1),
      rss_peak_mb: +(httpPeak.total / MB).toFixed(1),
    };
    result.batch = {
      seconds: +b.seconds.toFixed(2),
      status: b.batch.status,
      request_counts: b.batch.request_counts,
      req_per_s: +(args.requests / b.seconds).toFixed(1),
      tokens_per_s: +(usage.total_tokens / b.seconds).toFixed(1),
      input_file_mb: +(b.inputBytes / MB).toFixed(1),
      rss_peak_mb: +(b.peakRss / MB).toFixed(1),
    };
    console.log(JSON.stringify(result, null, 2));
    if (args.out) {
      mkdirSync(dirname(args.out), { recursive: true });
      writeFileSync(args.out, JSON.stringify(result, null, 2) + '\n');
    }
  } finally {
    stop();
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
