// The held-out corpus (test/apply/heldout/cases, built by heldout-build.test.ts from heldout/src):
// edits in 17 languages and 19 shapes written the way models write them. Every output of every
// mode must pass the no-loss oracle; byte-exact rates per mode, language and shape are printed and
// held above floors (docs/apply.md has the numbers before and after the syntax-aware merge).
import { afterAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply, type MergeMode } from '../../src/apply/merge.js';
import { parseApplyContent } from '../../src/apply/parse.js';
import { caseMessage, HELDOUT_DIR, loadCorpus } from './corpus-loader.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

// The syntax pass uses the grammars already loaded in this thread (the worker loads them per request).
await ensureAllGrammars();

const cases = loadCorpus(HELDOUT_DIR);
const MODES: MergeMode[] = ['fast', 'large', 'auto'];
/** Byte-exact floors per mode (measured rates, rounded down). */
const FLOOR: Record<MergeMode, number> = { fast: 0.98, large: 0.98, auto: 0.98 };

type Tally = Map<string, { pass: number; total: number }>;
const byMode = new Map<MergeMode, { lang: Tally; shape: Tally; all: { pass: number; total: number } }>();
for (const m of MODES) byMode.set(m, { lang: new Map(), shape: new Map(), all: { pass: 0, total: 0 } });
const lossy: string[] = [];
/** Cases where the syntax pass swapped definitions (fast mode). */
const syntaxRan: string[] = [];
const misses: string[] = [];

function count(t: Tally, key: string, ok: boolean): void {
  const e = t.get(key) ?? { pass: 0, total: 0 };
  e.total++;
  if (ok) e.pass++;
  t.set(key, e);
}

describe('held-out apply corpus', () => {
  it('has at least 250 cases in at least 15 languages', () => {
    expect(cases.length).toBeGreaterThanOrEqual(250);
    expect(new Set(cases.map((c) => c.lang)).size).toBeGreaterThanOrEqual(15);
  });

  it('every expected output passes the no-loss oracle (the oracle accepts correct edits)', () => {
    const bad = cases.filter((c) => {
      const r = checkLoss(c.code, c.update, c.instruction, c.expected);
      return r.lost.length > 0 || r.markersKept > 0;
    });
    expect(bad.map((c) => c.name)).toEqual([]);
  });

  for (const mode of MODES) {
    it(`every ${mode} output keeps the original's code (no loss outside rules a-c, no marker left)`, () => {
      const t = byMode.get(mode)!;
      for (const c of cases) {
        const parsed = parseApplyContent(caseMessage(c));
        if (!parsed.ok) throw new Error(parsed.message);
        const merged = mergeApply(parsed.input, mode);
        const out = merged.content;
        if (mode === 'fast' && merged.report.syntax) syntaxRan.push(`${c.name}${merged.report.hunks.length === 0 ? ' (definitions only)' : ''}${out === c.expected ? '' : ' MISS'}`);
        const ok = out === c.expected;
        t.all.total++;
        if (ok) t.all.pass++;
        else if (mode === 'fast') misses.push(c.name);
        count(t.lang, c.lang, ok);
        count(t.shape, c.tags[0]!, ok);
        const r = checkLoss(c.code, c.update, c.instruction, out);
        if (r.lost.length > 0 || r.markersKept > 0) lossy.push(`${mode} ${c.name}: lost lines ${r.lost.map((j) => j + 1).join(',')}${r.markersKept ? `, ${r.markersKept} marker(s) kept` : ''}`);
      }
      expect(lossy.filter((l) => l.startsWith(mode))).toEqual([]);
      expect(t.all.pass / t.all.total).toBeGreaterThanOrEqual(FLOOR[mode]);
    });
  }

  afterAll(() => {
    const pct = (e: { pass: number; total: number }): string => `${((100 * e.pass) / Math.max(1, e.total)).toFixed(1)}%`;
    const rows: string[] = [`held-out: ${cases.length} cases`];
    for (const m of MODES) rows.push(`  ${m.padEnd(5)} ${byMode.get(m)!.all.pass}/${byMode.get(m)!.all.total} exact (${pct(byMode.get(m)!.all)})`);
    for (const dim of ['lang', 'shape'] as const) {
      const keys = [...byMode.get('fast')![dim].keys()].sort();
      rows.push(`  by ${dim}: fast / large / auto`);
      for (const k of keys) rows.push(`    ${k.padEnd(30)} ${MODES.map((m) => { const e = byMode.get(m)![dim].get(k)!; return `${e.pass}/${e.total}`.padStart(7); }).join(' ')}`);
    }
    rows.push(`  syntax pass swapped definitions in ${syntaxRan.length} fast merges`);
    if (process.env.APPLY_LIST_MISSES) rows.push(...misses.map((m) => `    miss ${m}`), ...syntaxRan.map((m) => `    syntax ${m}`));
    if (lossy.length) rows.push(`  outputs that lose code: ${lossy.length}`, ...lossy.slice(0, 40).map((l) => `    ${l}`));
    console.log(rows.join('\n'));
  });
});
