// Placements of branch lossi that the corpus alone cannot tell from luck: the no-loss pass can put
// back what a wrong placement dropped and still come out byte-exact, at a lowered confidence. These
// cases must come out exact with nothing put back (report.restored empty) in fast mode.
// - closers after a marker close the blocks earlier segments left open, not the file (edge-markers.ts;
//   set g go03, f c01), with a condition grown at its front read as the header's edit (merge-finish.ts);
// - a repeated line of new code is no anchor at the next occurrence (coincident-anchors.ts; set g go05);
// - a new document after `---` anchors nothing (documents.ts; set g yaml03);
// - a segment that opens with closers of the block its predecessor opened stays after it (hunk-order.ts),
//   keeps no pivot its new code only shares with the next route, and a route head named by the
//   literal below it is no edit of another route's (merge-finish.ts edgeMatch; set j js01).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeApply } from '../../src/apply/merge.js';
import { CORPUS_DIR, parseCase } from './corpus-loader.js';

const CASES = [
  'ts-condition-grown-at-front-closer-after-marker',
  'java-rewritten-returns-in-twin-method-closer-after-marker',
  'py-new-block-after-anchor-shares-check',
  'md-new-slide-after-last-of-repeated-layouts',
  'ts-new-route-after-closers-of-shown-route',
];

describe('lossi placements keep nothing by luck', () => {
  for (const name of CASES) {
    it(name, () => {
      const c = parseCase(name, readFileSync(join(CORPUS_DIR, `${name}.case`), 'utf8'));
      const r = mergeApply({ code: c.code, update: c.update, instruction: c.instruction }, 'fast');
      expect(r.content).toBe(c.expected);
      expect(r.report.restored).toEqual([]);
    });
  }
});
