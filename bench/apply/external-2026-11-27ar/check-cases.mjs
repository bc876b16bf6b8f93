// Mechanical checks for apply-engine held-out cases. Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const MARKER = /(\.\.\.|…|\(unchanged\)|stays the same|rest of|existing)/i;
let failures = 0, count = 0;

function eol(buf) {
  const s = buf.toString('utf8');
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  return crlf ? 'crlf' : lf ? 'lf' : 'none';
}
function lineCount(s) {
  if (!s.length) return 0;
  const n = s.split('\n').length;
  return s.endsWith('\n') ? n - 1 : n;
}

for (const name of fs.readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!fs.statSync(dir).isDirectory()) continue;
  count++;
  const errs = [];
  const files = {};
  for (const f of ['original', 'update', 'expected', 'meta.json']) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) errs.push(`missing ${f}`);
    else files[f] = fs.readFileSync(p);
  }
  const extra = fs.readdirSync(dir).filter(f => !['original', 'update', 'expected', 'meta.json'].includes(f));
  if (extra.length) errs.push(`extra files: ${extra.join(', ')}`);
  let meta = null;
  if (files['meta.json']) {
    try { meta = JSON.parse(files['meta.json'].toString('utf8')); }
    catch (e) { errs.push(`meta.json invalid: ${e.message}`); }
  }
  if (meta) {
    for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) errs.push(`meta missing ${k}`);
    if (typeof meta.lang !== 'string' || typeof meta.shape !== 'string') errs.push('meta lang/shape must be strings');
    if (!(meta.instruction === null || typeof meta.instruction === 'string')) errs.push('meta instruction must be string or null');
    if (files.original && meta.lines !== lineCount(files.original.toString('utf8')))
      errs.push(`meta.lines ${meta.lines} != ${lineCount(files.original.toString('utf8'))}`);
  }
  if (files.original && files.update && files.expected) {
    const eo = eol(files.original), eu = eol(files.update), ee = eol(files.expected);
    for (const [n, e] of [['original', eo], ['update', eu], ['expected', ee]]) if (e === 'mixed') errs.push(`${n} has mixed line endings`);
    if (eo !== ee) errs.push(`line endings differ original=${eo} expected=${ee}`);
    if (eu !== 'none' && eo !== eu && !(eu === 'lf' && eo === 'none')) errs.push(`line endings differ original=${eo} update=${eu}`);
    const strip = s => s.replace(/^\uFEFF/, '').replace(/\r/g, '');
    const orig = strip(files.original.toString('utf8'));
    const upd = strip(files.update.toString('utf8'));
    const exp = strip(files.expected.toString('utf8'));
    const origSet = new Set(orig.split('\n').map(l => l.trim()));
    const updSet = new Set(upd.split('\n').map(l => l.trim()));
    // Update lines with an inline marker (`[a, /* ... */ b]`) match an expected line
    // that starts with the text before the marker and ends with the text after it.
    const INLINE = /\/\*\s*(\.\.\.|…)[^*]*\*\/|\.\.\.(?=\s*[,\]}\)])/;
    const inlineParts = upd.split('\n').map(l => l.trim()).filter(l => INLINE.test(l) && !/^(\/\/|#|\/\*|<!--|--|;)/.test(l))
      .map(l => { const m = l.match(INLINE); return [l.slice(0, m.index).trim(), l.slice(m.index + m[0].length).trim()]; });
    for (const l of exp.split('\n')) {
      const t = l.trim();
      if (origSet.has(t) || updSet.has(t)) continue;
      if (inlineParts.some(([pre, post]) => t.startsWith(pre) && t.endsWith(post) && t.length >= pre.length + post.length)) continue;
      errs.push(`expected line not in original nor update: ${JSON.stringify(t)}`);
    }
    const hasMarker = upd.split('\n').some(l => MARKER.test(l));
    if (hasMarker && upd === exp) errs.push('update identical to expected though it has markers');
    if (orig === exp) errs.push('expected identical to original (no edit)');
    if (/^```/m.test(upd)) errs.push('update contains markdown fence');
  }
  if (errs.length) { failures++; console.log(`FAIL ${name}\n  ${errs.join('\n  ')}`); }
}
console.log(`${count} cases, ${failures} failing`);
process.exit(failures ? 1 : 0);
