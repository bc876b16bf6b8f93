// Background worker threads (batch validation) run nicer than the event loop
// (src/engine/background-nice.ts): the calling worker thread's nice goes up by the increment, the
// main thread is never touched, and SVC_BACKGROUND_NICE sets the increment (0 = off).
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { backgroundNice, DEFAULT_BACKGROUND_NICE, markBackgroundThread } from '../../src/engine/background-nice.js';
import { distFile } from '../../src/paths.js';

/** Field 19 of /proc/<..>/stat: the thread's nice value. */
const niceOf = (stat: string): number => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);

const COMPILED = distFile('src/engine/background-nice.js');

/** Runs markBackgroundThread(env) in a fresh worker thread; its result and the thread's nice. */
function inWorker(env: Record<string, string>): Promise<{ result: number | null; nice: number }> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { readFileSync } = require('node:fs');
    import(workerData.module).then((m) => {
      const result = m.markBackgroundThread(workerData.env);
      parentPort.postMessage({ result, stat: readFileSync('/proc/thread-self/stat', 'utf8') });
    });`;
  const w = new Worker(code, { eval: true, workerData: { module: pathToFileURL(COMPILED).href, env } });
  return new Promise((resolve, reject) => {
    w.once('error', reject);
    w.once('message', (m: { result: number | null; stat: string }) => {
      void w.terminate();
      resolve({ result: m.result, nice: niceOf(m.stat) });
    });
  });
}

describe('background worker threads', () => {
  it('parses SVC_BACKGROUND_NICE', () => {
    expect(backgroundNice({})).toBe(DEFAULT_BACKGROUND_NICE);
    expect(backgroundNice({ SVC_BACKGROUND_NICE: '0' })).toBe(0);
    expect(backgroundNice({ SVC_BACKGROUND_NICE: '5' })).toBe(5);
    expect(backgroundNice({ SVC_BACKGROUND_NICE: '20' })).toBe(DEFAULT_BACKGROUND_NICE);
    expect(backgroundNice({ SVC_BACKGROUND_NICE: 'x' })).toBe(DEFAULT_BACKGROUND_NICE);
  });

  it('never changes the main thread', () => {
    const before = niceOf(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'));
    expect(markBackgroundThread({})).toBeNull();
    expect(niceOf(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'))).toBe(before);
  });

  it.skipIf(!existsSync(COMPILED))('makes the calling worker thread, and only it, nicer', async () => {
    const own = niceOf(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'));
    const marked = await inWorker({ SVC_BACKGROUND_NICE: '7' });
    expect(marked.nice).toBe(Math.min(19, own + 7));
    expect(marked.result).toBe(marked.nice);
    const off = await inWorker({ SVC_BACKGROUND_NICE: '0' });
    expect(off).toEqual({ result: null, nice: own });
    expect(niceOf(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8'))).toBe(own);
  });
});
