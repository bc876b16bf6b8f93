// Mechanical checks for apply-engine cases. Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const MARKER = /(\.\.\.|…|\(unchanged\)|rest of|existing code|stays the same|unchanged)/i;
let problems = 0, count = 0;
const fail = (c, m) => { problems++; console.log(`FAIL ${c}: ${m}`); };
const eol = (s) => {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  return crlf ? 'crlf' : lf ? 'lf' : 'none';
};
const lines = (s) => s.replace(/^\uFEFF/, '').split(/\r?\n/);

for (const name of fs.readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!fs.statSync(dir).isDirectory()) continue;
  count++;
  const files = {};
  for (const f of ['original', 'update', 'expected', 'meta.json']) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) { fail(name, `missing ${f}`); continue; }
    files[f] = fs.readFileSync(p, 'utf8');
  }
  const extra = fs.readdirSync(dir).filter((f) => !['original', 'update', 'expected', 'meta.json'].includes(f));
  if (extra.length) fail(name, `extra files ${extra}`);
  if (Object.keys(files).length < 4) continue;
  let meta;
  try { meta = JSON.parse(files['meta.json']); } catch (e) { fail(name, 'meta.json invalid'); continue; }
  for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) fail(name, `meta missing ${k}`);
  if (meta.instruction !== null && typeof meta.instruction !== 'string') fail(name, 'instruction not string/null');
  const o = files.original, u = files.update, x = files.expected;
  const n = o.split('\n').length - (o.endsWith('\n') ? 1 : 0);
  if (meta.lines !== n) fail(name, `lines ${meta.lines} != ${n}`);
  if (n < 30 || n > 400) fail(name, `original has ${n} lines`);
  const eo = eol(o), eu = eol(u), ex = eol(x);
  if (eo === 'mixed' || eu === 'mixed' || ex === 'mixed') fail(name, 'mixed line endings');
  if (eo !== ex || (eu !== 'none' && eu !== eo)) fail(name, `line endings differ: ${eo}/${eu}/${ex}`);
  if (o.startsWith('\uFEFF') !== x.startsWith('\uFEFF')) fail(name, 'BOM differs original/expected');
  const origSet = new Set(lines(o).map((l) => l.trim()));
  const updSet = new Set(lines(u).map((l) => l.trim()));
  for (const l of lines(x)) {
    const t = l.trim();
    if (!t || origSet.has(t)) continue;
    if (!updSet.has(t)) fail(name, `expected line not in original nor update: ${JSON.stringify(t)}`);
  }
  const hasMarker = lines(u).some((l) => MARKER.test(l));
  if (hasMarker && u === x) fail(name, 'update identical to expected');
  if (o === x) fail(name, 'expected identical to original');
}
console.log(`${count} cases, ${problems} problems`);
process.exit(problems ? 1 : 0);
