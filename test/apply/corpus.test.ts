// Every corpus case through svc-v3-fast, svc-v3-large and auto (as the case allows), byte-exact,
// via the same message parsing a request goes through. Prints the exact-match rate per mode.
import { afterAll, describe, expect, it } from 'vitest';
import { mergeApply, type MergeMode } from '../../src/apply/merge.js';
import { parseApplyContent } from '../../src/apply/parse.js';
import { caseMessage, loadCorpus } from './corpus-loader.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

// The syntax pass uses the grammars already loaded in this thread (the worker loads them per request).
await ensureAllGrammars();

const cases = loadCorpus();
const tally = new Map<MergeMode, { pass: number; total: number }>();
const autoRan = new Map<string, number>();

function run(c: (typeof cases)[number], mode: MergeMode) {
  const parsed = parseApplyContent(caseMessage(c));
  if (!parsed.ok) throw new Error(parsed.message);
  return mergeApply(parsed.input, mode);
}

describe('apply corpus', () => {
  it('has at least 60 cases in at least 10 languages', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(cases.map((c) => c.lang)).size).toBeGreaterThanOrEqual(10);
  });

  for (const c of cases) {
    for (const mode of c.modes) {
      it(`${c.name} [${mode}]`, () => {
        const t = tally.get(mode) ?? { pass: 0, total: 0 };
        tally.set(mode, t);
        t.total++;
        const r = run(c, mode);
        if (r.content === c.expected) t.pass++;
        expect(r.content).toBe(c.expected);
        if (mode === 'auto') autoRan.set(r.model, (autoRan.get(r.model) ?? 0) + 1);
        if (mode === 'auto' && c.autoModel) expect(r.model).toBe(c.autoModel);
      });
    }
  }

  it('is deterministic: the same input gives the same output', () => {
    for (const c of cases.slice(0, 20)) {
      for (const mode of ['fast', 'large'] as const) expect(run(c, mode).content).toBe(run(c, mode).content);
    }
  });

  afterAll(() => {
    const langs = new Set(cases.map((c) => c.lang));
    const lines = [...tally].map(([m, t]) => `  ${m.padEnd(5)} ${t.pass}/${t.total} exact (${((100 * t.pass) / Math.max(1, t.total)).toFixed(1)}%)`);
    const routed = [...autoRan].map(([m, n]) => `${m} ${n}`).join(', ');
    console.log(`apply corpus: ${cases.length} cases, ${langs.size} languages (${[...langs].sort().join(', ')})\n${lines.join('\n')}\n  auto ran: ${routed}`);
  });
});
