#!/usr/bin/env node
// Mechanical sanity checks for apply-engine test cases.
import fs from 'node:fs';
import path from 'node:path';

const root = path.dirname(new URL(import.meta.url).pathname);
const MARKER = /(\.\.\.|…|\(unchanged\)|stays the same|unchanged|existing)/i;
let failures = 0;
let count = 0;

function fail(c, msg) { failures++; console.log(`FAIL ${c}: ${msg}`); }

function eolKind(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length;
  if (lf === 0) return 'none';
  if (crlf === lf) return 'crlf';
  if (crlf === 0) return 'lf';
  return 'mixed';
}

function lineCount(text) {
  if (text.length === 0) return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

for (const name of fs.readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!fs.statSync(dir).isDirectory()) continue;
  count++;
  const files = {};
  let ok = true;
  for (const f of ['original', 'update', 'expected', 'meta.json']) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) { fail(name, `missing ${f}`); ok = false; continue; }
    files[f] = fs.readFileSync(p, 'utf8');
  }
  const extra = fs.readdirSync(dir).filter(f => !['original', 'update', 'expected', 'meta.json'].includes(f));
  if (extra.length) fail(name, `extra files: ${extra.join(', ')}`);
  if (!ok) continue;

  let meta;
  try { meta = JSON.parse(files['meta.json']); } catch (e) { fail(name, `meta.json invalid: ${e.message}`); continue; }
  for (const k of ['lang', 'shape', 'instruction', 'lines']) {
    if (!(k in meta)) fail(name, `meta.json missing key ${k}`);
  }
  if (typeof meta.lang !== 'string' || !meta.lang) fail(name, 'meta.lang must be a non-empty string');
  if (typeof meta.shape !== 'string' || !meta.shape) fail(name, 'meta.shape must be a non-empty string');
  if (meta.instruction !== null && typeof meta.instruction !== 'string') fail(name, 'meta.instruction must be string or null');

  const orig = files.original, upd = files.update, exp = files.expected;
  const lc = lineCount(orig);
  if (meta.lines !== lc) fail(name, `meta.lines=${meta.lines} but original has ${lc} lines`);
  if (lc < 30 || lc > 400) fail(name, `original has ${lc} lines (want 30..400)`);

  const ek = { original: eolKind(orig), update: eolKind(upd), expected: eolKind(exp) };
  for (const [f, k] of Object.entries(ek)) if (k === 'mixed') fail(name, `${f} has mixed line endings`);
  const kinds = new Set(Object.values(ek).filter(k => k !== 'none'));
  if (kinds.size > 1) fail(name, `line endings differ: ${JSON.stringify(ek)}`);

  const bom = s => s.charCodeAt(0) === 0xfeff;
  if (bom(orig) !== bom(exp)) fail(name, 'BOM differs between original and expected');

  if (orig === exp) fail(name, 'expected is identical to original');

  const origSet = new Set(orig.replace(/^\uFEFF/, '').split(/\r?\n/));
  const updLines = upd.replace(/^\uFEFF/, '').split(/\r?\n/).map(l => l.trim());
  const updSet = new Set(updLines);
  // Update lines with an inline elision marker (e.g. `[a, /* ... */, c]`):
  // a new expected line may match them fragment by fragment.
  const INLINE = /\/\*\s*(?:\.\.\.|…)\s*\*\/,?\s*|(?<![.\w])(?:\.\.\.|…)(?![.\w\[{(])/;
  const inlineUpd = updLines.filter(l => INLINE.test(l)).map(l => l.split(new RegExp(INLINE.source, 'g')).filter(Boolean));
  const matchesInline = line => inlineUpd.some(frags => {
    let pos = 0;
    for (const f of frags) {
      const at = line.indexOf(f, pos);
      if (at < 0) return false;
      pos = at + f.length;
    }
    return true;
  });
  exp.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((line, i) => {
    if (origSet.has(line)) return;
    if (updSet.has(line.trim())) return;
    if (matchesInline(line.trim())) return;
    fail(name, `expected line ${i + 1} is new but not in update: ${JSON.stringify(line)}`);
  });

  const hasMarker = upd.split(/\r?\n/).some(l => MARKER.test(l) && !origSet.has(l) && !exp.split(/\r?\n/).includes(l));
  if (hasMarker && upd === exp) fail(name, 'update has markers but equals expected');
  if (upd.trim() === exp.trim() && !hasMarker && upd !== exp) {
    // full-file rewrite without markers: fine but note it
  }
}

console.log(`${count} cases checked, ${failures} problem(s)`);
process.exit(failures ? 1 : 0);
