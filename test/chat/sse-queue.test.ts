// SseQueue against a recording SseWriter: lazy open, keep-alive pings, ordering, early exits.
import { describe, expect, it } from 'vitest';
import type { RequestContext, SseWriter } from '../../src/http/types.js';
import { SseQueue } from '../../src/chat/sse-queue.js';

function fakeCtx(): { ctx: RequestContext; log: string[]; abort: () => void; opened: () => number } {
  const log: string[] = [];
  const ac = new AbortController();
  let opens = 0;
  let ended = false;
  const writer: SseWriter = {
    send: async (data, name) => void log.push(`${name ?? '-'}:${typeof data === 'string' ? data : JSON.stringify(data)}`),
    comment: async (text) => void log.push(`#${text}`),
    end: () => {
      ended = true;
      log.push('end');
    },
    get closed() {
      return ended || ac.signal.aborted;
    },
  };
  const ctx = { signal: ac.signal, sse: () => (opens++, writer) } as unknown as RequestContext;
  return { ctx, log, abort: () => ac.abort(), opened: () => opens };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SseQueue', () => {
  it('opens on the first event and keeps order', async () => {
    const f = fakeCtx();
    const q = new SseQueue(f.ctx, null);
    expect(q.started).toBe(false);
    q.send({ a: 1 });
    q.send('x', 'ev');
    await q.end();
    expect(f.log).toEqual(['-:{"a":1}', 'ev:x', 'end']);
    expect(f.opened()).toBe(1);
  });

  it('opens with pings when no event comes for a while, then stops pinging at the end', async () => {
    const f = fakeCtx();
    const q = new SseQueue(f.ctx, { openAfterMs: 20, pingEveryMs: 15 });
    await sleep(70);
    expect(q.started).toBe(true);
    const pings = f.log.filter((l) => l === '#ping').length;
    expect(pings).toBeGreaterThanOrEqual(2);
    q.send('data');
    await q.end();
    await sleep(40);
    expect(f.log.slice(-2)).toEqual(['-:data', 'end']);
  });

  it('never opens for a client that already left', async () => {
    const f = fakeCtx();
    const q = new SseQueue(f.ctx, { openAfterMs: 5, pingEveryMs: 5 });
    f.abort();
    q.send('late');
    await sleep(20);
    await q.end();
    expect(f.opened()).toBe(0);
    expect(f.log).toEqual([]);
  });
});
