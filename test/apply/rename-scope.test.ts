// Branch lossx: a rename the instruction places in one definition ("rename X to Y in f", "In f,
// rename X to Y") reaches only that definition; the same name in its siblings stays (rename-scope.ts).
// Written in languages other than the cases that revealed the class (aa rs03, Rust; y cpp02, C++); both fail without it.
import { describe, expect, it } from 'vitest';
import { lines, mergedEverywhere } from './judged.js';
import { splitLines } from '../../src/apply/lines.js';
import { renameScope } from '../../src/apply/rename-scope.js';

function mergedWith(code: string, update: string, instruction: string, expected: string): void {
  mergedEverywhere(code, update, expected, instruction);
}

describe('lossx: a rename placed in one definition', () => {
  const lua = (name: string, local: string, call: string): string[] =>
    [`function M.${name}(path)`, `  local ${local} = {}`, `  for line in io.lines(path) do`, `    table.insert(${local}, ${call}(line))`, '  end', `  return ${local}`, 'end'];

  it('lua: renaming a local in one function leaves the same local in its siblings', () => {
    const code = lines(['local M = {}', '', ...lua('read_ids', 'out', 'tonumber'), '', ...lua('read_names', 'out', 'trim'), '', 'return M']);
    const update = lines(['-- ... existing code ...', ...lua('read_names', 'names', 'trim'), '', '-- ... existing code ...']);
    const expected = lines(['local M = {}', '', ...lua('read_ids', 'out', 'tonumber'), '', ...lua('read_names', 'names', 'trim'), '', 'return M']);
    mergedWith(code, update, 'rename out to names in read_names', expected);
  });

  it('swift: "In f, rename …" places the rename before it', () => {
    const fn = (name: string, v: string, expr: string): string[] =>
      [`    func ${name}(_ rows: [Row]) -> Int {`, `        var ${v} = 0`, '        for row in rows {', `            ${v} += ${expr}`, '        }', `        return ${v}`, '    }'];
    const code = lines(['struct Totals {', ...fn('count', 'acc', '1'), '', ...fn('sum', 'acc', 'row.amount'), '}']);
    const update = lines(['    // ...', ...fn('count', 'rowCount', '1'), '    // ...']);
    const expected = lines(['struct Totals {', ...fn('count', 'rowCount', '1'), '', ...fn('sum', 'acc', 'row.amount'), '}']);
    mergedWith(code, update, 'In count, rename acc to rowCount', expected);
  });

  it('a place that is no definition of the file does not narrow the rename', () => {
    const o = splitLines(lines(['def load(path):', '    return open(path).read()']));
    expect(renameScope('rename load to read_text in the whole module', o)).toBeNull();
    expect(renameScope('rename path to p in load', o)).toEqual([[0, 2]]);
  });
});
