// Prose locators in the newest rounds (branch cnconf1): a model's note saying where the next lines go
// is never written into the file, in the forms the prosex reader did not know:
// - no verb, an owner then the place: `// in the companion object, after MAX_ATTEMPTS:`;
// - the owner first: `# RedisStore — add right after put():`, `// public: add after pop()`;
// the target is looked up inside the owner when the owner names one definition (two classes with the
// same method), and a target written as a call (`retries()`) is the method, not the field of that
// name. `// RingBuffer, private section` is a location comment. A verbless comment whose target the
// original does not define once, or whose owner it does not name, stays: it may be the file's own.
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { caseDir, readCase } from './bench-case.js';
import { BOTH_MODES, mergedEverywhere } from './judged.js';

// The syntax pass reads the grammars, as on the server (apply1 and the benchmarks load them).
beforeAll(async () => { await ensureAllGrammars(); }, 120_000);

function exactInBothModes(dir: string): void {
  const c = readCase(dir);
  mergedEverywhere(c.code, c.update, c.expected, c.instruction, BOTH_MODES);
}

describe('prose locators without a verb or with the owner first (cnconf1)', () => {
  it('`// in the companion object, after MAX_ATTEMPTS:` is not written; the constants go after MAX_ATTEMPTS at its depth (cn kotlin04)', () => {
    exactInBothModes(caseDir('external-2026-11-29cn', 'kotlin04-'));
  });

  it('`// ConnectionPool, private section` and `// public: add after prune()` place members written at column 0 (cl cpp01)', () => {
    exactInBothModes(caseDir('external-2026-11-29cl', 'cpp01-'));
  });

  it('`// inside the Builder class, after retries():` places a method after the builder method, not the field', () => {
    exactInBothModes('probes-cnconf1/java01-builder-field-placed-by-verbless-owner-locator');
  });

  it('`# RedisStore — add right after put():` places the method in RedisStore, not in the first class with put()', () => {
    exactInBothModes('probes-cnconf1/py01-method-after-twin-method-owner-named-first');
  });

  it('`// in TeamsController, after show():` places a method after the last method of that class, set off by a blank line', () => {
    exactInBothModes('probes-cnconf1/ts01-handler-after-twin-method-verbless-locator');
  });

  it('`// public: add after pop()` then `// RingBuffer, private section` over the members hunk', () => {
    exactInBothModes('probes-cnconf1/cpp01-members-by-section-label-and-access-locator');
  });

  it('control: `// in production, after startup:` names an owner the file does not have: the comment is the file’s own and stays', () => {
    const code = 'function boot(app) {\n  app.listen(8080);\n}\n\nfunction startup(app) {\n  boot(app);\n}\n\nfunction other() {\n  return 1;\n}\n';
    const update = '// ... existing code ...\nfunction startup(app) {\n  boot(app);\n  // in production, after startup:\n  app.warm();\n}\n// ... existing code ...\n';
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(checkLoss(code, update, null, r.content).lost).toEqual([]);
    expect(r.content).toContain('  // in production, after startup:\n  app.warm();\n');
  });
});
