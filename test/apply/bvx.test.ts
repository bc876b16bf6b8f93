// The held-out set bv (docs/apply.md, branch `bvx`): its two losses.
// - go01: rows appended after the last row of a Go table, copying earlier rows' values. Two lines the
//   original has once stood in opposite orders (the last old row's `name:`, a new row's `want:` equal
//   to an earlier row's); the pivot went to the one with more supporters, all of them `wantErr:
//   false,`-like lines repeated everywhere (merge-fast.ts rarerRival).
// - nginx01: a new `location /v1/stream {` copying the `proxy_*` lines of the `location / {` the
//   hunk shows after it; the copies took the old block's lines and the old head went to another
//   server's copy (merge-fast.ts passesShownHead).
import { beforeAll, describe, it } from 'vitest';
import { caseDir, mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

describe('held-out set bv (bvx)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('appends table rows after the last row whose unique lines the new rows contradict (28bv go01)', () => {
    mergedCase(caseDir('external-2026-11-28bv', 'go01-'));
  });

  it('appends dict rows copying an earlier row\'s unique value (probe py01)', () => {
    mergedCase('probes-bvx/py01-parametrize-dict-rows-appended');
  });

  it('keeps a new location\'s copied lines out of the old location shown after it (28bv nginx01)', () => {
    mergedCase(caseDir('external-2026-11-28bv', 'nginx01-'));
  });

  it('controls: an edited location head keeps its body, an edited middle row stays in place, a rewritten method keeps its neighbours', () => {
    for (const name of ['nginx03-control-location-path-edited-before-shown-head', 'rb01-control-middle-row-edited', 'rb02-method-rewritten-whole-new-each-block', 'nginx02-new-location-copying-next-in-second-server', 'py02-new-method-copying-next-method-in-twin-class']) {
      mergedCase(`probes-bvx/${name}`);
    }
  });
});
