// New code written in the shape of a neighbour in a language whose blocks have no brackets (branch
// sibflat): a new Ansible task or workflow step copying the one above, a new shell `case` branch
// copying a loop, a new CMake `if()` … `endif()` block, a new Dockerfile stage. copied-sibling.ts read
// blocks by their brackets only, so the copy was paired line by line with the next sibling and that
// sibling's own lines were lost; flat-blocks.ts gives it these blocks.
import { beforeAll, describe, expect, it } from 'vitest';
import { keepsEveryLine, mergedCase, readCase } from './bench-case.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { flatBlock } from '../../src/apply/flat-blocks.js';
import { splitLines } from '../../src/apply/lines.js';

const probe = (set: string, name: string): void => mergedCase(`${set}/${name}`);

describe('sibflat: blocks without brackets', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('flatBlock reads a YAML list item, a case branch, a CMake if block and a Dockerfile stage', () => {
    const yaml = splitLines(['- name: a', '  copy:', '    src: x', '', '- name: b', '  debug: {}', ''].join('\n'));
    expect(flatBlock(yaml, 0, 1)).toEqual([0, 2]);
    expect(flatBlock(yaml, 2, -1)).toEqual([0, 2]);
    const sh = splitLines(['case "$1" in', '  start)', '    run', '    ;;', '  *)', '    exit 2', '    ;;', 'esac', ''].join('\n'));
    expect(flatBlock(sh, 1, 1)).toEqual([1, 3]);
    expect(flatBlock(sh, 6, -1)).toEqual([4, 6]);
    const cmake = splitLines(['if(A)', '  if(B)', '    x()', '  endif()', 'endif()', ''].join('\n'));
    expect(flatBlock(cmake, 0, 1)).toEqual([0, 4]);
    expect(flatBlock(cmake, 3, -1)).toEqual([1, 3]);
    const docker = splitLines(['FROM node:20 AS build', 'WORKDIR /src', 'RUN make', '', 'FROM nginx:1.27', 'COPY --from=build /src/out /srv', ''].join('\n'));
    expect(flatBlock(docker, 0, 1)).toEqual([0, 2]);
    expect(flatBlock(docker, 5, -1)).toEqual([4, 5]);
  });
  it('a SQL FROM line and a C if without braces head no block', () => {
    const sql = splitLines(['SELECT id', 'FROM orders AS o', 'WHERE o.total > 0;', ''].join('\n'));
    expect(flatBlock(sql, 1, 1)).toBeNull();
    const c = splitLines(['if (ready)', '    start();', ''].join('\n'));
    expect(flatBlock(c, 0, 1)).toBeNull();
  });
  it('a new Ansible task copying the TLS task keeps the site-configs task (29cf ansible01)', () => mergedCase('external-2026-11-29cf/ansible01-new-template-task-cloned-from-tls-snippet-task'));
  it("a new `rollback)` case branch copying deploy's loop keeps that loop (29cf sh01)", () => mergedCase('external-2026-11-29cf/sh01-deploy-script-rollback-command-and-drop-legacy-tag'));
  it('a new Dockerfile stage copying the stage above keeps the next stage (26m docker03)', () => mergedCase('external-2026-11-26m/docker03-anchor-new-code-marker'));
  it('a new CMake if() block copying the one above keeps the blocks after it (28ce cmake01): exact in large, nothing lost in fast', () => {
    const dir = 'external-2026-11-28ce/cmake01-add-lz4-option-beside-zstd';
    const c = readCase(dir);
    expect(mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'large').content).toBe(c.expected);
    keepsEveryLine(dir);
  });
  it('a new workflow step copying the step above keeps the next step (probe yaml01)', () => probe('probes-sibflat', 'yaml01-actions-step-copies-step-above'));
  it('a new build stage copying the stage above keeps the next stage (probe docker01)', () => probe('probes-sibflat', 'docker01-stage-copies-stage-above'));
  it('a new option block copying the one above (probe cmake01)', () => probe('probes-sibflat', 'cmake01-option-block-copies-block-above'));
  it('control: a task renamed in place with its body kept stays its edit (probe yaml02)', () => probe('probes-sibflat', 'yaml02-control-task-renamed-in-place'));
  it('control: a new case branch after a marker (probe sh01)', () => probe('probes-sibflat', 'sh01-case-branch-copies-branch-above'));
});
