#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const FILES = ['original', 'update', 'expected', 'meta.json'];
const MARKER = /(\.\.\.|…|\(unchanged\)|unchanged|existing code|rest of (the )?(file|class|code))/i;
let problems = 0;
let count = 0;

function fail(name, msg) {
  problems++;
  console.log(`FAIL ${name}: ${msg}`);
}

function eolStyle(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  if (crlf) return 'crlf';
  if (lf) return 'lf';
  return 'none';
}

function lineCount(text) {
  if (text.length === 0) return 0;
  const n = (text.match(/\n/g) || []).length;
  return text.endsWith('\n') ? n : n + 1;
}

const dirs = fs.readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

for (const name of dirs) {
  const dir = path.join(root, name);
  count++;
  const present = fs.readdirSync(dir);
  const missing = FILES.filter((f) => !present.includes(f));
  if (missing.length) { fail(name, `missing ${missing.join(', ')}`); continue; }
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) fail(name, `extra files: ${extra.join(', ')}`);

  if (!/^[a-z]+\d\d-[a-z0-9-]+$/.test(name)) fail(name, 'directory name not <lang><NN>-<slug>');

  const original = fs.readFileSync(path.join(dir, 'original'), 'utf8');
  const update = fs.readFileSync(path.join(dir, 'update'), 'utf8');
  const expected = fs.readFileSync(path.join(dir, 'expected'), 'utf8');

  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  } catch (e) {
    fail(name, `meta.json invalid: ${e.message}`);
    continue;
  }
  for (const k of ['lang', 'shape', 'instruction', 'lines']) {
    if (!(k in meta)) fail(name, `meta.json lacks ${k}`);
  }
  if (typeof meta.lang !== 'string' || !meta.lang) fail(name, 'lang must be a non-empty string');
  if (typeof meta.shape !== 'string' || !meta.shape) fail(name, 'shape must be a non-empty string');
  if (meta.instruction !== null && typeof meta.instruction !== 'string') fail(name, 'instruction must be string or null');
  const n = lineCount(original);
  if (meta.lines !== n) fail(name, `meta.lines=${meta.lines} but original has ${n} lines`);
  if (n < 30 || n > 400) fail(name, `original has ${n} lines (want 30..400)`);

  const eo = eolStyle(original), eu = eolStyle(update), ee = eolStyle(expected);
  if (eo === 'mixed' || eu === 'mixed' || ee === 'mixed') fail(name, `mixed line endings (o=${eo} u=${eu} e=${ee})`);
  if (eo !== ee || (eu !== 'none' && eu !== eo)) fail(name, `line endings differ (o=${eo} u=${eu} e=${ee})`);

  const bomO = original.startsWith('\uFEFF'), bomE = expected.startsWith('\uFEFF');
  if (bomO !== bomE) fail(name, 'BOM present in only one of original/expected');

  if (original === expected) fail(name, 'expected is identical to original');

  const strip = (s) => s.replace(/^\uFEFF/, '').split(/\r?\n/).map((l) => l.trim());
  const origSet = new Set(strip(original));
  const updSet = new Set(strip(update));
  for (const line of strip(expected)) {
    if (line === '' || origSet.has(line)) continue;
    if (!updSet.has(line)) fail(name, `new line not present in update: ${JSON.stringify(line)}`);
  }

  const hasMarker = strip(update).some((l) => MARKER.test(l) && /^(\/\/|#|\/\*|<!--|--|;|\.\.\.|…|\{\{!--)/.test(l));
  if (hasMarker && update.replace(/^\uFEFF/, '') === expected.replace(/^\uFEFF/, '')) {
    fail(name, 'update has markers but is identical to expected');
  }
}

console.log(`${count} cases checked, ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
