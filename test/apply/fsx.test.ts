// Two or more new definitions after a marker at the file's end are appended there, not matched
// against the last definition whose lines they copy (appended-definition.ts newTrailingDefinitions);
// F# names in double backticks are definition names (equation-heads.ts), `[<Fact>]` an attribute.
import { describe, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';

describe('new definitions appended after a marker', () => {
  it('two F# tests after `// ... existing tests ...` (28bx fs20)', () => {
    mergedCase(caseDir('external-2026-11-28bx', 'fs20'));
  });
  it('two pytest and two Go tests copying the last test\'s lines', () => {
    mergedCase(caseDir('probes-fsx', 'py01'));
    mergedCase(caseDir('probes-fsx', 'go01'));
  });
  it('an edited last test and a new one stay an edit and an append', () => {
    mergedCase(caseDir('probes-fsx', 'py02'));
  });
});
