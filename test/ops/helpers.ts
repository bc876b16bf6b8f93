// A whole main server as `svc serve` builds it (createServices + startMainServer, real engine on
// the chat tests' generated model, API key, ephemeral port), and a small Prometheus text parser.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { parseServeConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { createServices, type Services, type ServicesOptions } from '../../src/server/services.js';
import { startMainServer } from '../../src/server/main-server.js';
import { startPredictServer } from '../../src/server/predict-server.js';
import type { HttpServer } from '../../src/http/server.js';
import type { EngineModel } from '../../src/engine/index.js';
import { MeteredModel } from '../../src/server/engine-metrics.js';
import { closeApplyPool } from '../../src/apply/pool.js';

export const KEY = 'sk-ops-test-0123456789';

export interface OpsServer {
  url: string;
  /** The prediction service (only with `predict: true`). */
  predictUrl: string | null;
  services: Services;
  server: HttpServer;
  openai: OpenAI;
  /** The first model's engine (under the metering wrapper). */
  engine(): EngineModel;
  close(): Promise<void>;
}

export async function startOpsServer(modelPaths: string[], flags: string[] = [], opts: ServicesOptions & { predict?: boolean } = {}): Promise<OpsServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-ops-'));
  const argv = ['--port', '0', ...(opts.predict ? ['--predict-port', '0'] : ['--no-predict']), '--data-dir', dataDir, '--api-key', KEY, '--threads', '2', '--kv-cache-mb', '64', ...flags];
  for (const p of modelPaths) argv.push('--model', p);
  const config = parseServeConfig(argv, {});
  const services = await createServices(config, { logger: createLogger({ level: 'error', sink: () => {} }), ...opts });
  const server = await startMainServer(services);
  const predict = opts.predict ? await startPredictServer(services) : null;
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    predictUrl: predict ? `http://127.0.0.1:${predict.port}` : null,
    services,
    server,
    openai: new OpenAI({ baseURL: `${url}/v1`, apiKey: KEY, maxRetries: 0, timeout: 120_000 }),
    engine: () => (services.models.values().next().value as MeteredModel).inner as EngineModel,
    close: async () => {
      await server.shutdown(2000);
      await predict?.shutdown(2000);
      await services.close();
      for (const m of services.models.values()) ((m as MeteredModel).inner as EngineModel).unload();
      await closeApplyPool();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Samples of a Prometheus text exposition (comments skipped). */
export function parsePrometheus(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const t = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (t) {
      types.set(t[1]!, t[2]!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`bad exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: m[3] === '+Inf' ? Infinity : Number(m[3]) });
  }
  return { samples, types };
}

export async function scrape(url: string): Promise<{ samples: Sample[]; types: Map<string, string> }> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${KEY}` } });
  if (res.status !== 200) throw new Error(`/metrics ${res.status}`);
  return parsePrometheus(await res.text());
}

/** The value of one series (labels must all match; absent: undefined). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

export function sumOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((a, s) => a + s.value, 0);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
