// Guard of branch orderx3 (docs/apply.md): hunks written out of file order. (1) A hunk with no line
// the original has once (a helper's edited head over body lines every method repeats) is placed by
// that head when the no-loss check reads which rows a marker stands for (loss.ts markerCovered), and
// by the merge when its repeated lines tie (merge-fast.ts segmentPlace). (2) A line that keeps every
// token of the original one, in order, grew: it is no new sibling (edit-evidence.ts newSiblingLine).
// (3) A one-line paragraph going back above (`<script lang="ts">` after the template's hunk), then a
// marker and a hunk inside the block it opens, is cut off (hunk-order.ts backwardCut). Revealed by
// sets bk go13, bl jl18 and bj svelte01; the guards read those cases and the branch's probes, with
// two controls.
import { beforeAll, describe, it } from 'vitest';
import { ensureGrammar } from '../../src/apply/syntax/grammars.js';
import { mergedCase } from './bench-case.js';

beforeAll(async () => {
  for (const lang of ['go', 'python', 'typescript'] as const) await ensureGrammar(lang);
});

describe('orderx3: hunks out of file order', () => {
  it('a helper whose edited head is its only line of its own, written after its callers, keeps no old line (Go, bk go13)', () =>
    mergedCase('external-2026-11-28bk/go13-signature-change-callers-out-of-order'));
  it('a helper whose body lines repeat in sibling methods goes back to its place (Python)', () =>
    mergedCase('probes-orderx3/py01-helper-signature-after-callers'));
  it('a format line grown with a new field beside a sibling format line is its edit (Julia, bl jl18)', () =>
    mergedCase('external-2026-11-28bl/jl18-hunks-out-of-order-new-field'));
  it('the same, another file (Julia probe)', () => mergedCase('probes-orderx3/jl01-printf-grown-then-struct-above'));
  it('a template hunk, then `<script lang="ts">` and a marker, goes in file order (Svelte, bj svelte01)', () =>
    mergedCase('external-2026-11-28bj/svelte01-hunks-out-of-file-order'));
  it('a function, then its class head above and a marker, goes in file order (Python)', () =>
    mergedCase('probes-orderx3/py02-function-then-class-head-above-marker'));
  it('control: a grown sibling shown beside its unchanged neighbour is new (Python)', () =>
    mergedCase('probes-orderx3/py03-control-grown-sibling-beside-shown-line'));
  it('control: hunks in file order with a head then a marker stay as written (Go)', () =>
    mergedCase('probes-orderx3/go01-control-in-order-head-then-marker'));
});
