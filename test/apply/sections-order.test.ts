// Hunks of a single-file component written out of file order: the template's hunk first, ending
// `</template>`, a blank line, then `<script setup>` and a marker, in a file whose script comes first.
// `</template>` is too short to anchor a chain, so the segment anchored on `<script setup>` alone and
// `</template>` went in as a new line above it (a duplicate). A closing tag at column 0 that the
// original has once now fixes the place of the part before the cut (hunk-order.ts sectionClosers).
import { beforeAll, describe, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('sections of a single-file component in hunks out of file order', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('cuts after a template closer shown above the script it precedes (bt vue48, probe vue02)', () => {
    mergedCase(caseDir('external-2026-11-28bt', 'vue48-'));
    mergedCase('probes-ordx5/vue02-template-hunk-before-script-ts');
  });

  it('keeps the hunks written in other orders (controls)', () => {
    mergedCase('probes-ordx5/svelte01-style-hunk-before-script-hunk');
    mergedCase('probes-ordx5/vue03-style-hunk-before-template-hunk');
    mergedCase('probes-ordx5/vue04-script-hunk-before-template-options-api');
  });
});
