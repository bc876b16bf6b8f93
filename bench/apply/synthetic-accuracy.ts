// Exact-match rate on synthetic edits of real source files (this repository's own TypeScript and
// C++): each trial applies 1-3 random edits (modify a line, insert lines, delete lines) to a file,
// then writes the update the way an editing model would (changed lines with 2 lines of context,
// every longer unchanged run replaced by `// ... existing code ...`). The merge must give back the
// edited file byte for byte. Deterministic (seeded); context lines may be genuinely ambiguous
// (`}` and blank lines), so 100% is not expected: this measures, it does not gate.
//
//   node dist/bench/apply/synthetic-accuracy.js [--trials 300] [--seed 7] [--show 3]
//   node dist/bench/apply/synthetic-accuracy.js --root /usr/lib/python3.11 --ext .py --comment '#'
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mergeApply, type MergeMode } from '../../src/apply/merge.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { seededRandom } from '../../src/bench/stats.js';

const { values: args } = parseArgs({
  options: {
    trials: { type: 'string', default: '300' },
    seed: { type: 'string', default: '7' },
    show: { type: 'string', default: '0' },
    context: { type: 'string', default: '2' },
    /** Source folder and extensions (default: this repository's src/*.ts and native/*.cpp|h). */
    root: { type: 'string' },
    ext: { type: 'string', default: '.ts,.cpp,.h' },
    /** Line-comment token of those files (`#` for Python). */
    comment: { type: 'string', default: '//' },
    /** Write the first N fast failures as corpus-format .case files into this folder. */
    dump: { type: 'string' },
  },
});

const COMMENT = args.comment;
const MARKER = `${args.comment} ... existing code ...`;

function listFiles(dir: string, exts: string[], out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) listFiles(p, exts, out);
    else if (exts.some((x) => e.endsWith(x))) out.push(p);
  }
  return out;
}

interface Line {
  text: string;
  /** Index in the original, or -1 for a new or modified line. */
  from: number;
}

function makeTrial(code: string, rand: () => number, context: number): { update: string; expected: string } | null {
  const orig = code.endsWith('\n') ? code.slice(0, -1).split('\n') : code.split('\n');
  if (orig.length < 30) return null;
  let lines: Line[] = orig.map((text, i) => ({ text, from: i }));
  const edits = 1 + Math.floor(rand() * 3);
  let serial = 0;
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rand() * lines.length);
    const kind = rand();
    const ref = lines[at]!;
    const indent = /^\s*/.exec(ref.text)![0];
    if (kind < 0.4) {
      if (ref.text.trim().length < 3) continue;
      lines[at] = { text: `${ref.text}  ${COMMENT} edited ${serial++}`, from: -1 };
    } else if (kind < 0.75) {
      const n = 1 + Math.floor(rand() * 3);
      const add = Array.from({ length: n }, () => ({ text: `${indent}inserted_${serial++}();`, from: -1 }));
      lines = [...lines.slice(0, at), ...add, ...lines.slice(at)];
    } else {
      // Delete whole statements only (bracket-balanced, nothing left of the first line), as an
      // editing model would; random unbalanced cuts make updates no model writes.
      const n = 1 + Math.floor(rand() * 3);
      const cut = lines.slice(at, at + n);
      const lead = (t: string) => /^\s*/.exec(t)![0].length;
      let depth = 0;
      let dips = false;
      for (const l of cut) for (const c of l.text) {
        depth += '{(['.includes(c) ? 1 : ')}]'.includes(c) ? -1 : 0;
        if (depth < 0) dips = true;
      }
      if (depth !== 0 || dips || cut.some((l) => l.text.trim() !== '' && lead(l.text) < lead(cut[0]!.text))) continue;
      lines = [...lines.slice(0, at), ...lines.slice(at + n)];
    }
  }
  // A line is shown when it changed, or lies within `context` lines of a change (a deletion point counts).
  const changed = lines.map((l, i) => l.from < 0 || (i > 0 && lines[i - 1]!.from >= 0 && l.from >= 0 && l.from !== lines[i - 1]!.from + 1));
  if (lines.length > 0 && lines[0]!.from > 0) changed[0] = true;
  if (lines.length > 0 && lines[lines.length - 1]!.from >= 0 && lines[lines.length - 1]!.from < orig.length - 1) changed[lines.length - 1] = true;
  const show = new Array<boolean>(lines.length).fill(false);
  for (let i = 0; i < lines.length; i++) {
    if (!changed[i]) continue;
    const isDeletionPoint = lines[i]!.from >= 0;
    for (let k = i - context - (isDeletionPoint ? 1 : 0); k <= i + context; k++) if (k >= 0 && k < lines.length) show[k] = true;
  }
  if (!show.some(Boolean)) return null;
  const upd: string[] = [];
  let hidden = false;
  for (let i = 0; i < lines.length; i++) {
    if (show[i]) {
      if (hidden) upd.push(MARKER);
      hidden = false;
      upd.push(lines[i]!.text);
    } else hidden = true;
  }
  if (hidden) upd.push(MARKER);
  // A deletion at the very start or end needs the edge to be implied by the update's own edges.
  if (!show[0] && upd[0] !== MARKER) upd.unshift(MARKER);
  return { update: upd.join('\n'), expected: lines.map((l) => l.text).join('\n') + (code.endsWith('\n') ? '\n' : '') };
}

