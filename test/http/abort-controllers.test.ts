// The request abort controllers the server keeps in stock (src/http/abort-controllers.ts): each
// one handed out is fresh (its own, unaborted signal, which allows 64 listeners), none is handed
// out twice, and the stock refills after it was taken from.
import { getEventListeners, getMaxListeners } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { abortControllersInStock, STOCK, stockAbortControllers, takeAbortController } from '../../src/http/abort-controllers.js';

describe('abort controllers in stock', () => {
  it('hands out fresh controllers, each once, and refills the stock', async () => {
    stockAbortControllers();
    expect(abortControllersInStock()).toBe(STOCK);
    const taken = Array.from({ length: STOCK + 8 }, () => takeAbortController()); // past the stock too
    expect(new Set(taken).size).toBe(taken.length);
    expect(new Set(taken.map((c) => c.signal)).size).toBe(taken.length);
    for (const c of taken) {
      expect(c.signal.aborted).toBe(false);
      expect(getMaxListeners(c.signal)).toBe(64);
      // the engine's abort listener is already on it (src/abort-watch.ts primeAbortWatch)
      expect(getEventListeners(c.signal, 'abort')).toHaveLength(1);
    }
    // Aborting one touches no other.
    taken[0]!.abort(new Error('gone'));
    expect(taken.filter((c) => c.signal.aborted)).toHaveLength(1);
    await vi.waitFor(() => expect(abortControllersInStock()).toBe(STOCK), { timeout: 10_000, interval: 10 });
    const next = takeAbortController();
    expect(taken).not.toContain(next);
    expect(next.signal.aborted).toBe(false);
  });
});
