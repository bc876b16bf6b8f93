// A new sibling read as the edit of the line it copies, retried (branch losscl2): parallel-names.ts
// withdraws a "replaced" licence when the new line's name lives beside the old one elsewhere in the
// output (`this.exporting$.next(true);` beside the kept `this.loading$.next(true);`), except where the
// update shows the new line right beside the old line's once-line neighbour: that is its place, an
// edit there (a field added beside the one a call switched from: 26g go04, probes-usesx2).
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';
import { keepsEveryLine, readCase } from './bench-case.js';

/** Every line kept in fast and large (bench-case.ts), and an inexact output says it is unsure. */
function keepsCode(dir: string): void {
  keepsEveryLine(dir);
  const c = readCase(dir);
  for (const mode of ['fast', 'large'] as const) {
    const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, mode);
    if (r.content !== c.expected) expect(r.confidence, mode).toBeLessThan(0.9);
  }
}

describe('a new sibling read as the edit of the line it copies, retried (losscl2)', () => {
  beforeAll(async () => {
    await ensureAllGrammars();
  });

  it('a new BehaviorSubject between markers, driven the way loading$ is: loading$ stays (lost at confidence 1 on main)', () => {
    keepsCode('probes-losscl2/ts01-store-new-subject-beside-loading');
  });

  it('a new flag at the end of __init__ between markers, set the way the flushing flag is: the flushing flag stays', () => {
    keepsCode('probes-losscl2/py01-upload-queue-new-flag-beside-flushing');
  });

  it('the loss check refuses a new subject taking the look-alike\'s place', () => {
    const code = 'class Store {\n  private readonly items$ = new Subject([]);\n  private readonly loading$ = new Subject(false);\n  private readonly filter$ = new Subject(\'\');\n\n  refresh(): void {\n    this.loading$.next(true);\n  }\n}\n';
    const update = 'class Store {\n  // ... existing subjects ...\n  private readonly saving$ = new Subject(false);\n\n  // ... existing code ...\n\n  save(): void {\n    this.saving$.next(true);\n  }\n}\n';
    const lossy = 'class Store {\n  private readonly items$ = new Subject([]);\n  private readonly saving$ = new Subject(false);\n  private readonly filter$ = new Subject(\'\');\n\n  refresh(): void {\n    this.loading$.next(true);\n  }\n\n  save(): void {\n    this.saving$.next(true);\n  }\n}\n';
    expect(checkLoss(code, update, null, lossy).lost).toEqual([2]);
  });

  it('control: a call switched to a new field the update shows right below its once-line neighbour is still an edit', () => {
    for (const dir of ['external-2026-11-26g/go04-out-of-order-hunks', 'probes-usesx2/py02-control-callers-switched-import-beside-old']) {
      const c = readCase(dir);
      expect(checkLoss(c.code, c.update, c.instruction, c.expected).lost).toEqual([]);
    }
  });
});
