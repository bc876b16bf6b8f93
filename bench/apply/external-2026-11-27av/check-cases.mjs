// Mechanical sanity checks for apply-engine cases. Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const MARKER = /(\.\.\.|…|existing code|unchanged|rest of|stays the same)/i;
let failures = 0;
const fail = (c, m) => { failures++; console.log(`FAIL ${c}: ${m}`); };

function eolKind(s) {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  return crlf ? 'crlf' : lf ? 'lf' : 'none';
}
const lineCount = (s) => s === '' ? 0 : s.split(/\r?\n/).length - (/\n$/.test(s) ? 1 : 0);

const dirs = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();
for (const c of dirs) {
  const p = (f) => path.join(root, c, f);
  const files = ['original', 'update', 'expected', 'meta.json'];
  const missing = files.filter((f) => !fs.existsSync(p(f)));
  if (missing.length) { fail(c, `missing ${missing.join(', ')}`); continue; }
  const extra = fs.readdirSync(path.join(root, c)).filter((f) => !files.includes(f));
  if (extra.length) fail(c, `extra files ${extra.join(', ')}`);
  let meta;
  try { meta = JSON.parse(fs.readFileSync(p('meta.json'), 'utf8')); } catch (e) { fail(c, `meta.json: ${e.message}`); continue; }
  for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) fail(c, `meta.json lacks ${k}`);
  if (meta.instruction !== null && typeof meta.instruction !== 'string') fail(c, 'instruction must be string or null');
  const [orig, upd, exp] = ['original', 'update', 'expected'].map((f) => fs.readFileSync(p(f), 'utf8'));
  if (meta.lines !== lineCount(orig)) fail(c, `lines ${meta.lines} != ${lineCount(orig)}`);
  if (lineCount(orig) < 30 || lineCount(orig) > 400) fail(c, `original has ${lineCount(orig)} lines (want 30..400)`);
  const kinds = [orig, upd, exp].map(eolKind).filter((k) => k !== 'none');
  if (kinds.includes('mixed')) fail(c, 'mixed line endings inside a file');
  if (new Set(kinds).size > 1) fail(c, `line endings differ: ${kinds.join('/')}`);
  if (orig === exp) fail(c, 'expected equals original');
  const strip = (s) => s.replace(/^\uFEFF/, '');
  const origSet = new Set(strip(orig).split(/\r?\n/).map((l) => l.trim()));
  const updSet = new Set(strip(upd).split(/\r?\n/).map((l) => l.trim()));
  // Update lines with an inline marker (e.g. `f(a, /* ... */ d)`) match any expected line
  // that has the marker's surroundings, the marker standing for any text.
  const INLINE = /\/\*\s*(\.\.\.|…)\s*\*\/,?|\{-\s*\.\.\.\s*-\}/;
  const wild = [...updSet].filter((t) => INLINE.test(t) && t.replace(INLINE, '').trim() !== '')
    .map((t) => new RegExp('^' + t.split(INLINE).filter((x, k) => k % 2 === 0 && x !== undefined)
      .map((x) => (x || '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$'));
  for (const [i, l] of strip(exp).split(/\r?\n/).entries()) {
    const t = l.trim();
    if (t && !origSet.has(t) && !updSet.has(t) && !wild.some((re) => re.test(t))) fail(c, `expected line ${i + 1} not in original nor update: ${JSON.stringify(t)}`);
  }
  const hasMarker = strip(upd).split(/\r?\n/).some((l) => MARKER.test(l));
  if (hasMarker && strip(upd) === strip(exp)) fail(c, 'update has markers but equals expected');
}
console.log(`${dirs.length} cases checked, ${failures} problem(s)`);
process.exit(failures ? 1 : 0);
