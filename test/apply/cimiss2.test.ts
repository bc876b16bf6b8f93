// The fresh rounds' misses (branch cimiss2): a CMake block's `endif()` is weak, like `fi` or `end`, so
// a new `if(…)` block's closer no longer anchors at a far later `endif()` (keeping the blocks between
// as uncertain); and a shell `case` branch's `;;` after rewritten last lines closes the branch whose
// head is paired (flat-blocks.ts `caseBranchCloser`), so the old last command is not kept beside its rewrite.
import { describe, expect, it } from 'vitest';
import { readCase } from './bench-case.js';
import { mergedEverywhere } from './judged.js';
import { isWeak } from '../../src/apply/lines.js';

function exact([code, update, expected]: [string, string, string], mode: 'fast' | 'large'): void {
  mergedEverywhere(code, update, expected, null, [mode]);
}

const read = (set: string, name: string): [string, string, string] => {
  const c = readCase(`${set}/${name}`);
  return [c.code, c.update, c.expected];
};

describe('CMake block closers are weak lines (cimiss2)', () => {
  it('endif() and the other end…() commands are weak; other CMake commands are not', () => {
    for (const n of ['endif()', 'endforeach()', 'endfunction()', 'ENDIF()', 'endif(WITH_X)', 'endmacro()', 'endwhile()']) expect(isWeak(n)).toBe(true);
    for (const n of ['endpoint_config()', 'add_executable(app main.cpp)', 'end_of_build(x y)']) expect(isWeak(n)).toBe(false);
  });

  for (const mode of ['fast', 'large'] as const) {
    it(`${mode}: a new option block between look-alike if() blocks, a long block with the next endif() further down`, () => {
      exact(read('probes-cimiss2', 'cmake01-new-backend-option-block-beside-sibling'), mode);
    });
  }

  it('fast: a new one-line find_package block beside its sibling (28ce cmake01)', () => {
    exact(read('external-2026-11-28ce', 'cmake01-add-lz4-option-beside-zstd'), 'fast');
  });

  it('fast: a new link block at a hunk end, the file ending in a long if() block (29ch cmake01)', () => {
    exact(read('external-2026-11-29ch', 'cmake01-add-optional-jaeger-exporter'), 'fast');
  });
});

describe("a shell case branch's ;; after rewritten last lines closes that branch (cimiss2)", () => {
  for (const mode of ['fast', 'large'] as const) {
    it(`${mode}: a new line, the exec rewritten, ;; then a marker for the other branches (29ci sh02)`, () => {
      exact(read('external-2026-11-29ci', 'sh02-entrypoint-case-branches'), mode);
    });

    it(`${mode}: the find line rewritten between two new lines`, () => {
      exact(read('probes-cimiss2', 'sh01-case-branch-last-command-rewritten'), mode);
    });

    it(`${mode}: an init script's start branch: a new mkdir, the daemon line rewritten`, () => {
      exact(read('probes-cimiss2', 'sh04-init-script-start-branch-rewritten'), mode);
    });

    it(`${mode}: controls — a branch's only command rewritten, a middle branch's last command edited`, () => {
      exact(read('probes-cimiss2', 'sh02-control-getopts-branch-only-command-rewritten'), mode);
      exact(read('probes-cimiss2', 'sh03-control-middle-branch-last-command-edited'), mode);
    });
  }
});
