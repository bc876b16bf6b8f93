// /v1/predict input rules: SPEC.md's bounds at and beyond their limits, real rrweb recordings
// accepted as they are, bad lines named, and only complete event lines passed on.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors.js';
import { FrameReader, encodeFrame, bytesToTokens, tokensToBytes } from '../../src/predict/kv-frames.js';
import { completeEventLines, parsePredictRequest } from '../../src/predict/request.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/rrweb');
const recordings = readdirSync(FIXTURES).filter((f) => f.endsWith('.ndjson'));
const prompt = readFileSync(join(FIXTURES, recordings[0] as string), 'utf8');

function rejects(body: unknown): ApiError {
  try {
    parsePredictRequest(body);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    return err as ApiError;
  }
  throw new Error('expected a 400');
}

describe('parsePredictRequest', () => {
  it('accepts every real rrweb recording as is, full snapshots included', () => {
    expect(recordings.length).toBeGreaterThanOrEqual(3);
    for (const name of recordings) {
      const text = readFileSync(join(FIXTURES, name), 'utf8');
      const req = parsePredictRequest({ prompt: text });
      expect(req.lines.length).toBe(text.trim().split('\n').length);
      expect(req.maxTokens).toBe(50);
      expect(req.temperature).toBeCloseTo(0.3);
    }
  });

  it('takes the bounds at their limits and rejects beyond them', () => {
    expect(parsePredictRequest({ prompt, max_tokens: 1 }).maxTokens).toBe(1);
    expect(parsePredictRequest({ prompt, max_tokens: 512 }).maxTokens).toBe(512);
    expect(parsePredictRequest({ prompt, temperature: 0 }).temperature).toBe(0);
    expect(parsePredictRequest({ prompt, temperature: 2 }).temperature).toBe(2);
    expect(rejects({ prompt, max_tokens: 0 }).message).toMatch(/max_tokens/);
    expect(rejects({ prompt, max_tokens: 513 }).message).toMatch(/max_tokens/);
    expect(rejects({ prompt, max_tokens: 1.5 }).message).toMatch(/max_tokens/);
    expect(rejects({ prompt, temperature: -0.01 }).message).toMatch(/temperature/);
    expect(rejects({ prompt, temperature: 2.01 }).message).toMatch(/temperature/);
    expect(rejects({ prompt, temperature: '0.5' }).message).toMatch(/temperature/);
    expect(rejects({ max_tokens: 5 }).message).toMatch(/prompt/);
    expect(rejects({ prompt, stream: true }).message).toMatch(/not implemented/);
  });

  it('names the line that is not an event object', () => {
    const lines = prompt.trim().split('\n');
    expect(rejects({ prompt: [lines[0], '{"type":3', lines[1]].join('\n') }).message).toBe('prompt line 2: not valid JSON');
    expect(rejects({ prompt: [lines[0], lines[1], '{"type":"3","data":{}}'].join('\n') }).message).toMatch(/^prompt line 3: not an event object/);
    expect(rejects({ prompt: '{"type":3,"data":[]}' }).message).toMatch(/^prompt line 1/);
    expect(rejects({ prompt: '[1,2]' }).message).toMatch(/^prompt line 1/);
    expect(rejects({ prompt: '\n \n' }).message).toMatch(/at least one event/);
  });

  it('never judges the integer values (rrweb and SPEC numbering differ)', () => {
    const req = parsePredictRequest({ prompt: '{"type":99,"data":{"source":42}}\r\n{"type":-1,"data":{}}\n' });
    expect(req.lines).toEqual(['{"type":99,"data":{"source":42}}', '{"type":-1,"data":{}}']);
  });
});

describe('completeEventLines', () => {
  it('keeps complete event lines and drops a cut-off last line', () => {
    expect(completeEventLines('{"type":3,"data":{"source":2}}\n{"type":3,"data":{"x":1}}\n{"type":3,"da')).toEqual(['{"type":3,"data":{"source":2}}', '{"type":3,"data":{"x":1}}']);
    expect(completeEventLines('{"type":3,"data":{}}')).toEqual([]);
    expect(completeEventLines('')).toEqual([]);
    expect(completeEventLines('{"type":3}\n{"type":3,"data":{}}\n')).toEqual(['{"type":3,"data":{}}']);
  });
});

describe('KV frames', () => {
  it('round-trip through a reader fed one byte at a time', () => {
    const tokens = new Uint32Array([1, 2, 151643, 7]);
    const frames = [
      encodeFrame({ t: 'layout', layout: { modelFingerprint: 'abc', blockTokens: 16, nLayers: 2, kvDim: 4, dtype: 'f32' } }),
      encodeFrame({ t: 'block', index: 3, data: new Uint8Array([9, 8, 7]) }),
      encodeFrame({ t: 'end', blocks: 1, prefillMs: 1.5 }),
    ];
    const all = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const f of frames) {
      all.set(f, at);
      at += f.length;
    }
    const reader = new FrameReader();
    const got = [];
    for (const byte of all) got.push(...reader.push(new Uint8Array([byte])));
    expect(got.map((f) => f.t)).toEqual(['layout', 'block', 'end']);
    expect(got[1]).toEqual({ t: 'block', index: 3, data: new Uint8Array([9, 8, 7]) });
    expect(reader.pendingBytes).toBe(0);
    // Whole stream in one chunk (frames come back as views of it), and split at every offset.
    const whole = new FrameReader().push(all);
    expect(whole).toEqual(got);
    for (let cut = 1; cut < all.length; cut++) {
      const r = new FrameReader();
      expect([...r.push(all.subarray(0, cut)), ...r.push(all.subarray(cut))]).toEqual(got);
      expect(r.pendingBytes).toBe(0);
    }
    expect(Array.from(bytesToTokens(tokensToBytes(tokens)))).toEqual(Array.from(tokens));
  });
});