const exts = args.ext.split(',');
const files = (args.root
  ? listFiles(args.root, exts)
  : [...listFiles(join(PACKAGE_ROOT, 'src'), exts), ...listFiles(join(PACKAGE_ROOT, 'native'), exts)]
).sort();
const rand = seededRandom(Number(args.seed));
const trials = Number(args.trials);
const context = Number(args.context);
const modes: MergeMode[] = ['fast', 'large', 'auto'];
const pass = new Map<MergeMode, number>(modes.map((m) => [m, 0]));
const failures: Array<{ file: string; path: string; mode: MergeMode; update: string; expected: string; got: string }> = [];
let done = 0;
while (done < trials) {
  const file = files[Math.floor(rand() * files.length)]!;
  const code = readFileSync(file, 'utf8');
  if (code.includes('... existing code ...')) continue;
  const t = makeTrial(code, rand, context);
  if (!t) continue;
  done++;
  for (const mode of modes) {
    const r = mergeApply({ instruction: null, code, update: t.update }, mode);
    if (r.content === t.expected) pass.set(mode, pass.get(mode)! + 1);
    else failures.push({ file: file.startsWith(PACKAGE_ROOT) ? file.slice(PACKAGE_ROOT.length + 1) : file, path: file, mode, update: t.update, expected: t.expected, got: r.content });
  }
}
for (const m of modes) console.log(`${m.padEnd(5)} ${pass.get(m)}/${trials} exact (${((100 * pass.get(m)!) / trials).toFixed(1)}%)`);
if (args.dump) {
  mkdirSync(args.dump, { recursive: true });
  failures.filter((x) => x.mode === 'fast').forEach((f, k) => {
    const code = readFileSync(f.path, 'utf8');
    const body = ['@@@ options', JSON.stringify({ lang: 'typescript', tags: ['synthetic'] }), '@@@ code', code.replace(/\n$/, ''), '@@@ update', f.update, '@@@ expected', f.expected.replace(/\n$/, ''), ''];
    writeFileSync(join(args.dump!, `synthetic-${k}.case`), body.join('\n'));
  });
}
const show = Number(args.show);
for (const f of failures.filter((x) => x.mode === 'fast').slice(0, show)) {
  const e = f.expected.split('\n');
  const g = f.got.split('\n');
  let k = 0;
  while (k < e.length && e[k] === g[k]) k++;
  console.log(`\n--- ${f.file} [${f.mode}] first difference at line ${k + 1}`);
  console.log('update:\n' + f.update);
  console.log('expected:\n' + e.slice(Math.max(0, k - 3), k + 4).join('\n'));
  console.log('got:\n' + g.slice(Math.max(0, k - 3), k + 4).join('\n'));
}
