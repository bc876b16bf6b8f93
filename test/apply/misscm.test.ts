// Hunks out of the file's order, placed by the model's own notes (branch misscm):
// - a prose locator whose target the update itself shows in another hunk (`/* add above
//   ringbuf_read: */` after the rewritten `ringbuf_read`): the new code goes next to that hunk;
// - `// new handler, goes after get_bookmark`: a `new <kind>,` locator with a verb, whose hunk opens
//   on a line the original has twice (`#[derive(Debug, Deserialize)]`), so that line anchors nothing;
// - numbered hunk headings (`// 1) in getOrLoad, after the bypass check:`, `// 2) …`) and the title
//   line above the first: placement, never content;
// - `// in router(): add the PATCH route` opening the update: a place and its note.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLoss } from '../../src/apply/loss.js';
import { mergeApply } from '../../src/apply/merge.js';
import { ensureAllGrammars } from '../../src/apply/syntax/grammars.js';

// The syntax pass reads the grammars, as on the server (apply1 and the benchmarks load them).
beforeAll(async () => { await ensureAllGrammars(); }, 120_000);

const BENCH = join(import.meta.dirname, '../../bench/apply');

function benchCase(set: string, id: string): { code: string; update: string; expected: string; instruction: string | null } {
  const read = (f: string): string => readFileSync(join(BENCH, set, id, f), 'utf8');
  const meta = JSON.parse(read('meta.json')) as { instruction: string | null };
  return { code: read('original'), update: read('update'), expected: read('expected'), instruction: meta.instruction };
}

// `lossChecked` false: checkLoss reads the update as written, where the located hunk still stands
// apart from the hunk that shows its target (go01) or the note is no marker (rs02), so it cannot
// license the replaced lines; the output is still compared byte for byte with the expected file.
function exactInBothModes(set: string, id: string, lossChecked = true): void {
  const { code, update, expected, instruction } = benchCase(set, id);
  for (const mode of ['fast', 'large'] as const) {
    const r = mergeApply({ code, update, instruction }, mode);
    if (lossChecked) expect(checkLoss(code, update, instruction, r.content).lost).toEqual([]);
    expect(r.content).toBe(expected);
  }
}

describe('hunks out of order placed by prose locators and headings (misscm)', () => {
  it('a helper added above a function the update rewrites in an earlier hunk (C)', () => {
    exactInBothModes('external-2026-11-29cl', 'c01-ringbuf-dedupe-read-and-peek-hunks-reversed');
  });
  it('the same in Go: the helper goes above the shown Pop, not a second copy of its header', () => {
    exactInBothModes('probes-misscm', 'go01-shown-target-helper-added-above-hunks-reversed', false);
  });
  it('`new handler, goes after get_bookmark` and `in router(): add the PATCH route` (Rust)', () => {
    exactInBothModes('external-2026-11-29cm', 'rs02-axum-add-patch-route-and-handler-prose-located', false);
  });
  it('`new helper, goes after load_config` over a decorator the original has twice (Python)', () => {
    exactInBothModes('probes-misscm', 'py01-new-helper-goes-after-a-function-first-line-repeated');
  });
  it('five hunks under numbered headings and a title line (TypeScript)', () => {
    exactInBothModes('external-2026-11-29cm', 'ts03-cache-service-five-hunks-out-of-order');
  });
  it('three hunks in reverse order under numbered headings (Java)', () => {
    exactInBothModes('probes-misscm', 'java01-numbered-hunk-headings-out-of-order');
  });
  it('`in projectRoutes(): register the archive route` opening the update (TypeScript)', () => {
    exactInBothModes('probes-misscm', 'ts01-in-function-colon-note-route-line-edit');
  });
});
