// A snippet that closes its inner blocks itself and leaves out the outer ones before a dedent (an
// `if`'s closer shown, the function's not): the outer closers are written in from the original
// (unclosed-middle.ts), and a closer shown at another depth does not count as the outer one shown.
// Inputs are new, in Ruby and Swift.
import { describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';

const ruby = [
  'class Meter',
  '  def read(sensor)',
  '    value = sensor.sample',
  '    if value.nil?',
  '      raise ArgumentError, "no sample"',
  '    end',
  '  end',
  '',
  '  def reset',
  '    @total = 0',
  '  end',
  'end',
  '',
].join('\n');

const swift = [
  'struct Gauge {',
  '    var level = 0',
  '',
  '    mutating func raise(by step: Int) {',
  '        if step > 0 {',
  '            level += step',
  '        }',
  '    }',
  '',
  '    mutating func lower() {',
  '        level -= 1',
  '    }',
  '}',
  '',
].join('\n');

describe('outer closers a snippet leaves out after closing its inner block', () => {
  it('keeps the method end when the snippet shows only the if end (Ruby)', () => {
    const update = '  def read(sensor)\n    value = sensor.sample\n    if value.nil?\n      raise ArgumentError, "no sample: #{sensor.id}"\n    end\n\n  def reset\n';
    const r = mergeApply({ instruction: null, code: ruby, update }, 'fast');
    expect(r.content).toBe(ruby.replace('"no sample"', '"no sample: #{sensor.id}"'));
  });
  it('keeps the function brace when the snippet shows only a deeper brace (Swift)', () => {
    const update = '    mutating func raise(by step: Int) {\n        if step > 0 {\n            level = min(level + step, 100)\n        }\n\n    mutating func lower() {\n';
    const r = mergeApply({ instruction: null, code: swift, update }, 'fast');
    expect(r.content).toBe(swift.replace('level += step', 'level = min(level + step, 100)'));
  });
});
