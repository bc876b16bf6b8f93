// A new route, stage or test block written in the shape of its neighbour, after a marker and before
// the enclosing closers (branch sibanc2): the copy's head names another thing by its first literal
// (`post("/{id}/renew") {` beside `post("/{id}/return") {`, `stage('Deploy production') {`), and
// its body lines sit under that other head, so the merge took the head as the neighbour's edit and
// the copy stood in for the neighbour, whose head and own lines were dropped. Bare calls on a literal
// are siblings of one kind (copied-sibling.ts sameLiteralCall), a chain whose anchors all lie inside
// a copy is emptied, and an edited-line anchor inside a copy under a renamed literal is refused
// (merge-finish.ts outsideCopiedHeads); a `{` list entry edited in place (28bz js10, lossx7.test.ts)
// has no literal head and stays its edit.
import { describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { caseDir, mergedCase, readCase } from './bench-case.js';

describe('a new block copying its neighbour, anchored on or paired with it (sibanc2)', () => {
  it('a Ktor route under another path, half of the route above shown, goes in beside it (probes-sibx kt01)', () => {
    mergedCase(caseDir('probes-sibx', 'kt01-'));
  });

  it('a Laravel route closure whose shown lines all lie in the copy goes in beside the route it copies (probes-sibx php01)', () => {
    mergedCase(caseDir('probes-sibx', 'php01-'));
  });

  it('a Ktor refund route copying the cancel route above keeps the cancel route', () => {
    mergedCase(caseDir('probes-sibanc2', 'kt01-'));
  });

  it('a Jenkins stage copying the stage above keeps that stage', () => {
    mergedCase(caseDir('probes-sibanc2', 'groovy01-'));
  });

  it('an Akka HTTP path copying the path above keeps that path', () => {
    mergedCase(caseDir('probes-sibanc2', 'scala01-'));
  });

  it('control: a webpack rule entry edited in place stays its edit (28bz js10)', () => {
    const c = readCase(caseDir('external-2026-11-28bz', 'js10-'));
    const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
    expect(checkLoss(c.code, c.update, c.instruction, r.content).lost).toEqual([]);
    expect(r.content).toBe(c.expected);
  });
});
