// A comment that only names what exists there is a marker (docs/apply.md, branch `tailin2`):
// `<!-- existing store badges -->`, `// existing project routes`, `# existing fields`. It was read as
// a new comment line, so the lines it stands for were out of place (the new badge went above the
// old ones) and kept at confidence 0.3-0.4.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { isMarkerLine } from '../../src/apply/markers.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('"existing <what>" comments are markers (tailin2)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('cd html15, and a JS route file and a Python dataclass', () => {
    mergedCase(caseDir('external-2026-11-28cd', 'html15-'));
    mergedCase(caseDir('probes-tailin2', 'js01-'));
    mergedCase(caseDir('probes-tailin2', 'py01-'));
  });

  it('only a short naming comment, and not one the original has', () => {
    const none = new Set<string>();
    expect(isMarkerLine('<!-- existing store badges -->', none)).toBe(true);
    expect(isMarkerLine('# existing fields', none)).toBe(true);
    expect(isMarkerLine('// existing users keep the old plan until renewal', none)).toBe(false);
    expect(isMarkerLine('// existing', none)).toBe(false);
    expect(isMarkerLine('# existing fields', new Set(['# existing fields']))).toBe(false);
  });
});
