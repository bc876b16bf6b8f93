#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [caseDir ...]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const REQUIRED = ['original', 'update', 'expected', 'meta.json'];
const MARKER_RE = /(\.\.\.|…|existing code|unchanged|stays the same|rest of (the )?(file|class|module|function))/i;

function eolStyle(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length;
  const cr = (text.match(/\r(?!\n)/g) || []).length;
  if (lf === 0 && cr === 0) return 'none';
  if (cr > 0) return 'mixed';
  if (crlf === lf) return 'crlf';
  if (crlf === 0) return 'lf';
  return 'mixed';
}
function countLines(text) {
  if (text === '') return 0;
  const n = (text.match(/\n/g) || []).length;
  return text.endsWith('\n') ? n : n + 1;
}
function stripBom(s) { return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s; }

const dirs = process.argv.slice(2).length
  ? process.argv.slice(2).map((d) => path.resolve(d))
  : fs.readdirSync(root).map((d) => path.join(root, d)).filter((d) => fs.statSync(d).isDirectory()).sort();

let failures = 0, warnings = 0;
const perLang = {}, perShape = {};
for (const dir of dirs) {
  const name = path.basename(dir);
  const errs = [], warns = [];
  const present = fs.readdirSync(dir);
  for (const f of REQUIRED) if (!present.includes(f)) errs.push(`missing ${f}`);
  for (const f of present) if (!REQUIRED.includes(f)) errs.push(`unexpected file ${f}`);
  if (errs.length) { report(name, errs, warns); continue; }

  const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');
  const original = read('original'), update = read('update'), expected = read('expected');
  let meta;
  try { meta = JSON.parse(read('meta.json')); } catch (e) { errs.push(`meta.json invalid: ${e.message}`); }
  if (meta) {
    if (typeof meta.lang !== 'string' || !meta.lang) errs.push('meta.lang must be a non-empty string');
    if (typeof meta.shape !== 'string' || !meta.shape) errs.push('meta.shape must be a non-empty string');
    if (!(meta.instruction === null || typeof meta.instruction === 'string')) errs.push('meta.instruction must be string or null');
    if (!Number.isInteger(meta.lines)) errs.push('meta.lines must be an integer');
    else if (meta.lines !== countLines(original)) errs.push(`meta.lines=${meta.lines} but original has ${countLines(original)} lines`);
    perLang[meta.lang] = (perLang[meta.lang] || 0) + 1;
    perShape[meta.shape] = (perShape[meta.shape] || 0) + 1;
  }
  const n = countLines(original);
  if (n < 30 || n > 400) errs.push(`original has ${n} lines (want 30..400)`);

  const styles = { original: eolStyle(original), update: eolStyle(update), expected: eolStyle(expected) };
  for (const [f, s] of Object.entries(styles)) if (s === 'mixed') errs.push(`${f} has mixed line endings`);
  const real = Object.values(styles).filter((s) => s === 'lf' || s === 'crlf');
  if (new Set(real).size > 1) errs.push(`inconsistent line endings: ${JSON.stringify(styles)}`);

  if (original === expected) errs.push('expected is identical to original');
  if (/^```/m.test(update)) errs.push('update contains a markdown fence');

  const origLines = new Set(stripBom(original).split(/\r?\n/));
  const updTrim = new Set(stripBom(update).split(/\r?\n/).map((l) => l.trim()));
  const missing = [];
  for (const line of stripBom(expected).split(/\r?\n/)) {
    if (origLines.has(line) || line.trim() === '') continue;
    if (!updTrim.has(line.trim())) missing.push(line);
  }
  if (missing.length) {
    const msg = `${missing.length} new line(s) of expected not in update: ${missing.slice(0, 3).map((l) => JSON.stringify(l)).join(', ')}`;
    if (meta && meta.instruction) warns.push(msg + ' (instruction may explain)'); else errs.push(msg);
  }
  const hasMarkers = MARKER_RE.test(update);
  if (hasMarkers && stripBom(update) === stripBom(expected)) errs.push('update has markers but is identical to expected');
  report(name, errs, warns);
}

function report(name, errs, warns) {
  for (const e of errs) console.log(`FAIL ${name}: ${e}`);
  for (const w of warns) console.log(`WARN ${name}: ${w}`);
  failures += errs.length ? 1 : 0;
  warnings += warns.length;
}
console.log(`\n${dirs.length} cases, ${failures} failing, ${warnings} warning(s)`);
console.log('per lang:', JSON.stringify(perLang));
console.log('per shape:', Object.keys(perShape).length, 'distinct shapes');
process.exit(failures ? 1 : 0);
