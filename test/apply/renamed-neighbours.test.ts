// Branch fieldsy: a rename carried across the file in small hunks, whose context lines are renamed
// too (a renamed call right above the renamed head): each renamed line replaces its original, the
// old name is not kept beside the new one (renamed-neighbours.ts). Written in Python and Swift, not
// the language of the case that revealed the class (set g kt06, Kotlin); both fail without the rule.
// A copied section whose lines are all renamed the same way at one depth stays a new section (a
// control, set m md02's shape, which a first draft of the rule read as a rename).
import { describe, expect, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';

describe('fieldsy: a renamed neighbour in another block is the original neighbour renamed', () => {
  it('python: a bare call renamed right above the renamed function', () => {
    const file = (name: string): string => lines([
      'import sys', '', '', 'def parse_args(argv):', '    return argv[1:]', '', '',
      'def main(argv):', '    args = parse_args(argv)', `    ${name}()`, '', '',
      `def ${name}():`, '    for path in sys.path:', '        print(path)', '', '',
      'if __name__ == "__main__":', '    main(sys.argv)',
    ]);
    const update = lines(['    args = parse_args(argv)', '    list_paths()', '', '', 'def list_paths():', '    # ... existing code ...']);
    mergedEverywhere(file('show_paths'), update, file('list_paths'));
  });

  it('swift: the renamed head right below the renamed call in an initialiser', () => {
    const file = (name: string): string => lines([
      'final class Clock {', '    private var ticks = 0', '', '    init() {', `        ${name}()`, '    }', '',
      `    func ${name}() {`, '        ticks = 0', '        print("reset")', '    }', '', '    func tick() {', '        ticks += 1', '    }', '}',
    ]);
    const update = lines(['    init() {', '        restart()', '    }', '', '    func restart() {', '        // ... existing code ...', '    }']);
    mergedEverywhere(file('reset'), update, file('restart'));
  });

  it('a new section copied from the one before, every line renamed at one depth, stays new (control)', () => {
    const section = (name: string): string[] => [`### ${name}`, '', `Run \`tool ${name} list\` to list them.`, `Run \`tool ${name} show\` to show one.`, ''];
    const code = lines(['# Tool', '', ...section('users'), ...section('groups'), '## Exit codes', '', '0 on success.']);
    const update = lines(['<!-- ... existing ... -->', ...section('users'), ...section('teams'), '<!-- ... existing ... -->']);
    const expected = lines(['# Tool', '', ...section('users'), ...section('teams'), ...section('groups'), '## Exit codes', '', '0 on success.']);
    mergedEverywhere(code, update, expected);
  });
});
