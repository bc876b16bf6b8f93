// A new list item read as an edit of its neighbour (docs/apply.md, branch `itemkey`).
// - 28bo js02: a new webpack rule `{ test: /\.(woff2?|ttf|eot)$/i, type: 'asset/resource', … }` written
//   after the css rule, then a marker. Its `type:` line is the png rule's, which the original has once,
//   so it anchored the new rule on the png rule and the png rule was lost. The items' identity key
//   (`test`) names another rule: the copied setting is no anchor there, and the edge steps over the
//   new rule and its `},` (sibling-items.ts `settingOfOtherItem`, `otherIdentity`, `pastNewItem`).
// - probes-lossx7 yaml01: a new redirect sharing `permanent: true` with the next one (`source`).
// Controls: an item's identity renamed in place with the rest kept, one grown in place with another
// setting added, the same identity edited, and items without any identity key stay edits.
import { beforeAll, describe, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('a new list item named otherwise than its neighbour (itemkey)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('inserts a new webpack rule beside the png rule it copies a setting from (28bo js02, CRLF)', () => {
    mergedCase(caseDir('external-2026-11-28bo', 'js02-'));
  });

  it('inserts a new redirect sharing a value with the next one (probes-lossx7 yaml01)', () => {
    mergedCase('probes-lossx7/yaml01-new-list-item-before-next-item');
  });

  it('inserts a new [[bin]] target sharing `required-features` with the next one (probe toml01)', () => {
    mergedCase('probes-itemkey/toml01-new-bin-target-sharing-flag');
  });

  it('still edits an item renamed in place, grown in place, or edited under its own name (controls)', () => {
    mergedCase('probes-itemkey/yaml03-control-redirect-source-renamed-in-place');
    mergedCase('probes-itemkey/js02-control-rule-test-extended-with-change');
    mergedCase('probes-itemkey/yaml04-control-same-identity-is-edit');
  });

  it('still edits an item of a list without identity keys (control)', () => {
    mergedCase('probes-itemkey/js01-control-no-identity-key-item-edited');
  });
});
