// The HTTP server's side of src/intake.ts: a request to a route that generates counts as in intake
// from the moment it is taken in until it finishes (or the engine leaves it at its submit); a
// request that fails, is refused or is cut before that leaves too; other routes never count.
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { apiError } from '../../src/errors.js';
import { intakeCount, leaveIntake } from '../../src/intake.js';
import type { RequestContext, Route } from '../../src/http/types.js';
import { auth, sleep, startTestServer, type TestServer } from './helpers.js';

let srv: TestServer | null = null;
afterEach(async () => {
  await srv?.close();
  srv = null;
});

/** A gate a handler waits at, with what it saw of the intake when it got there. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await sleep(2);
  expect(cond()).toBe(true);
}

describe('requests in intake', () => {
  it('counts a generating request from its handler on, and leaves it when it finishes', async () => {
    const g = gate();
    let seen = -1;
    const route: Route = {
      method: 'POST',
      path: '/gen',
      generates: true,
      handler: async (ctx) => {
        seen = intakeCount();
        await g.opened;
        ctx.json(200, { ok: true });
      },
    };
    srv = await startTestServer([route]);
    const res = fetch(`${srv.url}/gen`, { method: 'POST', headers: auth, body: '{}' });
    await until(() => seen >= 0);
    expect(seen).toBe(1);
    expect(intakeCount()).toBe(1);
    g.open();
    expect((await res).status).toBe(200);
    expect(intakeCount()).toBe(0);
  });

  it('the engine side leaves it by the signal the route hands over; the end of the request leaves nothing twice', async () => {
    const g = gate();
    let atSubmit = -1;
    const route: Route = {
      method: 'POST',
      path: '/gen',
      generates: true,
      handler: async (ctx: RequestContext) => {
        leaveIntake(ctx.signal); // what NativeModel.run() does at the submit
        atSubmit = intakeCount();
        await g.opened;
        ctx.json(200, {});
      },
    };
    srv = await startTestServer([route]);
    const res = fetch(`${srv.url}/gen`, { method: 'POST', headers: auth, body: '{}' });
    await until(() => atSubmit >= 0);
    expect(atSubmit).toBe(0);
    g.open();
    expect((await res).status).toBe(200);
    expect(intakeCount()).toBe(0);
  });

  it('a request that fails before reaching the engine leaves', async () => {
    const route: Route = {
      method: 'POST',
      path: '/gen',
      generates: true,
      handler: async () => {
        await sleep(1);
        throw apiError('missing_api_key'); // any error before the submit
      },
    };
    srv = await startTestServer([route]);
    const res = await fetch(`${srv.url}/gen`, { method: 'POST', headers: auth, body: '{}' });
    expect(res.status).toBe(401);
    expect(intakeCount()).toBe(0);
  });

  it('a request refused before its handler (no key) never enters', async () => {
    let ran = false;
    srv = await startTestServer([{ method: 'POST', path: '/gen', generates: true, handler: (ctx) => ((ran = true), ctx.json(200, {})) }]);
    const res = await fetch(`${srv.url}/gen`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(ran).toBe(false);
    expect(intakeCount()).toBe(0);
  });

  it('a client that goes away with its body unsent leaves', async () => {
    let entered = false;
    const route: Route = {
      method: 'POST',
      path: '/gen',
      generates: true,
      handler: async (ctx) => {
        entered = true;
        await ctx.readJson(); // never completes: the client sends half the body and leaves
        ctx.json(200, {});
      },
    };
    srv = await startTestServer([route]);
    const sock = connect(srv.port, '127.0.0.1');
    await new Promise<void>((r) => sock.once('connect', () => r()));
    sock.write(`POST /gen HTTP/1.1\r\nhost: x\r\nauthorization: ${auth.authorization}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":`);
    await until(() => entered);
    expect(intakeCount()).toBe(1);
    sock.destroy();
    await until(() => intakeCount() === 0);
  });

  it('routes that do not generate never count', async () => {
    let seen = -1;
    srv = await startTestServer([{ method: 'POST', path: '/other', handler: (ctx) => ((seen = intakeCount()), ctx.json(200, {})) }]);
    const res = await fetch(`${srv.url}/other`, { method: 'POST', headers: auth, body: '{}' });
    expect(res.status).toBe(200);
    expect(seen).toBe(0);
  });
});
