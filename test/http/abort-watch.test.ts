// watchAbort: one real 'abort' listener per signal, however many callbacks watch it; the callbacks
// watching when it aborts run once, in order; an unwatched one does not (src/abort-watch.ts).
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { primeAbortWatch, watchAbort } from '../../src/abort-watch.js';

describe('watchAbort', () => {
  it('adds one listener per signal and calls the watching callbacks once', () => {
    const c = new AbortController();
    primeAbortWatch(c.signal);
    expect(getEventListeners(c.signal, 'abort').length).toBe(1);
    const calls: string[] = [];
    watchAbort(c.signal, () => calls.push('a'));
    const unwatchB = watchAbort(c.signal, () => calls.push('b'));
    watchAbort(c.signal, () => calls.push('c'));
    expect(getEventListeners(c.signal, 'abort').length).toBe(1);
    unwatchB();
    c.abort();
    c.abort();
    expect(calls).toEqual(['a', 'c']);
    watchAbort(c.signal, () => calls.push('late')); // already aborted: never called
    expect(calls).toEqual(['a', 'c']);
  });

  it('needs no priming', () => {
    const c = new AbortController();
    let n = 0;
    watchAbort(c.signal, () => n++);
    watchAbort(c.signal, () => n++);
    expect(getEventListeners(c.signal, 'abort').length).toBe(1);
    c.abort();
    expect(n).toBe(2);
  });
});
