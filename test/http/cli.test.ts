// `svc serve` as a process (the built CLI under dist/, as `npm start` runs it): bad flags exit 2,
// --help lists flags with env names, the first start generates and stores a key shown once,
// later starts reuse it, SIGTERM drains and exits 0.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.js';

const SVC = join(PACKAGE_ROOT, 'bin', 'svc.mjs');
let dataDir: string;

beforeAll(() => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'serve.js'))) {
    throw new Error('dist/ is missing: run `node scripts/build.mjs` (npm test does it) before this test');
  }
  dataDir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function svc(args: string[], env: Record<string, string> = {}): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [SVC, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

interface Running {
  proc: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  mainUrl: string;
  predictUrl: string | undefined;
  exit: Promise<number | null>;
}

async function startServe(extra: string[] = []): Promise<Running> {
  const proc = spawn(process.execPath, [SVC, 'serve', '--port', '0', '--predict-port', '0', '--data-dir', dataDir, ...extra], {
    env: { PATH: process.env.PATH ?? '' },
  });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  const exit = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const deadline = Date.now() + 90_000; // startup loads (and on first start may generate) a model
  while (!out.includes('"msg":"listening"')) {
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`serve did not start:\n${out}\n${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const line = JSON.parse(out.split('\n').find((l) => l.includes('"msg":"listening"'))!) as { main_url: string; predict_url?: string };
  return { proc, stdout: () => out, stderr: () => err, mainUrl: line.main_url, predictUrl: line.predict_url, exit };
}

describe('svc serve', () => {
  it('exits 2 with a clear message on bad flags', () => {
    const r = svc(['serve', '--bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/unknown flag --bogus/);
    const r2 = svc(['serve', '--port', 'eighty']);
    expect(r2.status).toBe(2);
    expect(r2.stderr).toMatch(/--port: expected a number, got 'eighty'/);
    const r3 = svc(['serve'], { SVC_RATE_LIMIT_RPS: '-1' });
    expect(r3.status).toBe(2);
    expect(r3.stderr).toMatch(/SVC_RATE_LIMIT_RPS/);
    // svc bench engine checks its model and numbers before running (a stack trace, or NaN results)
    const missing = svc(['bench', 'engine', '--model', join(dataDir, 'nope.gguf')]);
    expect([missing.status, missing.stderr]).toEqual([2, expect.stringMatching(/^svc bench engine: ENOENT/)]);
    const notGguf = svc(['bench', 'engine', '--model', SVC]);
    expect([notGguf.status, notGguf.stderr]).toEqual([2, expect.stringMatching(/is not a GGUF file/)]);
    const micro = svc(['bench', 'micro', '--filter', 'nosuch']);
    expect([micro.status, micro.stdout, micro.stderr]).toEqual([2, '', expect.stringContaining("no micro-benchmark matches 'nosuch'")]);
  });

  it('--help lists every flag with its default and environment variable', () => {
    const r = svc(['serve', '--help']);
    expect(r.status).toBe(0);
    for (const f of ['--host', '--port', '--predict-port', '--no-predict', '--data-dir', '--model', '--api-key', '--max-body', '--max-upload', '--rate-limit-rps', '--rate-limit-burst', '--log-level', '--threads', '--kv-cache-mb', '--max-queue', '--no-prefix-cache', '--predict-api-key', '--shutdown-timeout']) {
      expect(r.stdout).toContain(f);
    }
    expect(r.stdout).toContain('SVC_API_KEYS');
    expect(r.stdout).toContain('(default 8080)');
    const p = svc(['predict', '--help']);
    expect(p.status).toBe(0);
    expect(p.stdout).toContain('--role');
    expect(p.stdout).toContain('SVC_PREDICT_PORT');
    // every bench subcommand answers --help with its usage (they used to refuse the flag)
    for (const sub of ['serve', 'report', 'engine', 'micro', 'suite']) {
      const b = svc(['bench', sub, '--help']);
      expect([b.status, b.stdout]).toEqual([0, expect.stringContaining(`usage: svc bench ${sub}`)]);
    }
  });

  it('help on stdout with exit 0; no or an unknown (sub)command on stderr with exit 2, at every level', () => {
    for (const args of [['--help'], ['bench', '--help'], ['bench', '-h'], ['model', '--help'], ['model', 'make', '--help'], ['model', 'info', '-h']]) {
      const r = svc(args);
      expect([args, r.status, r.stderr]).toEqual([args, 0, '']);
      expect(r.stdout).toMatch(/^usage:\s/);
    }
    for (const args of [[], ['bench'], ['model']]) {
      const r = svc(args);
      expect([args, r.status, r.stdout]).toEqual([args, 2, '']);
      expect(r.stderr).toMatch(/^usage:\s/);
    }
    for (const [args, prefix] of [[['bogus'], 'svc'], [['bench', 'bogus'], 'svc bench'], [['model', 'bogus'], 'svc model']] as const) {
      const r = svc([...args]);
      expect([args, r.status, r.stdout]).toEqual([args, 2, '']);
      expect(r.stderr).toContain(`${prefix}: unknown command 'bogus'`);
    }
  });

  it('generates a key on first start (0600, shown once), reuses it, serves both ports, exits 0 on SIGTERM', { timeout: 240_000 }, async () => {
    const a = await startServe();
    const keyFile = join(dataDir, 'api-key');
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(key).toMatch(/^sk-svc-[A-Za-z0-9_-]{43}$/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(a.stderr()).toContain(key);
    expect(a.stdout()).not.toContain(key); // logs never carry it

    const health = (await (await fetch(`${a.mainUrl}/health`)).json()) as { status: string; uptime_seconds: number; models: unknown[] };
    expect(health.status).toBe('ok');
    expect(health.uptime_seconds).toBeGreaterThan(0);
    expect(Array.isArray(health.models)).toBe(true);
    expect((await fetch(`${a.mainUrl}/metrics`)).status).toBe(401);
    const metrics = await fetch(`${a.mainUrl}/metrics`, { headers: { authorization: `Bearer ${key}` } });
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('svc_http_requests_total{server="main",route="/health",method="GET",status="200"} 1');
    // SPEC's Health response fields, whatever model is loaded.
    const ph = (await (await fetch(`${a.predictUrl}/health`)).json()) as Record<string, unknown>;
    expect(ph.server_role).toBe('standalone');
    expect(['healthy', 'degraded']).toContain(ph.status);
    expect(typeof ph.model).toBe('string');
    expect(typeof ph.gpu_available).toBe('boolean');
    expect(typeof ph.cache_enabled).toBe('boolean');
    expect(typeof ph.uptime_seconds).toBe('number');

    // Body limits with no --max-body: 8 MiB, and Anthropic's 32 MiB on the Messages routes (the body
    // below is cut short, so past the limit check it is a 400).
    const post = async (url: string, path: string, body: string): Promise<number> =>
      (await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body })).status;
    const nineMiB = `{"x":"${'a'.repeat(9 * 1024 * 1024)}"`;
    expect(await post(a.mainUrl, '/v1/chat/completions', nineMiB)).toBe(413);
    expect(await post(a.mainUrl, '/v1/messages/count_tokens', nineMiB)).toBe(400);

    a.proc.kill('SIGTERM');
    expect(await a.exit).toBe(0);
    expect(a.stdout()).toContain('"msg":"stopped"');

    const b = await startServe(['--no-predict', '--max-body', '64KiB']);
    expect(b.stderr()).not.toContain(key);
    // A --max-body given is the limit on every route, the Messages ones included.
    const big = JSON.stringify({ model: 'x', max_tokens: 1, messages: [{ role: 'user', content: 'a'.repeat(100_000) }] });
    for (const path of ['/v1/chat/completions', '/v1/messages', '/v1/messages/count_tokens']) expect([path, await post(b.mainUrl, path, big)]).toEqual([path, 413]);
    expect(b.predictUrl).toBeUndefined();
    expect((await fetch(`${b.mainUrl}/metrics`, { headers: { 'x-api-key': key } })).status).toBe(200);
    b.proc.kill('SIGINT');
    expect(await b.exit).toBe(0);
  });

  it('a failed start says why on stderr and exits 1, even with two models loaded (it aborted: 134)', { timeout: 120_000 }, () => {
    const model = join(dataDir, 'models', 'builtin.gguf'); // written by the first start above
    expect(existsSync(model)).toBe(true);
    const r = svc(['serve', '--no-predict', '--port', '0', '--data-dir', dataDir, '--log-level', 'silent', '--model', model, '--model', model]);
    expect([r.status, r.signal]).toEqual([1, null]);
    expect(r.stderr).toContain("svc: startup failed: two models with the id 'builtin'");
    expect(r.stdout).toBe('');
  });
});
