// Snippets whose closers are missing or extra (branch `closerx`): a snippet that rewrites a block's
// last statement into a new block and stops after that block's own closer (the enclosing closers
// left out), and a snippet that writes a closing line once too often. Inputs are new, in Swift,
// Dart and Rust; the guards below them keep the rules from reaching what they must not.
import { describe, expect, it } from 'vitest';
import { forEachCodeBracket } from '../../src/apply/brackets.js';
import { withoutExtraClosers } from '../../src/apply/extra-closers.js';
import { mergeApply } from '../../src/apply/merge.js';
import { lines, mergedEverywhere } from './judged.js';

const swift = lines([
  'final class ImageCache {',
  '    private var store: [URL: UIImage] = [:]',
  '',
  '    func image(for url: URL) -> UIImage? {',
  '        return store[url]',
  '    }',
  '',
  '    func put(_ image: UIImage, for url: URL) {',
  '        store[url] = image',
  '    }',
  '}',
]);

const dart = lines([
  "import 'package:test/test.dart';",
  "import 'package:shop/money.dart';",
  '',
  "group('Money.parse', () {",
  "  test('reads whole euros', () {",
  "    expect(Money.parse('3'), Money(300));",
  '  });',
  '});',
  '',
  "group('Money.format', () {",
  "  test('writes cents', () {",
  "    expect(Money(305).format(), '3.05');",
  '  });',
  '});',
]);

describe('a snippet that stops after the closer of a block it opened', () => {
  it('replaces the rewritten last statement and keeps the closers it left out (Swift)', () => {
    const update = [
      '    func image(for url: URL) -> UIImage? {',
      '        if let hit = store[url] {',
      '            return hit',
      '        } else {',
      '            return nil',
      '        }',
      '',
    ].join('\n');
    mergedEverywhere(swift, update, swift.replace('        return store[url]\n', update.split('\n').slice(1).join('\n')));
  });

  it('keeps the body after a new guard that names none of it (Rust)', () => {
    const rust = lines(['impl Rate {', '    pub fn per_sec(&self) -> f64 {', '        self.bytes as f64 / self.per.as_secs_f64()', '    }', '}']);
    const update = '    pub fn per_sec(&self) -> f64 {\n        if self.per.is_zero() {\n            return 0.0;\n        }\n';
    const expected = rust.replace('f64 {\n', 'f64 {\n        if self.per.is_zero() {\n            return 0.0;\n        }\n');
    for (const mode of ['fast', 'large'] as const) expect(mergeApply({ code: rust, update, instruction: null }, mode).content, mode).toBe(expected);
  });
});

describe('a closing line written once too often', () => {
  it('is dropped after a closer at the same indentation (Dart groups)', () => {
    const update = [
      "  test('reads whole euros', () {",
      "    expect(Money.parse('3'), Money(300));",
      '  });',
      '',
      "  test('reads cents', () {",
      "    expect(Money.parse('3.05'), Money(305));",
      '  });',
      '});',
      '});',
      '',
    ].join('\n');
    const expected = dart.replace("Money(300));\n  });\n", "Money(300));\n  });\n\n  test('reads cents', () {\n    expect(Money.parse('3.05'), Money(305));\n  });\n");
    mergedEverywhere(dart, update, expected);
  });

  it('is kept where the file itself closes two blocks that way (nested C++ namespaces)', () => {
    const cpp = lines(['namespace acme {', 'namespace text {', '', 'int one() {', '    return 1;', '}', '', '}', '}']);
    const update = '// ... existing code ...\n\nint two() {\n    return 2;\n}\n\n}\n}\n';
    expect(withoutExtraClosers(update, cpp)).toBe(update);
  });
});

describe('the bracket scan', () => {
  it('reads a Rust lifetime as no quote', () => {
    const seen: string[] = [];
    forEachCodeBracket("    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {", (c) => {
      seen.push(c);
    });
    expect(seen).toEqual(['(', ')', '{']);
    const chars: string[] = [];
    forEachCodeBracket("let c = '(';", (c) => {
      chars.push(c);
    });
    expect(chars).toEqual([]);
  });
});
