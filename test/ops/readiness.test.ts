// GET /ready and GET /health through a whole server: 503 while the models load, with a stalled
// scheduler (the engine's test hook), with a full queue and from the start of shutdown; degraded
// health when one of two models failed to load.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { chatModelPath } from '../chat/harness.js';
import { loadModels } from '../../src/server/services.js';
import { shutdownAll } from '../../src/server/shutdown.js';
import type { LoadedModel } from '../../src/engine/types.js';
import { GREEDY_SAMPLING } from '../../src/engine/sampling.js';
import { startOpsServer, sleep, type OpsServer } from './helpers.js';

let s: OpsServer | null = null;
afterEach(async () => {
  await s?.close();
  s = null;
});

async function ready(url: string): Promise<{ status: number; body: { ready: boolean; state: string; models: Array<{ reason: string; waiting: number; running: number }> } }> {
  const res = await fetch(`${url}/ready`);
  return { status: res.status, body: (await res.json()) as never };
}

function chat(o: OpsServer, content: string, maxTokens: number) {
  const model = [...o.services.models.keys()][0]!;
  return o.openai.chat.completions.create({ model, messages: [{ role: 'user', content }], max_tokens: maxTokens, temperature: 0 });
}

describe('GET /ready', () => {
  it('is 503 while the models load and 200 once they are in; /health answers throughout', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    s = await startOpsServer([await chatModelPath()], [], {
      deferLoad: true,
      loadModels: async (config, logger, onFailure) => {
        await gate;
        return loadModels(config, logger, onFailure);
      },
    });
    const loading = s.services.load();
    const r1 = await ready(s.url);
    expect(r1.status).toBe(503);
    expect(r1.body.state).toBe('loading');
    const h = await fetch(`${s.url}/health`);
    expect(h.status).toBe(200);
    expect(((await h.json()) as { models: string[] }).models).toEqual([]);
    release();
    await loading;
    const r2 = await ready(s.url);
    expect(r2.status).toBe(200);
    expect(r2.body).toMatchObject({ ready: true, state: 'ready' });
  }, 300_000);

  it('is 503 while the scheduler is stuck with work past the deadline, 200 again once it steps', async () => {
    s = await startOpsServer([await chatModelPath()], [], { stallDeadlineMs: 300 });
    expect((await ready(s.url)).status).toBe(200);
    s.engine().debugStallScheduler(2500);
    const answer = chat(s, 'Hello there.', 8);
    let stuck: Awaited<ReturnType<typeof ready>> | null = null;
    const t0 = performance.now();
    while (performance.now() - t0 < 2000) {
      const r = await ready(s.url);
      if (r.status === 503) {
        stuck = r;
        break;
      }
      await sleep(25);
    }
    expect(stuck?.body.state).toBe('not_ready');
    expect(stuck?.body.models[0]!.reason).toMatch(/has not stepped for \d+ ms/);
    // Not before the deadline: the first 503 came at least 300 ms after the request.
    expect(performance.now() - t0).toBeGreaterThanOrEqual(280);
    await answer;
    expect((await ready(s.url)).status).toBe(200);
  }, 300_000);

  it('is 503 while the queue is at --max-queue', async () => {
    s = await startOpsServer([await chatModelPath()], ['--max-queue', '3']);
    let full: Awaited<ReturnType<typeof ready>> | null = null;
    let done = false;
    // 64 run at once; 3 may wait; the rest are refused with 503 overloaded.
    const all = Promise.allSettled(Array.from({ length: 70 }, (_, i) => chat(s!, `Story ${i}`, 48))).then((r) => {
      done = true;
      return r;
    });
    while (!done && !full) {
      const r = await ready(s.url);
      if (r.status === 503) full = r;
      else await sleep(5);
    }
    const results = await all;
    expect(full?.body.models[0]!.reason).toMatch(/queue full \(\d+ waiting, limit 3\)/);
    expect(results.filter((r) => r.status === 'rejected').length).toBeGreaterThan(0);
    expect((await ready(s.url)).status).toBe(200);
  }, 300_000);

  it('stays ready while only batch-priority work fills the queue', async () => {
    s = await startOpsServer([await chatModelPath()], ['--max-queue', '3']);
    const m = s.services.models.values().next().value as LoadedModel;
    const prompt = await m.tokenize('batch line');
    let done = false;
    const all = Promise.all(
      Array.from({ length: 80 }, () => m.generate({ prompt, maxTokens: 32, sampling: { ...GREEDY_SAMPLING, logitBias: {} }, priority: 'batch' }, () => {})),
    ).then(() => (done = true));
    let maxWaiting = 0;
    let notReady = 0;
    while (!done) {
      const r = await ready(s.url);
      if (r.status !== 200) notReady++;
      maxWaiting = Math.max(maxWaiting, r.body.models[0]!.waiting);
      await sleep(5);
    }
    await all;
    expect(maxWaiting).toBeGreaterThan(3);
    expect(notReady).toBe(0);
  }, 300_000);

  it('turns 503 at once when shutdown begins, on a connection that stays open', async () => {
    s = await startOpsServer([await chatModelPath()]);
    // Two kept-alive connections: a response during the drain closes its connection.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const agent2 = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string, a = agent) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get(`${s!.url}${path}`, { agent: a }, (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    expect((await get('/ready')).status).toBe(200);
    expect((await get('/health', agent2)).status).toBe(200);
    let settled = false;
    const running = chat(s, 'A long answer, please.', 1000).finally(() => (settled = true));
    // Shutdown must begin while the stream is in flight (on a loaded machine the request can take
    // longer than any fixed sleep to reach the engine).
    while (!settled && (await ready(s.url)).body.models[0]!.running === 0) await sleep(5);
    expect(settled).toBe(false);
    const stopping = shutdownAll({ servers: [s.server], services: s.services, timeoutMs: 20_000 }, 'test');
    const r = await get('/ready');
    expect(r.status).toBe(503);
    expect(JSON.parse(r.body)).toMatchObject({ ready: false, state: 'shutting_down' });
    // Liveness still answers while the stream drains.
    expect((await get('/health', agent2)).status).toBe(200);
    agent.destroy();
    agent2.destroy();
    await running;
    await stopping;
  }, 300_000);
});

describe('GET /health', () => {
  it('reports degraded, saying why, when one of two models failed to load', async () => {
    s = await startOpsServer([await chatModelPath(), '/nonexistent/broken.gguf']);
    const res = await fetch(`${s.url}/health`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; problems: string[]; models: string[] };
    expect(body.status).toBe('degraded');
    expect(body.models).toHaveLength(1);
    expect(body.problems[0]).toMatch(/broken\.gguf failed to load/);
    // The model that loaded serves.
    expect((await ready(s.url)).status).toBe(200);
  }, 300_000);

  it('is ok with every model loaded on the device it asked for', async () => {
    s = await startOpsServer([await chatModelPath()]);
    const body = (await (await fetch(`${s.url}/health`)).json()) as { status: string; problems?: string[] };
    expect(body).toMatchObject({ status: 'ok' });
    expect(body.problems).toBeUndefined();
    const m = s.services.models.values().next().value as LoadedModel;
    expect(m.stats().gpuInUse).toBe(m.stats().gpuAvailable);
  }, 300_000);
});
