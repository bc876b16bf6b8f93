#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const MARKERLESS_SHAPES = new Set([
  'full-function-no-markers', 'snippet-missing-closing-braces', 'reindented-snippet',
]);
const isMarker = (line) => line.includes('...') || line.includes('\u2026');
const errors = [];
const byLang = {};
const byShape = {};
let n = 0, over200 = 0, crlf = 0, noNl = 0, bom = 0, withInstr = 0;

function eolKind(buf) {
  const s = buf.toString('utf8');
  const crlfCount = (s.match(/\r\n/g) || []).length;
  const lfCount = (s.match(/\n/g) || []).length - crlfCount;
  if (crlfCount && lfCount) return 'mixed';
  return crlfCount ? 'crlf' : 'lf';
}

for (const id of fs.readdirSync(root).sort()) {
  const dir = path.join(root, id);
  if (id.startsWith('_') || id.startsWith('.') || !fs.statSync(dir).isDirectory()) continue;
  n++;
  const err = (m) => errors.push(`${id}: ${m}`);
  const files = {};
  for (const f of ['original', 'update', 'expected', 'meta.json']) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) { err(`missing ${f}`); continue; }
    files[f] = fs.readFileSync(p);
  }
  if (Object.keys(files).length !== 4) continue;
  let meta;
  try { meta = JSON.parse(files['meta.json'].toString('utf8')); } catch (e) { err('meta.json invalid JSON'); continue; }
  if (typeof meta.lang !== 'string' || !meta.lang) err('meta.lang missing');
  if (typeof meta.shape !== 'string' || !meta.shape) err('meta.shape missing');
  if (!(meta.instruction === null || (typeof meta.instruction === 'string' && meta.instruction.length > 0))) err('meta.instruction must be null or non-empty string');
  if (!Number.isInteger(meta.lines)) err('meta.lines must be an integer');
  const orig = files.original, exp = files.expected, upd = files.update.toString('utf8');
  if (Buffer.compare(orig, exp) === 0) err('expected == original');
  const origS = orig.toString('utf8').replace(/^\uFEFF/, '');
  const expS = exp.toString('utf8').replace(/^\uFEFF/, '');
  const lineCount = origS.split(/\r?\n/).length - (/\r?\n$/.test(origS) ? 1 : 0);
  if (meta.lines !== lineCount) err(`meta.lines ${meta.lines} != ${lineCount}`);
  if (lineCount < 40 || lineCount > 500) err(`original has ${lineCount} lines (want 40..500)`);
  if (lineCount > 200) over200++;
  // line endings / final newline / BOM preserved
  const ek = eolKind(orig), xk = eolKind(exp);
  if (ek !== xk) err(`line endings differ: original ${ek}, expected ${xk}`);
  if (ek === 'mixed') err('original has mixed line endings');
  if (ek === 'crlf') crlf++;
  const endsNl = (b) => b.length > 0 && b[b.length - 1] === 0x0a;
  if (endsNl(orig) !== endsNl(exp)) err('final-newline state differs');
  if (!endsNl(orig)) noNl++;
  const hasBom = (b) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  if (hasBom(orig) !== hasBom(exp)) err('BOM state differs');
  if (hasBom(orig)) bom++;
  if (meta.instruction) withInstr++;
  // update has a marker, or is a deliberately marker-less snippet
  const updLines = upd.split(/\r?\n/);
  const hasMarker = updLines.some(isMarker);
  if (!hasMarker && !meta.markerless && !MARKERLESS_SHAPES.has(meta.shape)) err('update has no marker and is not marked markerless');
  // every non-marker line of the update occurs in expected (whitespace-trimmed)
  const expSet = new Set(expS.split(/\r?\n/).map((l) => l.trim()));
  for (const l of updLines) {
    const t = l.trim();
    if (!t || isMarker(l)) continue;
    if (!expSet.has(t)) err(`update line not in expected: ${JSON.stringify(t)}`);
  }
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}

const fmt = (o) => Object.entries(o).sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${k}: ${v}`).join('\n');
console.log(`cases: ${n}`);
console.log(`languages (${Object.keys(byLang).length}):\n${fmt(byLang)}`);
console.log(`shapes (${Object.keys(byShape).length}):\n${fmt(byShape)}`);
console.log(`over 200 lines: ${over200}, CRLF: ${crlf}, no final newline: ${noNl}, BOM: ${bom}, with instruction: ${withInstr}`);
if (n < 150) errors.push(`only ${n} cases (want >= 150)`);
if (Object.keys(byLang).length < 25) errors.push(`only ${Object.keys(byLang).length} languages (want >= 25)`);
if (errors.length) {
  console.error(`\n${errors.length} problem(s):\n` + errors.map((e) => '  ' + e).join('\n'));
  process.exit(1);
}
console.log('\nall checks passed');
