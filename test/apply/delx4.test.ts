// A test or method deleted by adjacency next to one whose body the update elides (docs/apply.md,
// branch delx4). `@Test` / `fun a() {…}`, then `@Test` / `fun c() { // ... }`: body-markers.ts fills
// c's body in from the original, which leaves the update with no marker at all, and the line merge's
// no-loss pass then read it as marker-less pieces, whose left-out blocks rule (b) never deletes
// (markerless-pieces.ts), and put b back. That pass now judges against the update with its body
// markers as written (merge.ts `judged`), as the final pass already did; the licence is unchanged.
// Controls: a marker between the shown tests keeps b; anchors in different classes keep everything.
import { beforeAll, describe, it } from 'vitest';
import { mergedCase } from './bench-case.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

const probe = (name: string, set = 'probes-delx4'): void => mergedCase(`${set}/${name}`);

describe('delx4: a deletion next to a block whose body the update elides', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });
  it('a Rust test between tests, the next one elided (probes-removx rs01)', () => probe('rs01-delete-test-between-tests', 'probes-removx'));
  it('a JUnit test between annotated tests (probe java02)', () => probe('java02-delete-test-annotated-next-body-elided'));
  it('an xUnit fact with Allman braces (probe cs01)', () => probe('cs01-delete-fact-next-body-elided'));
  it('a decorated Nest route (probe ts03)', () => probe('ts03-delete-decorated-route-next-body-elided'));
  it('a Kotlin test the instruction names only by its reason (probe kt01)', () => probe('kt01-delete-test-next-body-elided'));
  it('control: a marker between the shown tests keeps the test between (probe kt02)', () => probe('kt02-control-marker-between-tests-kept'));
  it('control: anchors in different classes keep everything (probe kt03)', () => probe('kt03-control-anchors-in-different-classes-kept'));
});
