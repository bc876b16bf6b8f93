// Branch parentv: a child shown under one parent's head goes under that parent's copy. The cases
// that revealed the class were YAML (a compose service's `volumes:` after `api:` and a marker, a
// step's `if:` in one of several jobs); these guards are Java, TypeScript, CSS and Go, hand-written.
import { describe, expect, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';
import { opensBlock, splitLines } from '../../src/apply/lines.js';
import { splitUpdate } from '../../src/apply/merge-context.js';
import { crossMarkerHeads } from '../../src/apply/shown-heads.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

await ensureAllGrammars();


describe('parentv: the head shown above a marker says which parent a child belongs to', () => {
  it('a new Java method goes into the nested class shown, not over its namesake in the other one (syntax pass)', () => {
    const retry = ['    public static class RetryPolicy {', '        private int attempts = 3;', '', '        public void reset() {', '            attempts = 3;', '        }', '    }'];
    const limitHead = ['    public static class RateLimit {', '        private int perMinute = 60;', '', '        public int perMinute() {', '            return perMinute;', '        }'];
    const reset = ['        public void reset() {', '            perMinute = 60;', '        }'];
    const code = lines(['public class Limits {', ...retry, '', ...limitHead, '    }', '}']);
    const update = lines(['    public static class RateLimit {', '        // ... existing code ...', '', ...reset, '    }']);
    mergedEverywhere(code, update, lines(['public class Limits {', ...retry, '', ...limitHead, '', ...reset, '    }', '}']));
  });

  it('a TypeScript method shown after a class head and a marker is not anchored in the other class that has it', () => {
    const a = ['export class Orders {', '  list() {', '    return this.db.all("orders");', '  }', '', '  purge(id: string) {', '    return this.db.drop("orders", id);', '  }', '}'];
    const b = ['export class Refunds {', '  list() {', '    return this.db.all("refunds");', '  }', '}'];
    const purge = ['  purge(id: string) {', '    return this.db.drop("orders", id);', '  }'];
    const code = lines([...a, '', ...b]);
    const update = lines(['export class Refunds {', '  // ...', '', ...purge, '}']);
    mergedEverywhere(code, update, lines([...a, '', ...b.slice(0, 4), '', ...purge, '}']));
  });

  it('a CSS rule shown under `@media print {` and a marker goes into that block', () => {
    const code = lines(['.card {', '  padding: 16px;', '  color: #222;', '}', '', '@media print {', '  .nav {', '    display: none;', '  }', '}']);
    const update = lines(['@media print {', '  /* ... */', '', '  .card {', '    padding: 0;', '  }', '}']);
    mergedEverywhere(code, update, lines(['.card {', '  padding: 16px;', '  color: #222;', '}', '', '@media print {', '  .nav {', '    display: none;', '  }', '', '  .card {', '    padding: 0;', '  }', '}']));
  });

  it('a Python method shown alone, re-indented, edits the twin whose body holds its lines, not the one at its indentation', () => {
    const top = ['class Job:', '    def label(self):', '        return self.name', ''];
    const twin = (cls: string, field: string) => [`    class ${cls}:`, '        def label(self):', '            parts = [self.kind]', `            parts.append(self.${field})`, '            return "/".join(parts)', ''];
    const code = lines([...top, ...twin('Input', 'path'), ...twin('Output', 'bucket').slice(0, -1)]);
    const update = lines(['    def label(self):', '        parts = [self.kind]', '        parts.append(self.bucket)', '        parts.append(self.region)', '        return "/".join(parts)']);
    const edited = twin('Output', 'bucket').slice(0, -1);
    edited.splice(4, 0, '            parts.append(self.region)');
    mergedEverywhere(code, update, lines([...top, ...twin('Input', 'path'), ...edited]));
  });

  it('a head carries over a marker only from a segment of heads alone', () => {
    const code = lines(['package s', '', 'func a() {', '\tx := 1', '}', '', 'func b() {', '\ty := 2', '}']);
    const heads = (update: string) => {
      const split = splitUpdate(update, splitLines(code), code);
      return crossMarkerHeads(split.segments, opensBlock);
    };
    // `func b() {` shown alone, then a marker indented under it: the next lines are b's.
    expect(heads(lines(['func b() {', '\t// ...', '\tz := 3', '}']))[1]![0]).toEqual([0, 0]);
    // A hunk ending on `func b() {` as context: the marker may stand for b's body and more.
    expect(heads(lines(['\tx := 1', '}', '', 'func b() {', '\t// ...', '\tz := 3', '}']))[1]![0]).toBeNull();
    // A marker at the head's own depth stands for siblings of it: no head carried.
    expect(heads(lines(['func b() {', '// ...', '\tz := 3', '}']))[1]![0]).toBeNull();
  });
});
