// spoolBody: a request body streamed to a temp file through RequestContext.pipeBody, with the
// body reader's backpressure. Real uWS server, raw bodies from fetch.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spoolBody } from '../../src/http/body-spool.js';
import type { Route } from '../../src/http/types.js';
import { auth, sleep, startTestServer, type TestServer } from './helpers.js';

let dir: string;
let t: TestServer;
/** How long the handler waits before it takes the body (a busy loop, a slow open). */
let delayMs = 0;

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-spool-test-'));
  const route: Route = {
    method: 'POST',
    path: '/spool',
    maxBody: 64 * 1024 * 1024,
    handler: async (ctx) => {
      await sleep(delayMs);
      const body = await spoolBody(ctx, dir);
      let data: Buffer;
      try {
        data = readFileSync(body.path);
      } finally {
        // Removed before the reply: the test reads the directory as soon as the reply arrives.
        await body.remove();
      }
      ctx.json(200, { bytes: body.bytes, onDisk: data.length, sha: sha(data) });
    },
  };
  t = await startTestServer([route]);
});

afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(body: Buffer): Promise<{ bytes: number; onDisk: number; sha: string }> {
  const res = await fetch(`${t.url}/spool`, { method: 'POST', headers: auth, body });
  expect(res.status).toBe(200);
  return (await res.json()) as { bytes: number; onDisk: number; sha: string };
}

describe('spoolBody', () => {
  const body = Buffer.alloc(9 * 1024 * 1024 + 123);
  for (let i = 0; i < body.length; i++) body[i] = (i * 2654435761) >>> 24;

  it('writes the body to disk byte-exact and removes the file', async () => {
    delayMs = 0;
    expect(await post(body)).toEqual({ bytes: body.length, onDisk: body.length, sha: sha(body) });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('resumes a socket the body reader paused before the handler took the body', async () => {
    // Megabytes queue while the handler waits; the reader pauses the socket past 1 MiB, and the
    // pipe must resume it (a pause nobody lifted hung uploads on a busy machine).
    delayMs = 300;
    expect(await post(body)).toEqual({ bytes: body.length, onDisk: body.length, sha: sha(body) });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('spools an empty body', async () => {
    delayMs = 0;
    const res = await fetch(`${t.url}/spool`, { method: 'POST', headers: { ...auth, 'content-length': '0' } });
    expect(await res.json()).toEqual({ bytes: 0, onDisk: 0, sha: sha(Buffer.alloc(0)) });
  });
});
