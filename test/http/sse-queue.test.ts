// SseQueue against a recording SseWriter: lazy open, keep-alive pings, ordering, early exits.
import { describe, expect, it } from 'vitest';
import type { RequestContext, SseEvent, SseWriter } from '../../src/http/types.js';
import { SseQueue } from '../../src/http/sse-queue.js';

function fakeCtx(): { ctx: RequestContext; log: string[]; abort: () => void; opened: () => number } {
  const log: string[] = [];
  const ac = new AbortController();
  let opens = 0;
  let ended = false;
  // Logs every event on its own, whether it came alone, in a batch or with the end.
  const logEvent = (e: SseEvent) => log.push(`${e.event ?? '-'}:${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}`);
  const writer: SseWriter = {
    send: async (data, name) => void logEvent({ data, ...(name ? { event: name } : {}) }),
    sendBatch: async (events) => void events.forEach(logEvent),
    comment: async (text) => void log.push(`#${text}`),
    end: (last) => {
      last?.forEach(logEvent);
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

  it('writes the events of one synchronous run as one batch, and the end with what is still held', async () => {
    const writes: string[] = [];
    const ac = new AbortController();
    const fmt = (events: readonly SseEvent[]) => events.map((e) => `${e.event ?? '-'}:${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}`).join(',');
    let ended = false;
    const writer: SseWriter = {
      send: async (data, name) => void writes.push(fmt([{ data, ...(name ? { event: name } : {}) }])),
      sendBatch: async (events) => void writes.push(`batch[${fmt(events)}]`),
      comment: async (text) => void writes.push(`#${text}`),
      end: (last) => {
        ended = true;
        writes.push(`end[${fmt(last ?? [])}]`);
      },
      get closed() {
        return ended || ac.signal.aborted;
      },
    };
    const q = new SseQueue({ signal: ac.signal, sse: () => writer } as unknown as RequestContext, null);
    q.send('a', 'start');
    q.send('b');
    expect(q.started).toBe(true);
    expect(writes).toEqual([]); // held until the synchronous run is over
    await Promise.resolve();
    expect(writes).toEqual(['batch[start:a,-:b]']);
    q.send('c');
    q.send('d');
    await q.end([{ data: '[DONE]' }]);
    expect(writes).toEqual(['batch[start:a,-:b]', 'end[-:c,-:d,-:[DONE]]']);
  });
});

