// Tree-sitter cost for the syntax pass: grammar load time (first use in a thread) and parse time
// per language and file size, plus the whole syntax pass (update segments + original parse +
// definition matching, first call: the original is not cached yet) for one whole-definition edit. Files of ~100 / 1,000 / 10,000 lines are
// the held-out samples repeated (parse cost depends on size and grammar, not on uniqueness).
//
//   node dist/bench/apply/parse-bench.js [--sizes 100,1000,10000] [--iters 30,10,3]
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { extractDefinitions } from '../../src/apply/syntax/definitions.js';
import { detectLanguages } from '../../src/apply/syntax/detect.js';
import { ensureGrammar, loadMs, type LanguageId } from '../../src/apply/syntax/grammars.js';
import { syntaxPass } from '../../src/apply/syntax/place.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '100,1000,10000' },
    iters: { type: 'string', default: '30,10,3' },
  },
});
const sizes = args.sizes.split(',').map(Number);
const iters = args.iters.split(',').map(Number);

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

const dir = join(PACKAGE_ROOT, 'test', 'apply', 'heldout', 'src');
console.log('| language | grammar load ms | lines | parse p50 ms | parse p99 ms | syntax pass ms (uncached) | definitions |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const file of readdirSync(dir).sort()) {
  const sample = readFileSync(join(dir, file), 'utf8');
  const lang = detectLanguages(sample)[0];
  if (!lang || lang === 'sql') continue;
  const parser = await ensureGrammar(lang as LanguageId);
  if (!parser) continue;
  const sampleLines = sample.replace(/\n$/, '').split('\n');
  // The header (package, imports) once, then copies of the part from the first definition on,
  // so larger files still parse without errors.
  const headTree = parser.parse(sample)!;
  const firstDef = extractDefinitions(headTree, lang as LanguageId, sample)[0]?.start ?? 0;
  headTree.delete();
  for (let s = 0; s < sizes.length; s++) {
    const n = sizes[s]!;
    const body = sampleLines.slice(firstDef);
    const copies = Math.max(1, Math.round((n - firstDef) / body.length));
    const code = [...sampleLines.slice(0, firstDef), ...Array.from({ length: copies }, () => body).flat()].join('\n') + '\n';
    const ms: number[] = [];
    let defs = 0;
    for (let i = 0; i < (iters[s] ?? 3); i++) {
      const t0 = performance.now();
      const tree = parser.parse(code)!;
      ms.push(performance.now() - t0);
      if (i === 0) defs = tree.rootNode.hasError ? -1 : extractDefinitions(tree, lang as LanguageId, code).length;
      tree.delete();
    }
    // One whole-definition edit: the sample's last definition shown complete with a line added.
    const tree = parser.parse(sample)!;
    const last = extractDefinitions(tree, lang as LanguageId, sample).filter((d) => d.parent === -1 && d.end > d.start).pop();
    tree.delete();
    let passMs = NaN;
    if (last) {
      const body = sampleLines.slice(last.start, last.end + 1);
      const comment = lang === 'python' || lang === 'ruby' || lang === 'bash' || lang === 'yaml' ? '#' : lang === 'css' ? '/*' : '//';
      const marker = comment === '/*' ? '/* ... existing code ... */' : `${comment} ... existing code ...`;
      const update = [marker, ...body.slice(0, -1), body[body.length - 1]!, marker].join('\n');
      const pass: number[] = [];
      for (let i = 0; i < Math.max(1, iters[s] ?? 3); i++) {
        const t0 = performance.now();
        syntaxPass(code, update);
        pass.push(performance.now() - t0);
      }
      // The first call parses the original; later ones find its definitions in the cache.
      passMs = pass[0]!;
    }
    const nLines = code.split('\n').length - 1;
    console.log(`| ${lang} | ${s === 0 ? (loadMs.get(lang as LanguageId) ?? 0).toFixed(0) : ''} | ${nLines} | ${quantile(ms, 0.5).toFixed(2)} | ${quantile(ms, 0.99).toFixed(2)} | ${passMs.toFixed(2)} | ${defs} |`);
  }
}
