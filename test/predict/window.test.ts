// Windowing of sessions longer than the context (src/predict/window.ts) with the real tokenizer
// of the built-in model over real rrweb recordings: whole events only, the meta event and the
// latest full snapshot kept, and a window start that a growing session keeps until it has to jump.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readGgufHeader } from '../../src/gguf/gguf-reader.js';
import { createTokenizer } from '../../src/tokenizer/index.js';
import { eventKind } from '../../src/predict/events.js';
import { LineTokenizer, preparePrompt } from '../../src/predict/prompt-tokens.js';
import { parsePredictRequest } from '../../src/predict/request.js';
import { chooseWindow, MIN_FILL, SNAPSHOT_SHARE, type SessionLines } from '../../src/predict/window.js';
import { getTestModel } from '../helpers/models.js';
import { longSession } from '../../bench/predict/sessions.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/rrweb');
const recordings = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.ndjson'))
  .map((f) => readFileSync(join(FIXTURES, f), 'utf8').trim().split('\n'));

let lineTokens: LineTokenizer;

beforeAll(async () => {
  const path = await getTestModel();
  lineTokens = new LineTokenizer(createTokenizer(readGgufHeader(path).metadata));
}, 120_000);

function session(lines: string[]): SessionLines {
  const req = parsePredictRequest({ prompt: lines.join('\n') });
  return { lines: req.lines, kinds: req.kinds, tokens: (i) => lineTokens.line(req.lines[i] as string).length };
}

function tokensOf(s: SessionLines, kept: number[]): number {
  return kept.reduce((n, i) => n + s.tokens(i), 0);
}

describe('eventKind', () => {
  it('tells meta events and full snapshots apart in both numberings', () => {
    // rrweb: Meta 4, FullSnapshot 2; SPEC.md: Meta 2.
    expect(eventKind({ type: 4, data: { href: 'http://a/', width: 800, height: 600 } })).toBe('meta');
    expect(eventKind({ type: 2, data: { href: 'http://a/', width: 800, height: 600 } })).toBe('meta');
    expect(eventKind({ type: 2, data: { node: { type: 0, childNodes: [] }, initialOffset: { left: 0, top: 0 } } })).toBe('snapshot');
    expect(eventKind({ type: 3, data: { source: 2, type: 1, id: 5, x: 1, y: 2 } })).toBe('other');
    expect(eventKind({ type: 4, data: { source: 0, adds: [], removes: [] } })).toBe('other');
    for (const lines of recordings) {
      const kinds = parsePredictRequest({ prompt: lines.join('\n') }).kinds;
      expect(kinds[0]).toBe('meta');
      expect(kinds[1]).toBe('snapshot');
      expect(kinds.slice(2)).not.toContain('meta');
    }
  });
});

describe('chooseWindow', () => {
  it('keeps every event when the session fits', () => {
    const s = session(recordings[0] as string[]);
    const all = tokensOf(s, s.lines.map((_, i) => i));
    const w = chooseWindow(s, all);
    expect(w).toMatchObject({ start: 0, dropped: 0, headerLines: 0, tokens: all });
    expect(w?.kept.length).toBe(s.lines.length);
  });

  it('keeps the meta event, the full snapshot when it fits its share, then the latest whole events', () => {
    const s = session(longSession(recordings, 600));
    const snapshotTokens = s.tokens(1);
    // A budget whose share holds the snapshot: header = meta + snapshot.
    const budget = Math.ceil(snapshotTokens / SNAPSHOT_SHARE) + 10;
    const w = chooseWindow(s, budget);
    expect(w).not.toBeNull();
    if (!w) return;
    expect(w.kept.slice(0, 2)).toEqual([0, 1]);
    expect(w.headerLines).toBe(2);
    expect(w.kept.slice(2)).toEqual(Array.from({ length: s.lines.length - w.start }, (_, k) => w.start + k));
    expect(w.kept[w.kept.length - 1]).toBe(s.lines.length - 1);
    expect(w.dropped).toBe(s.lines.length - w.kept.length);
    expect(w.dropped).toBeGreaterThan(0);
    expect(w.tokens).toBe(tokensOf(s, w.kept));
    expect(w.tokens).toBeLessThanOrEqual(budget);
    expect(w.tokens).toBeGreaterThanOrEqual(MIN_FILL * budget);

    // A budget too small for the snapshot's share: meta alone is pinned.
    const small = chooseWindow(s, Math.floor(snapshotTokens / SNAPSHOT_SHARE) - 10);
    expect(small?.kept[0]).toBe(0);
    expect(small?.kept[1]).not.toBe(1);
    expect(small?.headerLines).toBe(1);
  });

  it('moves the start of a growing session in large steps, each window a prefix of the next request', () => {
    const lines = longSession(recordings, 900);
    const budget = 2048;
    let prev: { start: number; kept: string[] } | null = null;
    let jumps = 0;
    let skippedTotal = 0;
    for (let n = 40; n <= lines.length; n += 3) {
      const s = session(lines.slice(0, n));
      const w = chooseWindow(s, budget);
      expect(w).not.toBeNull();
      if (!w) return;
      expect(w.tokens).toBeLessThanOrEqual(budget);
      const kept = w.kept.map((i) => s.lines[i] as string);
      if (prev && w.start === prev.start) {
        // Same window: the previous prompt's events are this prompt's first events.
        expect(kept.slice(0, prev.kept.length)).toEqual(prev.kept);
      } else if (prev) {
        jumps++;
        expect(w.start).toBeGreaterThan(prev.start);
        // A jump skips far more than the three new events: about half the budget.
        const skipped = tokensOf(s, Array.from({ length: w.start - prev.start }, (_, k) => prev!.start + k));
        expect(skipped).toBeGreaterThan(budget / 5);
        skippedTotal += skipped;
      }
      prev = { start: w.start, kept };
    }
    expect(jumps).toBeGreaterThan(2);
    // On average a jump skips at least a third of the budget (so a growing session changes its
    // prefix once per third of a context of new events at most).
    expect(skippedTotal / jumps).toBeGreaterThan(budget / 3);
  });

  it('returns null when not even the last event fits, and never cuts an event', () => {
    const s = session(['{"type":3,"data":{"source":5,"text":"' + 'x'.repeat(5000) + '"}}']);
    expect(chooseWindow(s, 100)).toBeNull();
  });
});

describe('preparePrompt', () => {
  it('gives BOS and the kept lines as one token sequence, and refuses what cannot fit', () => {
    const lines = longSession(recordings, 300);
    const body = Buffer.from(JSON.stringify({ prompt: lines.join('\n'), max_tokens: 16 }));
    const p = preparePrompt(body, lineTokens, 1024);
    expect(p.tokens.length).toBeLessThanOrEqual(1024 - 16);
    expect(p.eventsDropped).toBeGreaterThan(0);
    expect(p.events).toBe(lines.length);
    const expected = [lineTokens.prefix, ...[0, ...Array.from({ length: lines.length - p.windowStart }, (_, k) => p.windowStart + k)].map((i) => lineTokens.line(lines[i] as string))];
    expect(Array.from(p.tokens)).toEqual(expected.flatMap((t) => Array.from(t)));
    const huge = Buffer.from(JSON.stringify({ prompt: '{"type":3,"data":{"text":"' + 'y'.repeat(20_000) + '"}}' }));
    expect(() => preparePrompt(huge, lineTokens, 1024)).toThrow(/no event of the prompt fits/);
    expect(() => preparePrompt(Buffer.from('{"prompt":'), lineTokens, 1024)).toThrow(/not valid JSON/);
  });
});
