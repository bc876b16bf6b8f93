// A statement edited in place under its method's head and a weak line (`{` of an Allman brace), or
// above its closer and the next head, while a new sibling uses the statement's new name beside a
// kept line with the old one (branch sibgen): the update shows the edit in the old line's place,
// past only the weak lines the original has there, so parallel-names.ts `shownInPlace` exempts it
// from losscl2's new-sibling reading and the edit is exact (generated sibling-copy-anchor-edited
// draws, 198 → 203 / 204). losscl2's targets keep their code.
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { caseDir, keepsEveryLine, mergedCase } from './bench-case.js';

describe('a statement edited in place past a weak line, beside a new sibling using its new name (sibgen)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  const account = (deposit: string, extra: string): string =>
    'namespace Bank\n{\n    public class Account\n    {\n        public decimal Balance { get; private set; }\n\n' +
    `        public void Deposit(decimal amount)\n        {\n            ${deposit}\n            {\n                throw new ArgumentException("amount must be positive");\n            }\n            Balance += amount;\n        }\n${extra}\n` +
    '        public bool Withdraw(decimal amount)\n        {\n            if (Balance < amount)\n            {\n                return false;\n            }\n            Balance -= amount;\n            return true;\n        }\n    }\n}\n';
  const copy = '\n        public void DepositSafe(decimal amount)\n        {\n            if (amountNext <= 0)\n            {\n                throw new ArgumentException("amount must be positive (v2)");\n            }\n            Balance += amountNext;\n        }\n';
  const code = account('if (amount <= 0)', '');
  const update =
    '        // ... existing code ...\n        public void Deposit(decimal amount)\n        {\n            if (amountNext <= 0)\n            // ... existing code ...\n            }\n            Balance += amount;\n        }\n' +
    copy + '        // ... existing code ...\n';
  const expected = account('if (amountNext <= 0)', copy);

  it('the first statement under an Allman head, edited, with a copy of the method using the new name after it: the edit replaces the statement', () => {
    expect(checkLoss(code, update, null, expected).lost).toEqual([]);
    for (const mode of ['fast', 'large'] as const) expect(mergeApply({ code, update, instruction: null }, mode).content, mode).toBe(expected);
  });

  it('the probes: C# and PHP first statements under an Allman brace, a Kotlin last statement above its closer and the next head', () => {
    for (const dir of ['cs01-wallet', 'php01-controller', 'kt01-repository']) mergedCase(caseDir('probes-sibgen', dir), ['fast', 'large']);
  });

  it("control: losscl2's targets still keep the line their new sibling copies (a marker above the new line, or a neighbour the original has twice)", () => {
    for (const [set, prefix] of [['external-2026-11-29ch', 'rust03'], ['external-2026-11-29cg', 'swift01'], ['probes-losscl', 'kt01'], ['probes-losscl2', 'ts01'], ['probes-losscl2', 'py01']] as const) keepsEveryLine(caseDir(set, prefix));
  });
});
