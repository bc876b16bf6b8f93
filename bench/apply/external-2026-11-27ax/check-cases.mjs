// Mechanical checks for apply-engine test cases. Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const MARKER = /(\.\.\.|…|\(unchanged\)|stays the same|unchanged)/i;
let problems = 0;
const fail = (c, m) => { problems++; console.log(`FAIL ${c}: ${m}`); };

function eolKind(buf) {
  const s = buf.toString('utf8');
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  return crlf ? 'crlf' : lf ? 'lf' : 'none';
}
function lineCount(s) {
  if (!s.length) return 0;
  const n = (s.match(/\n/g) || []).length;
  return s.endsWith('\n') ? n : n + 1;
}
const strip = (s) => s.replace(/^\uFEFF/, '');

const cases = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();
for (const c of cases) {
  const dir = path.join(root, c);
  const files = {};
  let ok = true;
  for (const f of ['original', 'update', 'expected', 'meta.json']) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) { fail(c, `missing ${f}`); ok = false; continue; }
    files[f] = fs.readFileSync(p);
  }
  const extra = fs.readdirSync(dir).filter((f) => !['original', 'update', 'expected', 'meta.json'].includes(f));
  if (extra.length) fail(c, `extra files: ${extra.join(', ')}`);
  if (!ok) continue;
  let meta;
  try { meta = JSON.parse(files['meta.json'].toString('utf8')); } catch (e) { fail(c, `meta.json invalid: ${e.message}`); continue; }
  for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) fail(c, `meta.json lacks ${k}`);
  if (typeof meta.lang !== 'string' || typeof meta.shape !== 'string') fail(c, 'lang/shape must be strings');
  if (!(meta.instruction === null || typeof meta.instruction === 'string')) fail(c, 'instruction must be string or null');
  const orig = files.original.toString('utf8');
  const upd = files.update.toString('utf8');
  const exp = files.expected.toString('utf8');
  if (meta.lines !== lineCount(orig)) fail(c, `lines=${meta.lines} but original has ${lineCount(orig)}`);
  if (lineCount(orig) < 30 || lineCount(orig) > 400) fail(c, `original has ${lineCount(orig)} lines (want 30..400)`);
  const kinds = ['original', 'update', 'expected'].map((f) => eolKind(files[f]));
  if (kinds.includes('mixed')) fail(c, `mixed line endings: ${kinds}`);
  const real = kinds.filter((k) => k !== 'none');
  if (new Set(real).size > 1) fail(c, `line endings differ: ${kinds}`);
  if (orig === exp) fail(c, 'expected equals original');
  const origSet = new Set(strip(orig).split(/\r?\n/));
  const updTrim = new Set(strip(upd).split(/\r?\n/).map((l) => l.trim()));
  const INLINE = /\/\*\s*(\.\.\.|…)[^*]*\*\/|(\.\.\.|…)/;
  const inlineLines = strip(upd).split(/\r?\n/)
    .filter((l) => INLINE.test(l) && l.replace(INLINE, '').trim().length > 3)
    .map((l) => l.trim().split(new RegExp(INLINE.source, 'g')).filter((x) => x && !/^(\.\.\.|…)$/.test(x)).map((x) => x.trim().replace(/,$/, '')).filter(Boolean))
    .filter((pieces) => pieces.length >= 2);
  for (const line of strip(exp).split(/\r?\n/)) {
    if (origSet.has(line)) continue;
    if (updTrim.has(line.trim())) continue;
    // A line may come from an update line with an inline elision marker
    // (e.g. `[a, ..., c]` or `f(a, /* ... */ c)`): accept it when every
    // non-marker piece of that update line occurs in order in the line.
    const viaInline = inlineLines.some((pieces) => {
      let at = 0;
      for (const piece of pieces) {
        const k = line.indexOf(piece, at);
        if (k < 0) return false;
        at = k + piece.length;
      }
      return true;
    });
    if (!viaInline) fail(c, `expected line not in original nor update: ${JSON.stringify(line)}`);
  }
  const hasMarker = strip(upd).split(/\r?\n/).some((l) => MARKER.test(l) && !origSet.has(l) && !strip(exp).split(/\r?\n/).includes(l));
  if (hasMarker && upd === exp) fail(c, 'update has markers but equals expected');
}
console.log(`${cases.length} case(s) checked, ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
