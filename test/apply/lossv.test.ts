// Branch lossv: a block copied from an existing sibling under a new name, the new name brought in
// elsewhere by the update (a registration, a new action constant) while the old name's uses stay, is a
// new sibling: the original stays and the copy's lines anchor nowhere in it. The guards are written in
// languages other than the sets' cases that revealed the class (s cs03 in C#, u js04 in JavaScript).
import { describe, expect, it } from 'vitest';
import { lines } from './judged.js';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { splitLines } from '../../src/apply/lines.js';
import { splitUpdate } from '../../src/apply/merge-context.js';
import { newNameBesideOld } from '../../src/apply/new-name-evidence.js';

const modes = ['fast', 'large', 'auto'] as const;

// C++ with Allman braces: a handler appended after a marker, its body the last handler's but one line.
const handler = (name: string, action: string, note: string): string[] => [
  `Response ${name}(const Request &req)`, '{', '    if (!req.is_admin())', '    {', '        return Response::forbidden();', '    }',
  `    Cache::instance().${action}();`, `    log_info("${note}");`, '    return Response::no_content();', '}',
];
const register = ['void register_handlers(Router &router)', '{', '    router.add("GET", "/health", health);', '    router.add("DELETE", "/cache", clear_cache);'];
const health = ['Response health(const Request &req)', '{', '    return Response::ok("up");', '}'];
const cppCode = lines(['#include "handlers.h"', '', ...register, '}', '', ...health, '', ...handler('clear_cache', 'clear', 'cache cleared')]);
const cppUpdate = lines([...register, '    router.add("POST", "/cache/warm", warm_cache);', '}', '', '// ... existing code ...', '', ...handler('warm_cache', 'warm', 'cache warmed')]);
const cppExpected = lines(['#include "handlers.h"', '', ...register, '    router.add("POST", "/cache/warm", warm_cache);', '}', '', ...health, '',
  ...handler('clear_cache', 'clear', 'cache cleared'), '', ...handler('warm_cache', 'warm', 'cache warmed')]);

// TypeScript: a reducer `case` for a new action constant, written after a sibling `case`, a marker after.
const tsHead = ["export const ADDED = 'cart/added';", "export const REMOVED = 'cart/removed';"];
const caseOf = (name: string, items: string): string[] => [`    case ${name}:`, '      return {', '        ...state,', `        items: ${items},`, '      };'];
const reducer = (cases: string[]): string[] => ['', 'export function cartReducer(state: CartState, action: Action): CartState {', '  switch (action.type) {', ...cases, '    default:', '      return state;', '  }', '}'];
const tsCode = lines([...tsHead, ...reducer([...caseOf('ADDED', '[...state.items, action.item]'), ...caseOf('REMOVED', 'state.items.filter((i) => i.id !== action.id)')])]);
const tsUpdate = lines([...tsHead, "export const CLEARED = 'cart/cleared';", '', '// ...', ...caseOf('ADDED', '[...state.items, action.item]'), ...caseOf('CLEARED', '[]'), '    // ...']);
const tsExpected = lines([...tsHead, "export const CLEARED = 'cart/cleared';",
  ...reducer([...caseOf('ADDED', '[...state.items, action.item]'), ...caseOf('CLEARED', '[]'), ...caseOf('REMOVED', 'state.items.filter((i) => i.id !== action.id)')])]);

describe('lossv: a copy under a new name that the update brings in beside the old one is a new sibling', () => {
  it('C++ (Allman): the last handler stays, the copy goes after it, in every mode', () => {
    for (const mode of modes) {
      const out = mergeApply({ code: cppCode, update: cppUpdate, instruction: null }, mode).content;
      expect(checkLoss(cppCode, cppUpdate, null, out).lost).toEqual([]);
      expect(out).toBe(cppExpected);
    }
  });

  it('TypeScript: the sibling `case` the marker hides stays, in every mode', () => {
    for (const mode of modes) {
      const out = mergeApply({ code: tsCode, update: tsUpdate, instruction: null }, mode).content;
      expect(checkLoss(tsCode, tsUpdate, null, out).lost).toEqual([]);
      expect(out).toBe(tsExpected);
    }
  });

  it('a rename the update carries through an original line, or shows nowhere else, is still a rename', () => {
    const code = lines(['def load_user(uid):', '    return db.get(uid)', '', 'def main():', '    user = load_user(1)', '    print(user)']);
    const o = splitLines(code);
    // The call renamed where it stood: a rename carried through, not new code beside the old name.
    const carried = splitUpdate(lines(['def fetch_user(uid):', '    return db.get(uid)', '# ...', '    user = fetch_user(1)']), o, code).segments;
    expect(newNameBesideOld(carried[0]!.lines, 0, o, 0)).toBe(false);
    // The head alone: nothing says new.
    const alone = splitUpdate(lines(['def fetch_user(uid):', '    return db.get(uid)', '# ...']), o, code).segments;
    expect(newNameBesideOld(alone[0]!.lines, 0, o, 0)).toBe(false);
    // A new call beside the old one: a new sibling.
    const beside = splitUpdate(lines(['def fetch_user(uid):', '    return db.get(uid)', '# ...', '    user = load_user(1)', '    other = fetch_user(2)']), o, code).segments;
    expect(newNameBesideOld(beside[0]!.lines, 0, o, 0)).toBe(true);
  });
});
