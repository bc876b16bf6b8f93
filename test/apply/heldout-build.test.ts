// Writes the held-out corpus (test/apply/heldout/cases) from the sample files in heldout/src: every
// shape of edit-shapes.ts over every file, two variants each, plus CRLF and BOM variants. Run only on
// purpose (BUILD_HELDOUT=1 npx vitest run test/apply/heldout-build.test.ts); the cases are committed.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { langOf, pinned, rng } from './edit-gen.js';
import { SHAPES, shapeEdit } from './edit-shapes.js';
import { HELDOUT_DIR } from './corpus-loader.js';

const SRC = join(import.meta.dirname, 'heldout', 'src');

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

it.skipIf(!process.env.BUILD_HELDOUT)('builds the held-out corpus', () => {
  rmSync(HELDOUT_DIR, { recursive: true, force: true });
  mkdirSync(HELDOUT_DIR, { recursive: true });
  let n = 0;
  let skipped = 0;
  // Samples are stored as `<name>.<ext>.txt` so the project's type-check and linters leave them alone.
  for (const stored of readdirSync(SRC).sort()) {
    const file = stored.replace(/\.txt$/, '');
    const lang = langOf(file)!;
    const text = readFileSync(join(SRC, stored), 'utf8');
    const lines = text.replace(/\n$/, '').split('\n');
    const seen = new Set<string>();
    const variants: Array<[string, number, Record<string, unknown>]> = [];
    for (const shape of Object.keys(SHAPES)) for (const v of [0, 1]) variants.push([shape, v, {}]);
    variants.push(['edit-in-function', 7, { crlf: true }], ['anchor-new-marker', 8, { crlf: true }], ['edit-in-function', 9, { bom: true }]);
    for (const [shape, v, extra] of variants) {
      const e = shapeEdit(shape, lines, lang, rng(hash(`${file}:${shape}:${v}`)));
      if (!e || e.expected === text || seen.has(e.update)) continue;
      if (!pinned(lines, e.update)) {
        skipped++;
        continue;
      }
      seen.add(e.update);
      const tags = [shape, ...Object.keys(extra)];
      const body = [
        '@@@ options', JSON.stringify({ lang: lang.name, tags, ...extra }),
        '@@@ instruction', e.instruction,
        '@@@ code', text.replace(/\n$/, ''),
        '@@@ update', e.update,
        '@@@ expected', e.expected.replace(/\n$/, ''),
        '',
      ].join('\n');
      const name = `${file.replace(/\./g, '-')}--${shape}${v ? `-${v}` : ''}${extra.crlf ? '-crlf' : ''}${extra.bom ? '-bom' : ''}`;
      writeFileSync(join(HELDOUT_DIR, `${name}.case`), body);
      n++;
    }
  }
  console.log(`held-out corpus: ${n} cases written, ${skipped} left out as undetermined`);
  expect(n).toBeGreaterThanOrEqual(250);
});
