// The held-out round bx's loss (docs/apply.md, branch `lossx6`). A Haskell hunk shows `deriving (Show)`,
// a new definition, then `-- | Evaluate …` with `type Env = M.Map String Value` and `emptyEnv` left out
// between them, while the update's own signatures still use `Env`. Rule (b) licensed the gap as deleted
// between anchors: dangling-name.ts `usedDefinitionRows` read no name from a type alias, and counted the
// gap's own `emptyEnv :: Env` as a use the merged file had lost (as if the name were renamed away).
// (Main fixed that loss first, in hsx; these tests stay as guards.) Then the round's Elm miss: a new
// `case` branch added last, `)` or a record, blank, marker; the update's blank before the branch was
// paired with the first of the blank lines parting the `case` from what follows (`setDone`, `-- VIEW`),
// so one of them was lost (merge-finish.ts unpairTailSeparator).
import { beforeAll, describe, expect, it } from 'vitest';
import { caseDir, keepsEveryLine, mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { checkLoss } from '../../src/apply/loss.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('the held-out round bx: a type alias left out between shown anchors (lossx6)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('keeps a type alias and its constant that the update still uses (28bx hs06)', () => {
    keepsEveryLine(caseDir('external-2026-11-28bx', 'hs06-'));
  });

  it('checkLoss does not license the alias as deleted between anchors', () => {
    const p = readCase(caseDir('external-2026-11-28bx', 'hs06-'));
    // The output main produced: the gap `type Env … ]` dropped, the new `defaultFuel` in its place.
    const dropped = p.expected.replace(/type Env = M\.Map String Value\n\nemptyEnv :: Env\nemptyEnv = M\.fromList\n(?: {2}[[,].*\n)+ {2}\]\n\n/, '');
    expect(dropped).not.toBe(p.expected);
    expect(checkLoss(p.code, p.update, p.instruction, dropped).lost.length).toBeGreaterThan(0);
  });

  it('keeps types left out before new definitions (probes)', () => {
    for (const name of ['hs01-type-alias-left-out-before-new-constant', 'ts01-type-alias-and-map-left-out-before-new-const', 'go01-self-referencing-struct-left-out-before-new-func', 'rs01-struct-left-out-before-new-const']) {
      keepsEveryLine(`probes-lossx6/${name}`);
    }
  });

  it('still drops a type the update moves above its first use (control)', () => {
    mergedCase('probes-lossx6/ts02-control-type-alias-moved-above-first-use');
  });

  it('keeps the blank lines after a case branch added last before a marker (Elm, three writers)', () => {
    mergedCase(caseDir('external-2026-11-28bx', 'elm17-'));
    mergedCase(caseDir('external-2026-11-27bi', 'elm01-'));
    mergedCase(caseDir('external-2026-11-28bs', 'elm01-'));
    mergedCase('probes-lossx6/elm02-case-branch-last-before-view-banner');
  });

  it('still places a method added last in a class before the blank lines (control)', () => {
    mergedCase('probes-lossx6/py01-method-last-in-class-before-two-blanks');
  });
});
