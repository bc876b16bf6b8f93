// A new route written in the shape of its neighbour (`router.post(` / `'/:id/publish',` / … / `try {`
// … `} catch (err) { next(err); }`), between a marker and the next route's comment or head: its lines
// were matched into the route above (the same `router.post(`, `handleValidation,`, `next(err);`) and
// that route's own lines read as edited away (28by js01, 28bz js08, lossy at 0.3; 26d ts01). The copy
// stands for that route only when it shows most of that route's own lines (copied-sibling.ts copyOf):
// siblings are read past the comment naming each route, a call head named by another literal below it
// is not the same head, and calls of one receiver (`router.post(`, `router.get('/:id', …) => {`) are
// alike heads.
import { beforeAll, describe, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('a new route copying its neighbour', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('keeps the neighbour route whole (28by js01, 28bz js08, 26d ts01)', () => {
    mergedCase(caseDir('external-2026-11-28by', 'js01-'));
    mergedCase(caseDir('external-2026-11-28bz', 'js08-'));
    mergedCase(caseDir('external-2026-11-26d', 'ts01-'));
  });

  it('keeps the neighbour route whole under a comment naming the next route (probe)', () => {
    mergedCase('probes-routex2/js01-new-route-copies-route-above-before-comment');
  });

  it('still reads a route edited in place, or given another path, as its edit (controls)', () => {
    mergedCase('probes-routex2/js02-control-route-edited-in-place');
    mergedCase('probes-routex2/js03-control-route-path-changed');
  });

  it('still places new handlers of other frameworks copied from their neighbours (controls)', () => {
    mergedCase('probes-routex2/ts01-new-route-copies-last-route-before-export');
    mergedCase('probes-routex2/go01-new-handler-copies-handler-above-before-next');
    mergedCase('probes-routex2/java01-new-mapping-copies-method-above');
    mergedCase('probes-routex2/rb01-new-action-copies-action-above');
    mergedCase('probes-routex2/py01-new-view-copies-view-above');
  });
});
