#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const MARKERLESS_OK = new Set([
  'full-function-no-markers', 'snippet-missing-closing-braces', 'reindented-snippet',
  'add-method-to-class', 'same-name-other-class', 'bugfix-one-line', 'edit-at-start', 'edit-at-end',
  'rename-function-and-callers', 'add-tests', 'add-logging', 'add-error-handling', 'change-signature-and-callers',
  'crlf-file', 'bom-file', 'no-trailing-newline', 'tabs-indentation', 'repeated-anchor-lines',
]);
const MARKER_RE = /(\.\.\.|…|existing|unchanged|rest of|remain(s|ing)? the same|same as before|omitted|keep as is|no changes)/i;
const errors = [];
const byLang = {}, byShape = {};
let n = 0, over200 = 0, crlf = 0, nofinal = 0, bom = 0;
const norm = (l) => l.replace(/\r$/, '').replace(/^\uFEFF/, '').trim();
const ids = fs.readdirSync(root).filter((d) => !d.startsWith('.') && fs.statSync(path.join(root, d)).isDirectory()).sort();
for (const id of ids) {
  const dir = path.join(root, id);
  const err = (m) => errors.push(`${id}: ${m}`);
  const files = {};
  let ok = true;
  for (const f of ['original', 'update', 'expected', 'meta.json']) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) { err(`missing ${f}`); ok = false; continue; }
    files[f] = fs.readFileSync(p, 'utf8');
  }
  if (!ok) continue;
  n++;
  let meta;
  try { meta = JSON.parse(files['meta.json']); } catch (e) { err('meta.json not JSON'); continue; }
  if (typeof meta.lang !== 'string' || !meta.lang) err('meta.lang');
  if (typeof meta.shape !== 'string' || !meta.shape) err('meta.shape');
  if (!(meta.instruction === null || typeof meta.instruction === 'string')) err('meta.instruction');
  const { original: orig, update: upd, expected: exp } = files;
  const lineCount = orig.split('\n').length - (orig.endsWith('\n') ? 1 : 0);
  if (meta.lines !== lineCount) err(`meta.lines ${meta.lines} != ${lineCount}`);
  if (lineCount < 40 || lineCount > 500) err(`original has ${lineCount} lines (want 40..500)`);
  if (lineCount > 200) over200++;
  if (exp === orig) err('expected equals original');
  if (!upd.trim()) err('empty update');
  const updLines = upd.split('\n');
  const hasMarker = updLines.some((l) => MARKER_RE.test(l));
  if (!hasMarker && !MARKERLESS_OK.has(meta.shape)) err(`update has no marker and shape ${meta.shape} is not a marker-less shape`);
  const expSet = new Set(exp.split('\n').map(norm));
  for (const l of updLines) {
    const s = norm(l);
    if (!s) continue;
    if (expSet.has(s)) continue;
    if (MARKER_RE.test(s)) continue;
    err(`update line not in expected: ${JSON.stringify(s)}`);
  }
  const origCRLF = orig.includes('\r\n'), expCRLF = exp.includes('\r\n');
  const origLF = /(^|[^\r])\n/.test(orig), expLF = /(^|[^\r])\n/.test(exp);
  if (origCRLF !== expCRLF || origLF !== expLF) err('line endings of expected differ from original');
  if (orig.endsWith('\n') !== exp.endsWith('\n')) err('final-newline state differs');
  if (orig.startsWith('\uFEFF') !== exp.startsWith('\uFEFF')) err('BOM state differs');
  if (origCRLF) crlf++;
  if (!orig.endsWith('\n')) nofinal++;
  if (orig.startsWith('\uFEFF')) bom++;
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}
const show = (o) => Object.entries(o).sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${k}: ${v}`).join('\n');
console.log(`cases: ${n}  (over 200 lines: ${over200}, CRLF: ${crlf}, no final newline: ${nofinal}, BOM: ${bom})`);
console.log(`languages (${Object.keys(byLang).length}):\n${show(byLang)}`);
console.log(`shapes (${Object.keys(byShape).length}):\n${show(byShape)}`);
if (errors.length) { console.error(`\n${errors.length} problem(s):\n` + errors.join('\n')); process.exit(1); }
console.log('all checks passed');
