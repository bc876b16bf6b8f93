// A merged file that no longer parses where its original did is read again the other ways the
// pipeline has, and the first reading that parses, puts back no original line and keeps every update
// line the first result held answers (parsing-alternative.ts). Revealed by o java04 and ah py14 (a
// method shown without its class, spliced by the greedy alignment into the wrong twin; the global
// alignment parses); the guard is a Go file with hand-made readings, so each condition is checked.
import { beforeAll, describe, expect, it } from 'vitest';
import type { MergeResult } from '../../src/apply/merge.js';
import { parsingAlternative } from '../../src/apply/parsing-alternative.js';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';

const code = 'package cache\n\nimport "time"\n\ntype Entry struct {\n\tValue   []byte\n\tExpires time.Time\n}\n\nfunc (e Entry) Fresh(now time.Time) bool {\n\treturn now.Before(e.Expires)\n}\n';
const update = 'func (e Entry) Fresh(now time.Time) bool {\n\treturn e.Expires.IsZero() || now.Before(e.Expires)\n}';
const good = code.replace('\treturn now.Before(e.Expires)\n', '\treturn e.Expires.IsZero() || now.Before(e.Expires)\n');
// The edited line spliced into the struct: the closer of Fresh's body is gone with the old line.
const broken = 'package cache\n\nimport "time"\n\ntype Entry struct {\n\tValue   []byte\n\treturn e.Expires.IsZero() || now.Before(e.Expires)\n}\n\nfunc (e Entry) Fresh(now time.Time) bool {\n\treturn now.Before(e.Expires)\n';
const withoutEdit = code;

function result(content: string, restored: number[] = []): MergeResult {
  return { content, model: 'svc-v3-fast', confidence: 1, ambiguities: [], fullReplacement: false, report: { hunks: [], removedByInstruction: 0, restored, wholeFile: false } };
}

describe('a result that does not parse, read again', () => {
  beforeAll(async () => {
    expect(await ensureGrammar('go')).not.toBeNull();
  });

  it('takes the first reading that parses, loses nothing and keeps the update lines, less sure', () => {
    const tried: string[] = [];
    const alt = (how: string, r: MergeResult) => ({ how, merge: () => { tried.push(how); return r; } });
    const chosen = parsingAlternative(code, update, result(broken), [7], [
      alt('broken too', result(broken.replace('[]byte', '[]uint8'))),
      alt('put a line back', result(good, [10])),
      alt('dropped the edit', result(withoutEdit)),
      alt('right', result(good)),
      alt('never reached', result(good)),
    ]);
    expect(chosen?.content).toBe(good);
    expect(chosen!.confidence).toBeLessThan(1);
    expect(chosen!.ambiguities.join(' ')).toContain('merged again right');
    expect(tried).toEqual(['broken too', 'put a line back', 'dropped the edit', 'right']);
  });

  it('keeps the first result when no reading qualifies', () => {
    expect(parsingAlternative(code, update, result(broken), [7], [{ how: 'broken too', merge: () => result(broken) }])).toBeNull();
  });
});
