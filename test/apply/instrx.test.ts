// Removals the instruction names and removals by adjacency (docs/apply.md, branch instrx).
// 1. A block labelled by a string (`Section("Marketing") {`, `<section id="newsletter">`) is the
//    thing "the Marketing section" names (spoken-targets.ts labelledBlock), and an update whose body
//    marker the merge wrote out with that block still does not show it: only the update as written
//    counts as mentioning the name (removals.ts). Revealed by bf swift37 and p html02.
// Controls: a section the instruction names only to remove a field in it stays (the update shows
// it); a marker before another top-level section keeps the siblings it covers.
import { beforeAll, describe, it } from 'vitest';
import { mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const probe = (name: string): void => mergedCase(`probes-instrx/${name}`);

describe('instrx: removals the instruction names, removals by adjacency', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('a SwiftUI Section named by its label goes, though a body marker covers it', () => probe('swift01-section-removed-by-instruction-body-marker'));
  it('an HTML element named by its id goes with its closing tag', () => probe('html01-section-by-id-removed-by-instruction'));
  it('control: a section named only for a field in it stays', () => probe('html02-section-named-field-removed-section-stays'));
  it('control: a marker before another top-level section keeps its siblings', () => probe('yaml03-marker-before-other-section-keeps-siblings'));
});
