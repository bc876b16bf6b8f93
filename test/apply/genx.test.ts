// Branch genx. (1) The regression of generated.test.ts between c8024fe1 and 3500d332: hsx's TYPE_NAME
// (dangling-name.ts) read a TS export list's `type Foo as Foo,` as the head of type Foo, so the item a
// generated edit deletes by adjacency was kept whenever the update's code still named Foo (random
// edits #1997 compliance-settings.ts and #3617 chatkit.ts). A type head declares: `=`, `where` or the
// line's end follows the name and its type variables.
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { lines } from './judged.js';

const ORIGINAL = lines([
  'export class Settings extends APIResource {',
  '  update(body: UpdateParams): APIPromise<OrgSettings> {',
  "    return this._client.post('/v1/settings', { body });",
  '  }',
  '}',
  '',
  'export type State = StateEnabled | StateDisabled;',
  '',
  'export interface StateDisabled {',
  "  type: 'disabled';",
  '}',
  '',
  'export interface StateEnabled {',
  "  type: 'enabled';",
  '}',
  '',
  'export declare namespace Settings {',
  '  export {',
  '    type State as State,',
  '    type StateDisabled as StateDisabled,',
  '    type StateEnabled as StateEnabled,',
  '    type UpdateParams as UpdateParams,',
  '  };',
  '}',
]);

describe('a TS export list item deleted by adjacency is not a type head', () => {
  it('drops `type StateDisabled as StateDisabled,` shown left out between its neighbours, though the update names StateDisabled', () => {
    const update = [
      '// ... existing code ...',
      "    return this._client.post('/v1/settings', { body });",
      '  }',
      '}',
      '',
      'export type State = StateEnabled | StateDisabled | null;',
      '',
      'export interface StateDisabled {',
      '// ... existing code ...',
      '  export {',
      '    type State as State,',
      '    type StateEnabled as StateEnabled,',
      '// ... existing code ...',
    ].join('\n');
    const expected = ORIGINAL.replace('StateEnabled | StateDisabled;', 'StateEnabled | StateDisabled | null;').replace('    type StateDisabled as StateDisabled,\n', '');
    for (const mode of ['fast', 'large'] as const) {
      const out = mergeApply({ code: ORIGINAL, update, instruction: null }, mode).content;
      expect(checkLoss(ORIGINAL, update, null, out).lost, mode).toEqual([]);
      expect(out, mode).toBe(expected);
    }
  });
});
