import { describe, expect, it } from 'vitest';
import { StopMatcher } from '../../src/chat/stop-matcher.js';

/** Feeds pieces one by one; returns what was released and the match. */
function run(stops: string[], pieces: string[]): { out: string[]; matched: string | null; rest: string } {
  const m = new StopMatcher(stops);
  const out: string[] = [];
  for (const p of pieces) {
    const r = m.push(p);
    out.push(r.emit);
    if (r.matched) return { out, matched: r.matched, rest: '' };
  }
  return { out, matched: null, rest: m.flush() };
}

describe('StopMatcher', () => {
  it('passes text through untouched without stop sequences', () => {
    expect(run([], ['a', 'b<', 'c'])).toEqual({ out: ['a', 'b<', 'c'], matched: null, rest: '' });
  });

  it('finds a stop sequence split across tokens and excludes it from the output', () => {
    const r = run(['STOP'], ['hello S', 'TO', 'P and more']);
    expect(r.matched).toBe('STOP');
    expect(r.out.join('')).toBe('hello ');
  });

  it('holds back only a possible stop prefix, releasing the rest at once', () => {
    const r = run(['###'], ['abc#', '#x', 'yz']);
    expect(r.out).toEqual(['abc', '##x', 'yz']);
    expect(r.matched).toBeNull();
  });

  it('releases held text at the end of generation', () => {
    const r = run(['END'], ['the E', 'N']);
    expect(r.out.join('')).toBe('the ');
    expect(r.rest).toBe('EN');
  });

  it('picks the earliest of several stop sequences', () => {
    const r = run(['world', 'lo w'], ['hello world']);
    expect(r.matched).toBe('lo w');
    expect(r.out.join('')).toBe('hel');
  });

  it('matches a stop sequence inside one token', () => {
    const r = run(['\n\n'], ['a\n\nb']);
    expect(r).toEqual({ out: ['a'], matched: '\n\n', rest: '' });
  });

  it('ignores empty stop strings', () => {
    expect(run([''], ['abc']).out).toEqual(['abc']);
  });
});
