#!/usr/bin/env node
// Mechanical sanity checks for apply-engine test cases.
// Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const FILES = ['original', 'update', 'expected', 'meta.json'];
const MARKER_RE = /(\.\.\.|…|\(unchanged\)|stays the same|rest of|existing)/i;

function splitLines(text) {
  // Lines without terminators; a final newline does not start a new line.
  const parts = text.split(/\r\n|\n|\r/);
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function eolKind(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/(?<!\r)\n/g) || []).length;
  if (crlf && lf) return 'mixed';
  if (crlf) return 'crlf';
  if (lf) return 'lf';
  return 'none';
}

let problems = 0;
let count = 0;
const dirs = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();
for (const d of dirs) {
  const dir = path.join(root, d);
  const errs = [];
  const entries = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!entries.includes(f)) errs.push(`missing ${f}`);
  const extra = entries.filter((e) => !FILES.includes(e));
  if (extra.length) errs.push(`extra files: ${extra.join(', ')}`);
  if (errs.length) { report(d, errs); continue; }
  count++;
  const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');
  const original = read('original');
  const update = read('update');
  const expected = read('expected');
  let meta;
  try {
    meta = JSON.parse(read('meta.json'));
  } catch (e) {
    errs.push(`meta.json invalid: ${e.message}`);
  }
  if (meta) {
    for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) errs.push(`meta.json lacks ${k}`);
    if (typeof meta.lang !== 'string' || !meta.lang) errs.push('meta.lang must be a non-empty string');
    if (typeof meta.shape !== 'string' || !meta.shape) errs.push('meta.shape must be a non-empty string');
    if (!(meta.instruction === null || (typeof meta.instruction === 'string' && meta.instruction.trim()))) errs.push('meta.instruction must be null or a non-empty string');
    const n = splitLines(original).length;
    if (meta.lines !== n) errs.push(`meta.lines=${meta.lines} but original has ${n} lines`);
    if (n < 30 || n > 400) errs.push(`original has ${n} lines (want 30..400)`);
    const prefix = d.split('-')[0].replace(/\d+$/, '');
    if (!prefix) errs.push('directory name should start with <lang><NN>-');
  }
  const kinds = { original: eolKind(original), update: eolKind(update), expected: eolKind(expected) };
  for (const [f, k] of Object.entries(kinds)) if (k === 'mixed') errs.push(`${f} has mixed line endings`);
  const ko = kinds.original, ke = kinds.expected, ku = kinds.update;
  if (ko !== ke) errs.push(`line endings differ: original=${ko} expected=${ke}`);
  if (ku !== 'none' && ku !== ko) errs.push(`line endings differ: original=${ko} update=${ku}`);
  const bom = (s) => s.charCodeAt(0) === 0xfeff;
  if (bom(original) !== bom(expected)) errs.push('BOM differs between original and expected');
  if (original === expected) errs.push('expected is identical to original');
  if (/^```/m.test(update)) errs.push('update contains markdown fences');

  const strip = (s) => s.replace(/^\uFEFF/, '');
  const origSet = new Set(splitLines(strip(original)).map((l) => l.trim()));
  const updSet = new Set(splitLines(strip(update)).map((l) => l.trim()));
  // Update lines with an inline comment marker (e.g. `[a, /* ... */ c]`) act as
  // patterns: the marker stands for any run of unchanged text.
  const INLINE_MARKER = /\/\*\s*(\.\.\.|…)\s*\*\//g;
  const inlinePatterns = splitLines(strip(update))
    .map((l) => l.trim())
    .filter((t) => new RegExp(INLINE_MARKER.source).test(t) && t.replace(INLINE_MARKER, '').trim() !== '')
    .map((t) => new RegExp('^' + t.split(INLINE_MARKER).filter((p, k) => k % 2 === 0)
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$'));
  for (const [i, line] of splitLines(strip(expected)).entries()) {
    const t = line.trim();
    if (origSet.has(t)) continue;
    if (inlinePatterns.some((re) => re.test(t))) continue;
    if (!updSet.has(t)) errs.push(`expected line ${i + 1} is in neither original nor update: ${JSON.stringify(line)}`);
  }
  const hasMarker = splitLines(update).some((l) => MARKER_RE.test(l));
  if (hasMarker && strip(update) === strip(expected)) errs.push('update has markers but equals expected');
  if (errs.length) report(d, errs);
}

function report(d, errs) {
  problems += errs.length;
  console.log(`✗ ${d}`);
  for (const e of errs) console.log(`    ${e}`);
}

console.log(`${count} case(s) checked, ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
