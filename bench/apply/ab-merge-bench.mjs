// node bench/apply/ab-merge-bench.mjs <baseRoot> <newRoot> <sizes> <iters> [hunks|definitions]: mergeApply p50/p99 of two built checkouts (dist/), alternated merge by merge so both see the same load; outputs checked equal first.
import { join } from 'node:path';
const [baseRoot, newRoot, sizesArg, itersArg, kind = 'hunks'] = process.argv.slice(2);
const load = async (root) => ({
  merge: (await import(join(root, 'dist/src/apply/merge.js'))).mergeApply,
  grammars: (await import(join(root, 'dist/src/apply/syntax/grammars.js'))).ensureAllGrammars,
});
const A = await load(baseRoot), B = await load(newRoot);
await A.grammars(); await B.grammars();
const { makeFile, makeUpdate, makeDefinitionUpdate } = await import(join(newRoot, 'dist/bench/apply/synthetic-edit.js'));
const { servedTokenizer } = await import(join(newRoot, 'dist/src/apply/tokens.js'));
const tok = servedTokenizer();
const q = (s, p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
const sizes = sizesArg.split(',').map(Number), iters = itersArg.split(',').map(Number);
console.log(`| lines | update | mode | tokens | main p50 | perfx p50 | main p99 | perfx p99 | perfx/main p50 | perfx tok/s (p50) |`);
console.log('|---:|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (let s = 0; s < sizes.length; s++) {
  const n = sizes[s], it = iters[s] ?? iters.at(-1);
  const code = makeFile(n);
  const update = kind === 'definitions' ? makeDefinitionUpdate(code) : makeUpdate(code);
  for (const mode of ['fast', 'large']) {
    const input = { instruction: null, code, update };
    const ra = A.merge(input, mode), rb = B.merge(input, mode);
    if (ra.content !== rb.content || ra.confidence !== rb.confidence) throw new Error(`outputs differ at ${n} ${mode}`);
    const tokens = tok.encode(rb.content, { addSpecial: false }).length;
    for (let i = 0; i < 3; i++) { A.merge(input, mode); B.merge(input, mode); }
    const ta = [], tb = [];
    for (let i = 0; i < it; i++) {
      for (const [f, out] of [[A.merge, ta], [B.merge, tb]]) { const t = performance.now(); f(input, mode); out.push(performance.now() - t); }
    }
    ta.sort((x, y) => x - y); tb.sort((x, y) => x - y);
    const [a50, b50] = [q(ta, 0.5), q(tb, 0.5)];
    console.log(`| ${n} | ${kind} | ${mode} | ${tokens} | ${a50.toFixed(1)} | ${b50.toFixed(1)} | ${q(ta, 0.99).toFixed(1)} | ${q(tb, 0.99).toFixed(1)} | ${(b50 / a50).toFixed(2)} | ${Math.round(tokens / b50 * 1000).toLocaleString('en-US')} |`);
  }
}
