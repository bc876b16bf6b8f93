// Placement among look-alikes and prose locators (branch prosex).
// - A prose locator (`// add this right after the constructor`, `// add right below LIMIT`,
//   `// add to Inventory, after reserve():`) is an instruction to the applier: it is never written
//   into the file, and an anchorless hunk after it goes right after (or before) the one definition
//   it names, moved onto that definition's depth when the snippet was written shallower.
// (The doubled `done` of a new `if … else … fi` around a loop line is left open: the probe
// probes-prosex sh01 still misses; see docs/apply.md, branch prosex.)
import { beforeAll, describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { readCase } from './bench-case.js';
import { BOTH_MODES, mergedEverywhere } from './judged.js';

// The syntax pass reads the grammars, as on the server (apply1 and the benchmarks load them).
beforeAll(async () => { await ensureAllGrammars(); }, 120_000);

const probe = (id: string) => readCase(`probes-prosex/${id}`);

/** Exact with no instruction (the probes' own are not read) in fast and large mode. */
function exactInBothModes(code: string, update: string, expected: string): void {
  mergedEverywhere(code, update, expected, null, BOTH_MODES);
}

describe('prose locators (prosex)', () => {
  it('`# add this right after load_config`: a new function lands after that one, not after its look-alike, with its blank lines', () => {
    const c = probe('py01-new-function-right-after-named-one-among-lookalikes');
    exactInBothModes(c.code, c.update, c.expected);
  });

  it('`// add right below DefaultTimeout` and `// add this right after NewClient`: a const and a method copying a look-alike, each at its place', () => {
    const c = probe('go01-const-and-method-placed-by-prose-comments');
    exactInBothModes(c.code, c.update, c.expected);
  });

  it('`// add to Inventory, after reserve():` over a method written without its class: placed after reserve() at the class depth', () => {
    const c = probe('java01-dedented-method-after-named-method-by-prose-comment');
    exactInBothModes(c.code, c.update, c.expected);
  });

  it('a locator comment inside an anchored hunk is not written into the file', () => {
    const c = probe('ts01-prose-locator-between-anchors-not-written');
    exactInBothModes(c.code, c.update, c.expected);
  });

  it('a code comment that says what the code does (`// add the tax before rounding`) is written', () => {
    const code = 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return Math.round(sum);\n}\n';
    const update = 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n\n  // add the tax before rounding\n  sum *= 1.2;\n  return Math.round(sum);\n}\n';
    const r = mergeApply({ code, update, instruction: null }, 'fast');
    expect(r.content).toBe(update);
  });
});
