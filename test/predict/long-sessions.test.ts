// Sessions longer than the context through the real service (a child process) on the built-in
// model shape with a 1024-token context, so windows are small and fast: answered 200 with valid
// event lines and the dropped count reported, a 20 MB prompt with a full snapshot included, and a
// growing session whose requests keep hitting the prefix cache across window jumps.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSvc, type SvcProcess } from '../../src/bench/svc-process.js';
import { getTestModel } from '../helpers/models.js';
import { longSession } from '../../bench/predict/sessions.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/rrweb');
const recordings = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.ndjson'))
  .map((f) => readFileSync(join(FIXTURES, f), 'utf8').trim().split('\n'));

interface Answer {
  status: number;
  dropped: number;
  json: { text: string; tokens_generated: number; usage: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } }; detail?: string };
}

async function predict(url: string, body: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${url}/v1/predict`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, dropped: Number(res.headers.get('x-prompt-events-dropped') ?? NaN), json: (await res.json()) as Answer['json'] };
}

function expectEventLines(text: string): void {
  if (text === '') return;
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    const e = JSON.parse(line) as { type: unknown; data: unknown };
    expect(Number.isInteger(e.type)).toBe(true);
    expect(typeof e.data === 'object' && e.data !== null && !Array.isArray(e.data)).toBe(true);
  }
}

describe('sessions longer than the context', () => {
  const CTX = 1024;
  let svc: SvcProcess;

  beforeAll(async () => {
    const model = await getTestModel({ ctx: CTX });
    svc = await startSvc(['predict', '--role', 'standalone', '--port', '0', '--model', model, '--threads', '1', '--data-dir', mkdtempSync(join(tmpdir(), 'svc-long-'))]);
  }, 240_000);

  afterAll(async () => {
    await svc?.stop('SIGKILL');
  });

  it('answers a session of many contexts with the latest events and reports what it dropped', async () => {
    const lines = longSession(recordings, 400);
    const r = await predict(svc.url, { prompt: lines.join('\n'), max_tokens: 24, temperature: 0 });
    expect(r.status).toBe(200);
    expect(r.dropped).toBeGreaterThan(0);
    expect(r.dropped).toBeLessThan(lines.length);
    expect(r.json.usage.prompt_tokens).toBeLessThanOrEqual(CTX - 24);
    expect(r.json.tokens_generated).toBeGreaterThan(0);
    expectEventLines(r.json.text);
    // A short session is untouched.
    const short = await predict(svc.url, { prompt: (recordings[1] as string[]).slice(2, 8).join('\n'), max_tokens: 8, temperature: 0 });
    expect(short.status).toBe(200);
    expect(short.dropped).toBe(0);
  }, 60_000);

  it('answers a 20 MB prompt with a full snapshot (it keeps the recent events, drops the snapshot)', async () => {
    const [meta, snapshot] = longSession(recordings, 2) as [string, string];
    // One multi-megabyte full snapshot (a real snapshot's DOM repeated), then a long tail.
    const snap = JSON.parse(snapshot) as { data: { node: { childNodes: unknown[] } } };
    for (let copies = 1; copies * snapshot.length < 4_000_000; copies *= 2) snap.data.node.childNodes = [...snap.data.node.childNodes, ...snap.data.node.childNodes];
    const lines = [meta, JSON.stringify(snap)];
    // The tail: the first 2,000 replayed events over and over (a user repeating the same moves).
    const tail = longSession(recordings, 2_002).slice(2);
    let bytes = lines[0]!.length + lines[1]!.length;
    for (let i = 0; bytes < 20_000_000; i++) {
      const line = tail[i % tail.length] as string;
      lines.push(line);
      bytes += line.length + 1;
    }
    expect(lines[1]!.length).toBeGreaterThan(4_000_000);
    const r = await predict(svc.url, { prompt: lines.join('\n'), max_tokens: 16, temperature: 0 });
    expect(r.status).toBe(200);
    expect(r.dropped).toBeGreaterThan(lines.length - 100);
    expect(r.json.usage.prompt_tokens).toBeLessThanOrEqual(CTX - 16);
    expectEventLines(r.json.text);
  }, 120_000);

  it('keeps a growing session on the prefix cache: each request of a window reuses most of the last', async () => {
    const lines = longSession(recordings, 260, 7);
    let prevDropped = -1;
    let windows = 0;
    let sameWindow = 0;
    for (let n = 20; n <= lines.length; n += 2) {
      const r = await predict(svc.url, { prompt: lines.slice(0, n).join('\n'), max_tokens: 4, temperature: 0 });
      expect(r.status).toBe(200);
      const { prompt_tokens: prompt, prompt_tokens_details: details } = r.json.usage;
      // The same dropped count means the same window start: the prompt extends the last one.
      if (r.dropped === prevDropped) {
        sameWindow++;
        expect(details.cached_tokens).toBeGreaterThan(0.5 * prompt);
      } else {
        windows++;
      }
      prevDropped = r.dropped;
    }
    expect(windows).toBeGreaterThan(2); // the session did outgrow the context several times
    expect(sameWindow).toBeGreaterThan(3 * windows);
  }, 120_000);

  it('refuses a prompt whose last event alone exceeds the context', async () => {
    const r = await predict(svc.url, { prompt: JSON.stringify({ type: 3, data: { source: 5, text: 'z'.repeat(40_000) } }), max_tokens: 8 });
    expect(r.status).toBe(400);
    expect(r.json.detail).toMatch(/context/);
  });
});
