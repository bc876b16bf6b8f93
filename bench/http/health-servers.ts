// The servers under test, one per process: `uws` is our real HTTP stack (createHttpServer +
// the real /health route from src/api/health.ts, metrics and access logs on); `uws-nolog` the
// same with access logs off; `node` is a plain node:http server answering the same JSON;
// `uws-bare` a bare uWS handler answering the same JSON (the floor our stack adds to).
// Usage: node health-servers.js uws|uws-nolog|uws-bare|node   → prints {"port":N} once listening.
import { createServer } from 'node:http';
import uWS from 'uWebSockets.js';
import type { AddressInfo } from 'node:net';
import { healthRoutes } from '../../src/api/health.js';
import { DEFAULT_MAX_BODY, parseServeConfig } from '../../src/config.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { Metrics } from '../../src/metrics.js';
import { uptimeSeconds } from '../../src/server/services.js';
import { Readiness } from '../../src/server/readiness.js';

async function main(kind: string): Promise<void> {
  const config = parseServeConfig(['--api-key', 'sk-bench-key-0000', '--rate-limit-rps', '0'], {});
  // Access lines go to stdout, which the bench points at /dev/null: the full cost of writing them.
  const logger = createLogger({ level: kind === 'uws' ? 'info' : 'warn' });
  // Only what /health reads: no models, no store (the bench must not touch a data dir).
  const models = new Map<string, never>();
  const services = { startedAt: performance.now(), models, metrics: new Metrics(), readiness: new Readiness(() => models.values(), { stallDeadlineMs: 30_000, maxQueue: 1024 }) };
  let port: number;
  if (kind === 'node') {
    const server = createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/health') {
        const body = JSON.stringify({ status: 'ok', uptime_seconds: uptimeSeconds(services), models: [...services.models.keys()] });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      } else {
        res.writeHead(404).end();
      }
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  } else if (kind === 'uws-bare') {
    const app = uWS.App().get('/health', (res) => {
      const body = JSON.stringify({ status: 'ok', uptime_seconds: uptimeSeconds(services), models: [...services.models.keys()] });
      res.writeHeader('content-type', 'application/json').end(body);
    });
    port = await new Promise<number>((r) => app.listen('127.0.0.1', 0, (ls) => r(uWS.us_socket_local_port(ls as uWS.us_listen_socket))));
  } else {
    const server = createHttpServer({
      name: 'main',
      routes: healthRoutes(services),
      logger,
      metrics: services.metrics,
      apiKeys: config.apiKeys,
      maxBody: config.maxBody ?? DEFAULT_MAX_BODY,
    });
    port = await server.listen('127.0.0.1', 0);
  }
  process.stderr.write(JSON.stringify({ port }) + '\n');
}

const kind = process.argv[2];
if (kind !== 'uws' && kind !== 'uws-nolog' && kind !== 'uws-bare' && kind !== 'node') {
  console.error('usage: health-servers.js uws|uws-nolog|uws-bare|node');
  process.exit(2);
}
process.on('SIGINT', () => process.exit(0)); // a clean exit lets --cpu-prof write its profile
void main(kind);
