// A snippet indented by another unit than its file (indent-unit.ts), now either way round: four
// spaces a level for a file of two; an aligned continuation or a block comment's ` * ` lines do not
// make the file's unit one column. Inputs are new (Kotlin, Python). Branch reindenty: a file indented
// by tabs has a unit too (a two-space snippet goes to tabs), a line repeated under several parents at
// one depth counts, the first line inside a shared block head counts as the original's body line, and
// lines the edit wrapped into a new block move by whole levels (Lua, Swift, Go).
import { describe, expect, it } from 'vitest';
import { rescaleIndentUnit } from '../../src/apply/indent-unit.js';

const kotlin = [
  '/**',
  ' * Retry policy for outgoing calls.',
  ' */',
  'class Backoff(private val base: Long) {',
  '  fun delayFor(attempt: Int): Long {',
  '    val factor = 1L shl attempt',
  '    return base * factor',
  '  }',
  '',
  '  fun describe(): String =',
  '    "Backoff(base=$base, " +',
  '                 "max=unbounded)"',
  '}',
  '',
].join('\n');

describe('rescaleIndentUnit', () => {
  it('takes a four-space snippet down to a two-space file', () => {
    const update = '    fun delayFor(attempt: Int): Long {\n        val factor = 1L shl attempt.coerceAtMost(20)\n        return base * factor\n    }\n';
    expect(rescaleIndentUnit(update, kotlin)).toBe('  fun delayFor(attempt: Int): Long {\n    val factor = 1L shl attempt.coerceAtMost(20)\n    return base * factor\n  }\n');
  });
  it('leaves a snippet that keeps the file unit, and one whose shared lines fit its own indentation', () => {
    const same = '  fun delayFor(attempt: Int): Long {\n    return base\n  }\n';
    expect(rescaleIndentUnit(same, kotlin)).toBe(same);
    const py = 'def f():\n    if x:\n        return 1\n    return 2\n';
    const shifted = '    if x:\n        return 1\n    return 2\n';
    expect(rescaleIndentUnit(shifted, py)).toBe(shifted);
  });
  it('takes a two-space snippet to a tab-indented file, by lines repeated under two parents at one depth', () => {
    const lua = 'local Player = {}\n\nfunction Player:update(dt)\n\tif self.dead then\n\t\treturn\n\tend\n\tself.x = self.x + self.vx * dt\nend\n\nlocal Enemy = {}\n\nfunction Enemy:update(dt)\n\tif self.dead then\n\t\treturn\n\tend\n\tself.x = self.x + self.speed * dt\nend\n';
    const update = 'function Enemy:update(dt)\n  if self.dead then\n    self:respawn()\n    return\n  end\n  self.x = self.x + self.speed * dt\nend\n';
    expect(rescaleIndentUnit(update, lua)).toBe('function Enemy:update(dt)\n\tif self.dead then\n\t\tself:respawn()\n\t\treturn\n\tend\n\tself.x = self.x + self.speed * dt\nend\n');
  });
  it('reads a wrapped body by the shared head\'s body line: the moved lines shift by whole levels only once rescaled', () => {
    const swift = 'final class Loader {\n    func load() {\n        let data = try? Data(contentsOf: url)\n        decode(data)\n    }\n}\n';
    const update = 'func load() {\n  do {\n    let data = try Data(contentsOf: url)\n    decode(data)\n  } catch {\n    log(error)\n  }\n}\n';
    expect(rescaleIndentUnit(update, swift)).toBe('func load() {\n    do {\n        let data = try Data(contentsOf: url)\n        decode(data)\n    } catch {\n        log(error)\n    }\n}\n');
  });
  it('leaves a snippet in the file\'s own unit written with spaces for tabs alone', () => {
    const go = 'func run() error {\n\tif err := load(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n';
    const spaces = 'func run() error {\n    if err := load(); err != nil {\n        return fmt.Errorf("load: %w", err)\n    }\n';
    expect(rescaleIndentUnit(spaces, go)).toBe(spaces);
  });
});
