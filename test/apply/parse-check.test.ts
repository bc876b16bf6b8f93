// Branch verify: a merged file that fails to parse where its original parsed is reported, has its
// confidence lowered (src/apply/syntax/parse-check.ts, src/apply/merge.ts mergeApply). Inputs
// written here, in Go and Rust.
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';
import { newSyntaxErrors } from '../../src/apply/syntax/parse-check.js';

const go = `package shapes

import "fmt"

func Area(w, h int) int {
\treturn w * h
}

func Describe(w, h int) string {
\treturn fmt.Sprintf("%dx%d", w, h)
}

func Perimeter(w, h int) int {
\treturn 2 * (w + h)
}
`;

beforeAll(async () => {
  await ensureGrammar('go');
  await ensureGrammar('rust');
});

describe('verify: merged files that no longer parse', () => {
  it('names the lines where the result breaks a cleanly parsing original, and nothing otherwise', () => {
    expect(newSyntaxErrors(go, go.replace('return w * h', 'return w * h * 2'))).toBeNull();
    // A closer lost: the error sits at or after the function that lost it.
    const broken = newSyntaxErrors(go, go.replace('\treturn w * h\n}\n', '\treturn w * h\n'));
    expect(broken).not.toBeNull();
    expect(broken!.every((l) => l >= 5)).toBe(true);
    // An original that does not parse itself gives no signal.
    const messy = go.replace('func Perimeter(w, h int) int {', 'func Perimeter(w, h int) int {{');
    expect(newSyntaxErrors(messy, messy + '}}}\n')).toBeNull();
  });

  it('reports an update that breaks the syntax itself, with its confidence lowered, and keeps the update', () => {
    const update = `// ... existing code ...

func Describe(w, h int) string {
\treturn fmt.Sprintf("%dx%d", w, h))
}

// ... existing code ...
`;
    for (const mode of ['fast', 'large', 'auto'] as const) {
      const r = mergeApply({ code: go, update, instruction: null }, mode);
      expect(r.content, mode).toBe(go.replace('w, h)\n}', 'w, h))\n}'));
      expect(r.report.syntaxErrors, mode).toEqual([10]);
      expect(r.confidence, mode).toBeLessThanOrEqual(0.3);
      expect(r.ambiguities.join(' '), mode).toContain('does not parse at line 10');
    }
  });

  it('leaves a result that parses as it was', () => {
    const rust = `pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

pub fn sub(a: i32, b: i32) -> i32 {
    a - b
}
`;
    const update = `pub fn add(a: i32, b: i32) -> i32 {
    a.saturating_add(b)
}

// ... rest unchanged ...
`;
    const r = mergeApply({ code: rust, update, instruction: null }, 'fast');
    expect(r.content).toBe(rust.replace('    a + b', '    a.saturating_add(b)'));
    expect(r.report.syntaxErrors).toBeUndefined();
    expect(r.confidence).toBe(1);
  });
});
