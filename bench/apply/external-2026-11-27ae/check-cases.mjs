#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine held-out cases.
// Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const FILES = ['original', 'update', 'expected', 'meta.json'];
let failures = 0;
let count = 0;

function lineCount(text) {
  if (text.length === 0) return 0;
  const parts = text.split('\n');
  return text.endsWith('\n') ? parts.length - 1 : parts.length;
}
function eolKind(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length;
  if (lf === 0) return 'none';
  if (crlf === lf) return 'crlf';
  if (crlf === 0) return 'lf';
  return 'mixed';
}
function lines(text) {
  return text.replace(/^\uFEFF/, '').split(/\r?\n/);
}
const MARKER = /(\.\.\.|…|existing|unchanged|rest of|same as before)/i;

for (const name of fs.readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!fs.statSync(dir).isDirectory()) continue;
  count++;
  const errs = [];
  const present = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!present.includes(f)) errs.push(`missing ${f}`);
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) errs.push(`unexpected files: ${extra.join(', ')}`);
  if (errs.length === 0) {
    const orig = fs.readFileSync(path.join(dir, 'original'), 'utf8');
    const upd = fs.readFileSync(path.join(dir, 'update'), 'utf8');
    const exp = fs.readFileSync(path.join(dir, 'expected'), 'utf8');
    let meta = null;
    try {
      meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
    } catch (e) {
      errs.push(`meta.json invalid: ${e.message}`);
    }
    if (meta) {
      for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) errs.push(`meta.json lacks ${k}`);
      if (typeof meta.lang !== 'string' || !meta.lang) errs.push('meta.lang must be a non-empty string');
      if (typeof meta.shape !== 'string' || !meta.shape) errs.push('meta.shape must be a non-empty string');
      if (!(meta.instruction === null || typeof meta.instruction === 'string')) errs.push('meta.instruction must be string or null');
      if (meta.lines !== lineCount(orig)) errs.push(`meta.lines=${meta.lines} but original has ${lineCount(orig)} lines`);
    }
    const n = lineCount(orig);
    if (n < 30 || n > 400) errs.push(`original has ${n} lines (want 30..400)`);
    const kinds = new Set([eolKind(orig), eolKind(upd), eolKind(exp)].filter((k) => k !== 'none'));
    if (kinds.has('mixed')) errs.push('mixed line endings inside a file');
    else if (kinds.size > 1) errs.push(`line endings differ between files: ${[...kinds].join(', ')}`);
    if (orig === exp) errs.push('expected is identical to original');
    const origSet = new Set(lines(orig).map((l) => l.trim()));
    const updSet = new Set(lines(upd).map((l) => l.trim()));
    lines(exp).forEach((l, i) => {
      const t = l.trim();
      if (t === '' || origSet.has(t)) return;
      if (updSet.has(t)) return;
      // A line rebuilt from an inline marker, e.g. `[a, ..., c]`: the parts of
      // some update line around its marker must bracket the expected line.
      const inline = lines(upd).some((u) => {
        const m = u.trim().match(/^(.*?)\s*(?:\/\*\s*(?:\.\.\.|…)[^*]*\*\/|\.\.\.|…)\s*(.*)$/);
        if (!m || (!m[1] && !m[2])) return false;
        const pre = m[1].replace(/,\s*$/, '');
        const post = m[2].replace(/^,\s*/, '');
        return t.startsWith(pre) && t.endsWith(post);
      });
      if (!inline) errs.push(`expected line ${i + 1} is in neither original nor update: ${JSON.stringify(l)}`);
    });
    const hasMarker = lines(upd).some((l) => MARKER.test(l));
    if (hasMarker && upd === exp) errs.push('update has markers but equals expected');
    if (upd.trim() === '') errs.push('update is empty');
  }
  if (errs.length) {
    failures++;
    console.log(`FAIL ${name}`);
    for (const e of errs) console.log(`  - ${e}`);
  } else {
    console.log(`ok   ${name}`);
  }
}
console.log(`\n${count} cases, ${failures} failing`);
process.exit(failures ? 1 : 0);
