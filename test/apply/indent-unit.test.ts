// A snippet indented by another unit than its file (indent-unit.ts), now either way round: four
// spaces a level for a file of two; an aligned continuation or a block comment's ` * ` lines do not
// make the file's unit one column. Inputs are new (Kotlin, Python).
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
});
