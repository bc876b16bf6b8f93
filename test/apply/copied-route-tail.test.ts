// A new route written after a marker in the shape of the route above it (`try {` … `} catch (err) {
// next(err); }`), then `module.exports`: growing up from the anchor, a hop over two original lines
// paired its copied `next(err);` / `} catch (err) {` with the old route's, reading the old route's `}`
// and `});` as deleted, so its tail was lost (26o js01, lossy at 0.3). A hop over original lines never
// deletes only the closers of blocks opened above it (merge-finish.ts headSkip).
import { beforeAll, describe, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('a new route copying the tail of the route above it', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('keeps the old route whole and adds the new one after it (26o js01)', () => {
    mergedCase(caseDir('external-2026-11-26o', 'js01-'));
  });

  it('still places new handlers copied from their neighbours (probes)', () => {
    mergedCase('probes-ordx5/ts06-new-handler-copies-neighbour-tail-before-next');
    mergedCase('probes-ordx5/go07-new-handler-copies-last-handler-tail');
    mergedCase('probes-ordx5/js08-new-route-copies-route-above-before-anchor-route');
  });
});
