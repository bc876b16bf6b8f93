// Losses of the fresh rounds cj/ck (branch freshloss), each at confidence 1 on main:
// - a kind word before a comma names nothing: "(function, usage line and case branch)" lists the
//   parts of one command, it asks for no function `usage` (removals.ts phraseTargets);
// - a YAML pair ends before the outdented comments the parser hangs on it: `# -- Name of …` at
//   column 0 after a block heads the next key, and a swap of the block must not take it
//   (syntax/definitions.ts);
// - a twin key placed beside the sibling shown above a marker at its depth: the block the update
//   shows goes on there, not in a look-alike block that holds a line or so more of the hunk
//   (syntax/place.ts besideLastShown).
import { beforeAll, describe, expect, it } from 'vitest';
import { removalTargets } from '../../src/apply/removals.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { mergedCase } from './bench-case.js';
import { BOTH_MODES } from './judged.js';

function exactBothModes(dir: string): void {
  mergedCase(`probes-freshloss/${dir}`, BOTH_MODES);
}

describe('fresh-round losses (freshloss)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('a kind word followed by a comma names no target', () => {
    expect(removalTargets('Remove the reset-db command entirely (function, usage line and case branch).')).toEqual(['reset-db']);
    // Control: beside it across spaces, it still names one.
    expect(removalTargets('Remove the function usage.')).toEqual(['usage']);
  });

  it('an instruction-only deletion listing parts after "function," keeps the function named by the next word', () => {
    exactBothModes('sh01-remove-command-parts-listed-after-kind-word');
  });

  it('a values block swapped whole keeps the column-0 comment heading the next key', () => {
    exactBothModes('yaml02-helm-values-block-replaced-before-outdented-comment');
  });

  it("a CI job's script shown after a marker at its depth edits that job, not the one whose script holds a line more", () => {
    exactBothModes('yaml01-gitlab-ci-script-of-one-of-four-jobs');
  });

  it("a compose service's healthcheck shown after a marker below its head edits that service", () => {
    exactBothModes('yaml03-compose-healthcheck-of-one-of-three-services');
  });
});
