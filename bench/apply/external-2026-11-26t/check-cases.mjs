#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ['original', 'update', 'expected', 'meta.json'];
const MARKER = /(\.\.\.|…|existing code|unchanged|stays the same|rest of)/i;
let failures = 0;
let count = 0;

function lineCount(s) {
  if (s === '') return 0;
  const n = (s.match(/\n/g) || []).length;
  return s.endsWith('\n') ? n : n + 1;
}
function eol(s) {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/(?<!\r)\n/g) || []).length;
  if (crlf && lf) return 'mixed';
  if (crlf) return 'crlf';
  if (lf) return 'lf';
  return 'none';
}
function splitLines(s) {
  return s.replace(/^\uFEFF/, '').split(/\r?\n/);
}

for (const name of fs.readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!fs.statSync(dir).isDirectory()) continue;
  count++;
  const errs = [];
  const present = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!present.includes(f)) errs.push(`missing ${f}`);
  for (const f of present) if (!FILES.includes(f)) errs.push(`unexpected file ${f}`);
  if (errs.length) { report(name, errs); continue; }
  const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');
  const original = read('original');
  const update = read('update');
  const expected = read('expected');
  let meta;
  try { meta = JSON.parse(read('meta.json')); } catch (e) { errs.push(`meta.json invalid: ${e.message}`); }
  if (meta) {
    if (typeof meta.lang !== 'string' || !meta.lang) errs.push('meta.lang missing');
    if (typeof meta.shape !== 'string' || !meta.shape) errs.push('meta.shape missing');
    if (!(meta.instruction === null || (typeof meta.instruction === 'string' && meta.instruction.trim()))) errs.push('meta.instruction must be null or non-empty string');
    if (meta.lines !== lineCount(original)) errs.push(`meta.lines ${meta.lines} != ${lineCount(original)}`);
    const extra = Object.keys(meta).filter((k) => !['lang', 'shape', 'instruction', 'lines'].includes(k));
    if (extra.length) errs.push(`meta has extra keys ${extra}`);
  }
  const n = lineCount(original);
  if (n < 30 || n > 400) errs.push(`original has ${n} lines (want 30..400)`);
  const eo = eol(original), eu = eol(update), ee = eol(expected);
  for (const [f, e] of [['original', eo], ['update', eu], ['expected', ee]]) if (e === 'mixed') errs.push(`${f} has mixed line endings`);
  if (!(eo === ee && (eu === eo || eu === 'none'))) errs.push(`line endings differ: original=${eo} update=${eu} expected=${ee}`);
  if (original === expected) errs.push('expected identical to original (no edit)');
  const origSet = new Set(splitLines(original).map((l) => l.trim()));
  const updSet = new Set(splitLines(update).map((l) => l.trim()));
  for (const l of splitLines(expected)) {
    const t = l.trim();
    if (!t || origSet.has(t)) continue;
    if (!updSet.has(t)) errs.push(`expected line not in original nor update: ${JSON.stringify(l)}`);
  }
  if (MARKER.test(update) && update === expected) errs.push('update has markers but equals expected');
  if (/^```/.test(update)) errs.push('update contains a markdown fence');
  if (errs.length) report(name, errs);
}
function report(name, errs) {
  failures++;
  console.log(`FAIL ${name}`);
  for (const e of errs) console.log(`  - ${e}`);
}
console.log(`${count} cases, ${failures} failing`);
process.exit(failures ? 1 : 0);
