// The fresh round cn's loss (branch freshcn), lossy on main: a marker naming the existing intent
// filters right after the activity's head, then a new `<intent-filter>` before `</activity>`. The
// new filter's head is the first existing filter's text, its body copies a line of the second, and
// the two filters the marker stands for were read as replaced. The loss check now reads a new element
// written like the one right after the marker as standing beside the run of same-tag siblings the
// marker keeps (copied-anchor.ts copiedElementHead), so the merge puts them back and says so.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const BENCH = path.resolve(__dirname, '../../bench/apply');
const CASE = 'external-2026-11-29cn/xml01-android-manifest-share-target-and-fgs-permissions';

function load(dir: string): { code: string; update: string; expected: string; instruction: string | null } {
  const at = (f: string) => fs.readFileSync(path.join(BENCH, dir, f), 'utf8');
  return { code: at('original'), update: at('update'), expected: at('expected'), instruction: JSON.parse(at('meta.json')).instruction };
}

describe('fresh-round cn loss (freshcn)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('a new intent-filter after a marker naming the existing filters keeps both filters (fast and large)', () => {
    const c = load(CASE);
    for (const mode of ['fast', 'large'] as const) {
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
      expect(checkLoss(c.code, c.update, c.instruction, r.content).lost).toEqual([]);
      for (const line of ['android.intent.action.MAIN', 'android.intent.category.LAUNCHER', 'android:autoVerify="true"', 'android.intent.category.BROWSABLE', 'android:pathPrefix="/n/"']) {
        expect(r.content).toContain(line);
      }
      expect(r.content).toContain('android.intent.action.SEND');
      // Kept because placement was uncertain: not a confident edit.
      expect(r.confidence).toBeLessThan(1);
    }
  });

  it('the loss check refuses the output that reads the two filters as replaced by the new one', () => {
    const c = load(CASE);
    const lossy = c.expected.replace(/( *<intent-filter>\n)[\s\S]*?<\/intent-filter>\n[\s\S]*?<\/intent-filter>\n *<intent-filter>\n/, '$1');
    expect(lossy).not.toContain('android.intent.action.MAIN');
    expect(checkLoss(c.code, c.update, c.instruction, lossy).lost.length).toBeGreaterThan(0);
    expect(checkLoss(c.code, c.update, c.instruction, c.expected).lost).toEqual([]);
  });

  it('control: a new filter copying no line of the existing ones stays exact in fast', () => {
    const c = load('probes-freshcn/xml01-manifest-new-receiver-filter');
    const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
    expect(r.content).toBe(c.expected);
  });
});
