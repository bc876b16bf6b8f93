// Starts a real uWS server on an ephemeral port with test routes and a log collector.
import { createHttpServer, type HttpServer, type HttpServerOptions } from '../../src/http/server.js';
import { createLogger } from '../../src/log.js';
import { Metrics } from '../../src/metrics.js';
import type { Route } from '../../src/http/types.js';

export const TEST_KEY = 'sk-test-0123456789abcdef';

export interface TestServer {
  server: HttpServer;
  url: string;
  port: number;
  logs: Array<Record<string, unknown>>;
  metrics: Metrics;
  close(): Promise<void>;
}

export async function startTestServer(routes: Route[], opts: Partial<HttpServerOptions> = {}): Promise<TestServer> {
  const logs: Array<Record<string, unknown>> = [];
  const metrics = new Metrics();
  const server = createHttpServer({
    name: 'test',
    routes,
    logger: createLogger({ level: 'debug', sink: (line) => logs.push(JSON.parse(line) as Record<string, unknown>) }),
    metrics,
    apiKeys: [TEST_KEY],
    maxBody: 1024 * 1024,
    ...opts,
  });
  const port = await server.listen('127.0.0.1', 0);
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    port,
    logs,
    metrics,
    close: async () => {
      await server.shutdown(1000);
    },
  };
}

export const auth = { authorization: `Bearer ${TEST_KEY}` };

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
