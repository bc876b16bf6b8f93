// A prefiller + decoder pair as real processes when the prefiller fails: a --prefiller that is not
// a prefiller keeps the decoder degraded; a killed prefiller leaves a decoder that answers every
// request (as standalone would), asks the dead address nothing while degraded, and imports blocks
// again once the prefiller is back.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SvcProcess } from '../../src/bench/svc-process.js';
import { health, predict, recordings, startRoles, type RoleProcesses } from './roles-harness.js';

describe('a decoder whose prefiller fails', () => {
  let roles: RoleProcesses;
  let standalone: SvcProcess;
  let prefiller: SvcProcess;
  let decoder: SvcProcess;
  let prefillerPort: number;
  const start = (role: string, port: number, extra?: string[]) => roles.start(role, port, extra);

  beforeAll(async () => {
    roles = await startRoles();
    ({ standalone, prefiller, decoder, prefillerPort } = roles);
  }, 240_000);

  afterAll(() => roles.stopAll());

  it('says degraded when --prefiller points at a node that is not a prefiller', async () => {
    const wrong = await start('decoder', 0, ['--prefiller', standalone.url]);
    let h = await health(wrong.url);
    for (let i = 0; i < 40 && h.status !== 'degraded'; i++) {
      await new Promise((res) => setTimeout(res, 100));
      h = await health(wrong.url);
    }
    expect(h.status).toBe('degraded');
    // Later heartbeats (the standalone node does answer /health) keep it degraded.
    await new Promise((res) => setTimeout(res, 2500));
    expect((await health(wrong.url)).status).toBe('degraded');
    await wrong.stop('SIGKILL');
  }, 60_000);

  it('keeps answering when the prefiller dies, asks it nothing while degraded, and recovers when it returns', async () => {
    // Sessions the decoder has never seen, so each must be prefilled somewhere.
    const session = (k: number) => {
      const meta = JSON.stringify({ type: 4, data: { href: `http://app.test/after-prefiller-loss/${k}`, width: 800, height: 600 }, timestamp: 1 });
      return { prompt: [meta, ...(recordings[2] as string[]).slice(1, 8)].join('\n'), max_tokens: 24, temperature: 0 };
    };
    const expected = await predict(standalone.url, session(0));
    await prefiller.stop('SIGKILL');
    // Something else now answers on the prefiller's port and counts what the decoder asks of it.
    const asked: string[] = [];
    const stub = createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"not a prefiller"}');
    });
    await new Promise<void>((res) => stub.listen(prefillerPort, '127.0.0.1', res));
    try {
      // Before the heartbeat notices, a request tries the prefiller once, then prefills locally.
      const first = await predict(decoder.url, session(0));
      expect(first.status).toBe(200);
      expect(first.json.text).toBe(expected.json.text);
      let h = await health(decoder.url);
      for (let i = 0; i < 60 && h.status !== 'degraded'; i++) {
        await new Promise((res) => setTimeout(res, 100));
        h = await health(decoder.url);
      }
      expect(h.status).toBe('degraded');
      const before = h.kv_transfer;
      asked.length = 0;
      for (let k = 1; k <= 2; k++) {
        const want = await predict(standalone.url, session(k));
        const got = await predict(decoder.url, session(k));
        expect(got.status).toBe(200);
        expect(got.json.text).toBe(want.json.text);
      }
      const after = (await health(decoder.url)).kv_transfer;
      expect(asked.filter((a) => a.includes('/v1/kv/prefill'))).toEqual([]);
      expect(after.prefill_requests).toBe(before.prefill_requests);
      expect(after.local_prefills_while_degraded).toBe(before.local_prefills_while_degraded + 2);
    } finally {
      await new Promise((res) => stub.close(res));
    }
    prefiller = await start('prefiller', prefillerPort);
    let status = 'degraded';
    for (let i = 0; i < 40 && status !== 'healthy'; i++) {
      await new Promise((res) => setTimeout(res, 250));
      status = (await health(decoder.url)).status as string;
    }
    expect(status).toBe('healthy');
    // Back to importing from the prefiller.
    const before = (await health(decoder.url)).kv_transfer;
    const want = await predict(standalone.url, session(9));
    const got = await predict(decoder.url, session(9));
    expect(got.json.text).toBe(want.json.text);
    const after = (await health(decoder.url)).kv_transfer;
    expect(after.prefill_requests).toBe(before.prefill_requests + 1);
    expect(after.blocks_imported).toBeGreaterThan(before.blocks_imported);
  }, 120_000);
});
