#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [caseDir ...]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ['original', 'update', 'expected', 'meta.json'];
const MARKER_RE = /(\.\.\.|…|\(unchanged\)|rest of (the )?(file|class|module|function)|stays the same)/i;

function readText(p) {
  let s = fs.readFileSync(p, 'utf8');
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  return s;
}
function lineEnding(s) {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  if (crlf) return 'crlf';
  if (lf) return 'lf';
  return 'none';
}
function splitLines(s) {
  const lines = s.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const args = process.argv.slice(2);
const dirs = (args.length ? args : fs.readdirSync(root))
  .map((d) => path.resolve(root, d))
  .filter((d) => fs.statSync(d).isDirectory());

let failures = 0;
let warnings = 0;
const perLang = {};
for (const dir of dirs.sort()) {
  const name = path.basename(dir);
  const errs = [];
  const warns = [];
  const present = fs.readdirSync(dir);
  for (const f of FILES) if (!present.includes(f)) errs.push(`missing ${f}`);
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) errs.push(`unexpected files: ${extra.join(', ')}`);
  if (errs.length) {
    console.log(`FAIL ${name}: ${errs.join('; ')}`);
    failures++;
    continue;
  }
  const original = readText(path.join(dir, 'original'));
  const update = readText(path.join(dir, 'update'));
  const expected = readText(path.join(dir, 'expected'));
  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  } catch (e) {
    errs.push(`meta.json invalid: ${e.message}`);
  }
  if (meta) {
    for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) errs.push(`meta.json lacks ${k}`);
    if (typeof meta.lang !== 'string' || !meta.lang) errs.push('meta.lang must be a non-empty string');
    if (typeof meta.shape !== 'string' || !meta.shape) errs.push('meta.shape must be a non-empty string');
    if (!(meta.instruction === null || (typeof meta.instruction === 'string' && meta.instruction.trim())))
      errs.push('meta.instruction must be null or a non-empty string');
    const n = splitLines(original).length;
    if (meta.lines !== n) errs.push(`meta.lines=${meta.lines} but original has ${n} lines`);
    if (n < 30 || n > 400) errs.push(`original has ${n} lines (want 30..400)`);
    perLang[meta.lang] = (perLang[meta.lang] || 0) + 1;
  }
  // Line endings must agree between the three files.
  const le = { original: lineEnding(original), update: lineEnding(update), expected: lineEnding(expected) };
  for (const [f, v] of Object.entries(le)) if (v === 'mixed') errs.push(`${f} has mixed line endings`);
  if (new Set(Object.values(le).filter((v) => v !== 'none')).size > 1)
    errs.push(`line endings differ: ${JSON.stringify(le)}`);
  // BOM must be kept: expected has one iff original has one.
  const bomO = fs.readFileSync(path.join(dir, 'original'))[0] === 0xef;
  const bomE = fs.readFileSync(path.join(dir, 'expected'))[0] === 0xef;
  if (bomO !== bomE) errs.push('BOM differs between original and expected');
  // Final newline should follow the original.
  if (original.endsWith('\n') !== expected.endsWith('\n')) errs.push('final newline differs between original and expected');
  if (original === expected) errs.push('expected equals original (no edit)');
  // Every new line in expected must come from the update (or be a fragment of an original line
  // that was split, e.g. when an inline marker in `[a, /* ... */, c]` stood for it).
  const origLines = splitLines(original);
  const origSet = new Set(origLines);
  const origTrim = new Set(origLines.map((l) => l.trim()));
  const updTrim = new Set(splitLines(update).map((l) => l.trim()));
  for (const line of splitLines(expected)) {
    if (origSet.has(line)) continue;
    const t = line.trim();
    if (t === '' || updTrim.has(t)) continue;
    if (origTrim.has(t)) continue; // re-indented original line
    if (t.length > 2 && origLines.some((o) => o.includes(t.replace(/,$/, '')))) {
      warns.push(`new line taken from inside an original line: ${JSON.stringify(t)}`);
      continue;
    }
    errs.push(`expected line not in original or update: ${JSON.stringify(line)}`);
  }
  // A snippet with markers must not already be the whole answer.
  const hasMarker = splitLines(update).some((l) => MARKER_RE.test(l));
  if (hasMarker && update === expected) errs.push('update has markers but equals expected');
  if (!hasMarker && update === expected) warns.push('update equals expected (full-file rewrite)');

  if (errs.length) {
    failures++;
    console.log(`FAIL ${name}`);
    for (const e of errs) console.log(`  - ${e}`);
  } else {
    console.log(`ok   ${name}`);
  }
  for (const w of warns) {
    warnings++;
    console.log(`  warn: ${w}`);
  }
}
console.log(`\n${dirs.length} cases, ${failures} failing, ${warnings} warnings`);
console.log('per language:', JSON.stringify(perLang));
process.exit(failures ? 1 : 0);
