// Lossy at confidence 1 on main (branch lossx, twentieth session; lossx.test.ts holds an earlier
// branch's guards): a marker naming the existing elements right after their parent's head, then a
// new element whose opener repeats among them (`<intent-filter>`, `<dependency>`, `<tr>`) and whose
// body copies a line of a later sibling. The new element was anchored on that sibling and read as
// its edit, the sibling's other lines as replaced. The loss check now compares the new body with
// every same-opener sibling of the run the marker stands for (copied-anchor.ts copiedElementHead),
// so the merge keeps them and lowers its confidence.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const BENCH = path.resolve(__dirname, '../../bench/apply');

function load(dir: string): { code: string; update: string; expected: string; instruction: string | null } {
  const at = (f: string) => fs.readFileSync(path.join(BENCH, dir, f), 'utf8');
  return { code: at('original'), update: at('update'), expected: at('expected'), instruction: JSON.parse(at('meta.json')).instruction };
}

const CASES: Array<[string, string[]]> = [
  ['probes-freshcn/xml03-manifest-new-filter-copying-second-filter-line', ['android.intent.action.MY_PACKAGE_REPLACED', 'android.intent.action.TIMEZONE_CHANGED']],
  ['probes-lossx9/xml01-pom-new-dependency-copying-second-scope', ['<artifactId>junit-jupiter</artifactId>', '<version>${junit.version}</version>', '<artifactId>assertj-core</artifactId>']],
  ['probes-lossx9/html01-table-new-row-copying-second-row-cell', ['<td>Team</td>', '<td>10</td>', '<td>Enterprise</td>']],
];

describe('a new element copying a later sibling after a marker (lossx9)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  for (const [dir, kept] of CASES) {
    it(`${dir.split('/')[1]}: keeps every sibling the marker stands for, below confidence 1 (fast and large)`, () => {
      const c = load(dir);
      for (const mode of ['fast', 'large'] as const) {
        const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
        expect(checkLoss(c.code, c.update, c.instruction, r.content).lost).toEqual([]);
        for (const line of kept) expect(r.content).toContain(line);
        expect(r.confidence).toBeLessThan(1);
      }
    });
  }

  it('the loss check refuses the reading of the second filter as the new one', () => {
    const c = load(CASES[0]![0]);
    const lossy = c.expected.replace(/ *<action android:name="android.intent.action.MY_PACKAGE_REPLACED" \/>\n *<category[^\n]*\n *<\/intent-filter>\n *<intent-filter>\n/, '');
    expect(lossy).not.toContain('MY_PACKAGE_REPLACED');
    expect(checkLoss(c.code, c.update, c.instruction, lossy).lost.length).toBeGreaterThan(0);
    expect(checkLoss(c.code, c.update, c.instruction, c.expected).lost).toEqual([]);
  });

  it('control: a new filter copying no line of the existing ones stays exact in fast', () => {
    const c = load('probes-freshcn/xml01-manifest-new-receiver-filter');
    const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
    expect(r.content).toBe(c.expected);
  });
});
