// Guard of branch placepos (docs/apply.md): a last segment with no anchor, after a marker, that is a
// new definition followed by the closers of the blocks it goes into (`}` of the object or class):
// it goes before those closers and its closers are the original's, not new ones written before them
// (unanchored-placement.ts closersAt, outerClosersStart). Main wrote the closer twice (cn scala01,
// probes-kindx ts01) or matched the segment's `{`/`}` against the last method's and lost its body
// (probes-placepos java01, php01).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';
import { BOTH_MODES, lines, mergedEverywhere } from './judged.js';

const benchCase = (dir: string): { code: string; update: string; expected: string; instruction: string | null } => {
  const read = (f: string): string => readFileSync(join('bench/apply', dir, f), 'utf8');
  return { code: read('original'), update: read('update'), expected: read('expected'), instruction: JSON.parse(read('meta.json')).instruction ?? null };
};

beforeAll(async () => {
  await Promise.all((['typescript', 'java', 'php', 'kotlin'] as const).map((id) => ensureGrammar(id)));
});

describe('an anchorless new definition with the closers of the blocks it goes into (placepos)', () => {
  it('cn scala01: a new function after a marker, then the object\'s `}`: appended inside the object, one `}`', () => {
    const c = benchCase('external-2026-11-29cn/scala01-spark-add-time-decay-model');
    mergedEverywhere(c.code, c.update, c.expected, c.instruction, BOTH_MODES);
  });

  it('probes-kindx ts01: a new method after a marker, then the class\'s `}`', () => {
    const c = benchCase('probes-kindx/ts01-field-between-markers-then-new-method');
    mergedEverywhere(c.code, c.update, c.expected, c.instruction, BOTH_MODES);
  });

  it('probes-placepos java01: a new method copying lines of the last one is not matched over it', () => {
    const c = benchCase('probes-placepos/java01-service-new-method-after-constructor-hunk');
    mergedEverywhere(c.code, c.update, c.expected, c.instruction, BOTH_MODES);
  });

  it('probes-placepos php01: the new method\'s `{` and `}` do not stand for the last method\'s', () => {
    const c = benchCase('probes-placepos/php01-repository-new-method-after-marker');
    mergedEverywhere(c.code, c.update, c.expected, c.instruction, BOTH_MODES);
  });

  it('control (exact on main too): the class head shown above the marker anchors the segment; `}` written once', () => {
    const cls = (extra: string[]): string[] => [
      'export class Inbox {', '  private items: string[] = [];', '', '  add(item: string): void {', '    this.items.push(item);', '  }', '',
      '  count(): number {', '    return this.items.length;', '  }', ...extra, '}'];
    const clear = ['', '  clear(): void {', '    this.items = [];', '  }'];
    const code = lines(cls([]));
    const update = lines(['export class Inbox {', '  // ... existing members ...', ...clear, '}']);
    mergedEverywhere(code, update, lines(cls(clear)), null, BOTH_MODES);
  });

  it('control: a segment whose last `}` closes its own block is inserted whole, nothing paired, nothing lost', () => {
    const code = lines(['export class Inbox {', '  add(item: string): void {', '    this.items.push(item);', '  }', '}', '', 'export const VERSION = 1;']);
    const update = lines(['// ... existing code ...', '', 'export function makeInbox(): Inbox {', '  return new Inbox();', '}']);
    for (const mode of BOTH_MODES) {
      const out = mergeApply({ code, update, instruction: null }, mode).content;
      expect(checkLoss(code, update, null, out).lost, mode).toEqual([]);
      expect(out, mode).toBe(code + '\nexport function makeInbox(): Inbox {\n  return new Inbox();\n}\n');
    }
  });
});
