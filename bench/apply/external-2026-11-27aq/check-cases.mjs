// Mechanical checks for the apply-engine held-out cases. Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const FILES = ['original', 'update', 'expected', 'meta.json'];
const MARKER = /(\.\.\.|…|\(unchanged\)|stays the same|rest of|existing)/i;
let problems = 0;
const report = (c, msg) => { problems++; console.log(`${c}: ${msg}`); };

function lineCount(s) {
  if (s.length === 0) return 0;
  const n = (s.match(/\n/g) || []).length;
  return s.endsWith('\n') ? n : n + 1;
}
function eolKind(s) {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  return crlf ? 'crlf' : lf ? 'lf' : 'none';
}
const lines = (s) => s.replace(/^\uFEFF/, '').split(/\r?\n/);
// Inline-marker line in the update, e.g. `x = ['a', /* ... */ 'c'];`: the pieces around the marker
// must appear in order in the expected line.
const INLINE = /\/\*\s*(\.\.\.|…)[^*]*\*\/,?|\/\/\s*\.\.\.$/;
function coveredByInline(line, inlineLines) {
  for (const u of inlineLines) {
    const parts = u.split(INLINE).filter((p) => p && !/^(\.\.\.|…)$/.test(p)).map((p) => p.trim()).filter(Boolean);
    let at = 0, ok = parts.length > 0;
    for (const p of parts) {
      const i = line.indexOf(p, at);
      if (i < 0) { ok = false; break; }
      at = i + p.length;
    }
    if (ok) return true;
  }
  return false;
}

const cases = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();
for (const c of cases) {
  const dir = path.join(root, c);
  const present = fs.readdirSync(dir).sort();
  const missing = FILES.filter((f) => !present.includes(f));
  const extra = present.filter((f) => !FILES.includes(f));
  if (missing.length) { report(c, `missing ${missing.join(', ')}`); continue; }
  if (extra.length) report(c, `extra files ${extra.join(', ')}`);
  const [orig, upd, exp] = ['original', 'update', 'expected'].map((f) => fs.readFileSync(path.join(dir, f), 'utf8'));
  let meta;
  try { meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')); } catch (e) { report(c, `meta.json invalid: ${e.message}`); continue; }
  for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) report(c, `meta.json lacks ${k}`);
  if (typeof meta.lang !== 'string' || typeof meta.shape !== 'string') report(c, 'lang/shape must be strings');
  if (meta.instruction !== null && typeof meta.instruction !== 'string') report(c, 'instruction must be string or null');
  const n = lineCount(orig);
  if (meta.lines !== n) report(c, `meta.lines ${meta.lines} != ${n}`);
  if (n < 30 || n > 400) report(c, `original has ${n} lines (want 30..400)`);
  const kinds = [orig, upd, exp].map(eolKind);
  if (kinds.includes('mixed')) report(c, `mixed line endings: ${kinds}`);
  const set = new Set(kinds.filter((k) => k !== 'none'));
  if (set.size > 1) report(c, `line endings differ: original=${kinds[0]} update=${kinds[1]} expected=${kinds[2]}`);
  if (orig.startsWith('\uFEFF') !== exp.startsWith('\uFEFF')) report(c, 'BOM differs between original and expected');
  if (orig === exp) report(c, 'expected equals original');
  const origSet = new Set(lines(orig).map((l) => l.trim()));
  const updLines = lines(upd);
  const updSet = new Set(updLines.map((l) => l.trim()));
  const inlineLines = updLines.filter((l) => INLINE.test(l) && l.replace(INLINE, '').trim().length > 0);
  for (const [i, l] of lines(exp).entries()) {
    const t = l.trim();
    if (!t || origSet.has(t) || updSet.has(t)) continue;
    if (coveredByInline(t, inlineLines)) continue;
    report(c, `expected line ${i + 1} is neither in original nor in update: ${JSON.stringify(t)}`);
  }
  const hasMarker = updLines.some((l) => MARKER.test(l) && /(\.\.\.|…|unchanged|same)/.test(l));
  if (hasMarker && upd.replace(/^\uFEFF/, '') === exp.replace(/^\uFEFF/, '')) report(c, 'update has markers but equals expected');
}
console.log(`${cases.length} cases checked, ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
