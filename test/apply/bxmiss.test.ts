// A note asking for the shown edit elsewhere (docs/apply.md, branch `bxmiss`): `// ... same change
// (writeError(w, r, err)) in every other handler ...` after one handler whose call the update edits.
// The merge edited the one call shown and kept the other fourteen at confidence 1; it now repeats the
// shown line edit on the lines that read as the edited original did (same-change.ts), only in the
// definitions the note names when it names some, and lowers confidence when it has no line edit to repeat.
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('a same-change note repeats the shown line edit (bxmiss)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('28bu go03: every other handler passes the request to writeError', () => {
    mergedCase(caseDir('external-2026-11-28bu', 'go03-'));
  });

  it('Python and Ruby: "in every other view", "same fix in every other action"', () => {
    mergedCase(caseDir('probes-bxmiss', 'py01-'));
    mergedCase(caseDir('probes-bxmiss', 'rb01-'));
  });

  it('a note naming its methods leaves the method it does not name as it was (Java)', () => {
    mergedCase(caseDir('probes-bxmiss', 'java01-'));
  });

  it('a note whose change adds a line, after the last code, is not claimed at confidence 1 (Kotlin)', () => {
    const c = readCase(caseDir('probes-bxmiss', 'kt01-'));
    for (const mode of ['fast', 'large'] as const) expect(mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode).confidence, mode).toBeLessThan(1);
  });
});
