// A kept line naming what the instruction orders removed (branch cninst): "Drop the black dev
// dependency" with `"black>=24.4",` still in the merged file, "remove the gift-wrap handler along with
// its on<> registration" with the registration kept. The no-loss rule keeps what the update does not
// show deleted, so the merge lowers its confidence (at most 0.6) instead of reporting itself sure;
// the output is not changed. Where the removal is done (the update shows it), nothing is reported.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { keptNamedRemovals } from '../../src/apply/kept-named-removal.js';

const BENCH = join(__dirname, '../../bench/apply');

function load(dir: string): { code: string; update: string; expected: string; instruction: string } {
  const read = (f: string): string => readFileSync(join(BENCH, dir, f), 'utf8');
  return { code: read('original'), update: read('update'), expected: read('expected'), instruction: JSON.parse(read('meta.json')).instruction };
}

describe('a kept line naming what the instruction orders removed (cninst)', () => {
  for (const dir of ['external-2026-11-29co/toml01-pyproject-deps-and-tool-sections', 'external-2026-11-29cn/dart03-bloc-optimistic-remove-and-drop-gift-wrap']) {
    it(`${dir}: the kept line lowers confidence below 0.9 in both modes, losing nothing`, () => {
      const c = load(dir);
      for (const mode of ['fast', 'large'] as const) {
        const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
        expect(checkLoss(c.code, c.update, c.instruction, r.content).lost).toEqual([]);
        if (r.content === c.expected) continue;
        expect(r.confidence).toBeLessThan(0.9);
        expect(r.report.keptNamedRemovals?.length).toBeGreaterThan(0);
      }
      // The expected file keeps no line naming it.
      expect(keptNamedRemovals(c.code, c.update, c.instruction, c.expected)).toEqual([]);
    });
  }

  for (const probe of ['json01-drop-moment-dependency-add-zod', 'gemfile01-drop-pry-gem-keep-pry-byebug', 'cargo01-drop-anyhow-crate', 'ts01-drop-audit-listener-with-registration']) {
    it(`probes-cninst ${probe}: the update shows the removal, the merge is exact and reports nothing`, () => {
      const c = load(`probes-cninst/${probe}`);
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
      expect(r.content).toBe(c.expected);
      expect(r.report.keptNamedRemovals).toBeUndefined();
      // Had the merge kept the original, the signal would say so.
      expect(keptNamedRemovals(c.code, c.update, c.instruction, c.code).length).toBeGreaterThan(0);
    });
  }

  it('a hyphenated package sharing the name\'s first word is another package: `pry-byebug` kept after "drop the pry gem" is not reported', () => {
    const code = 'group :development do\n  gem "pry"\n  gem "pry-byebug"\nend\n';
    expect(keptNamedRemovals(code, 'group :development do\n  gem "pry-byebug"\nend\n', 'Drop the pry gem.', 'group :development do\n  gem "pry-byebug"\nend\n')).toEqual([]);
  });

  it('no removal phrase of these forms (a bare name, no uses named): nothing is reported', () => {
    const code = '[dependencies]\nblack = "24"\nruff = "0.4"\n';
    expect(keptNamedRemovals(code, 'ruff = "0.5"\n', 'Drop black.', code)).toEqual([]);
    expect(keptNamedRemovals(code, 'ruff = "0.5"\n', 'Remove the black formatter config.', code)).toEqual([]);
  });
});
