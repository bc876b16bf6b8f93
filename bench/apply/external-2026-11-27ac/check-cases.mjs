#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [caseDir ...]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const REQUIRED = ['original', 'update', 'expected', 'meta.json'];
const MARKER_RE = /(\.\.\.|…|existing code|unchanged|stays the same|rest of )/i;

function lineCount(text) {
  if (text.length === 0) return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

function eolStyle(text) {
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

const dirs = process.argv.slice(2).length
  ? process.argv.slice(2).map((d) => path.resolve(d))
  : fs.readdirSync(root)
      .map((d) => path.join(root, d))
      .filter((d) => fs.statSync(d).isDirectory())
      .sort();

let failures = 0;
const byLang = {};
const byShape = {};
for (const dir of dirs) {
  const name = path.basename(dir);
  const problems = [];
  const entries = fs.readdirSync(dir);
  for (const f of REQUIRED) if (!entries.includes(f)) problems.push(`missing ${f}`);
  for (const f of entries) if (!REQUIRED.includes(f)) problems.push(`unexpected file ${f}`);
  if (problems.length) {
    console.log(`FAIL ${name}: ${problems.join('; ')}`);
    failures++;
    continue;
  }
  const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');
  const original = read('original');
  const update = read('update');
  const expected = read('expected');
  let meta;
  try {
    meta = JSON.parse(read('meta.json'));
  } catch (e) {
    problems.push(`meta.json invalid: ${e.message}`);
  }
  if (meta) {
    if (typeof meta.lang !== 'string' || !meta.lang) problems.push('meta.lang missing');
    if (typeof meta.shape !== 'string' || !meta.shape) problems.push('meta.shape missing');
    if (!(meta.instruction === null || typeof meta.instruction === 'string')) problems.push('meta.instruction must be string or null');
    const n = lineCount(original);
    if (meta.lines !== n) problems.push(`meta.lines=${meta.lines} but original has ${n} lines`);
    if (n < 30 || n > 400) problems.push(`original has ${n} lines (want 30..400)`);
    byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
    byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
  }
  const styles = { original: eolStyle(original), update: eolStyle(update), expected: eolStyle(expected) };
  for (const [f, s] of Object.entries(styles)) if (s === 'mixed') problems.push(`${f} has mixed line endings`);
  const set = new Set(Object.values(styles).filter((s) => s !== 'none'));
  if (set.size > 1) problems.push(`line endings differ: ${JSON.stringify(styles)}`);
  if (original.startsWith('\uFEFF') !== expected.startsWith('\uFEFF')) problems.push('BOM differs between original and expected');

  const origSet = new Set(lines(original));
  const updTrim = new Set(lines(update).map((l) => l.trim()));
  // Update lines with a marker inside the line (e.g. `[a, /* ... */, c]`) match an
  // expected line that starts with the text before the marker and ends with the text after it.
  const INLINE_RE = /\/\*\s*(?:\.\.\.|…)[^*]*\*\/|\{\s*\/\*\s*(?:\.\.\.|…)[^*]*\*\/\s*\}|…/;
  const inlinePatterns = lines(update)
    .map((l) => l.trim())
    .filter((l) => INLINE_RE.test(l))
    .map((l) => {
      const parts = l.split(INLINE_RE);
      return { head: parts[0].trim(), tail: parts[parts.length - 1].trim() };
    })
    .filter((p) => p.head || p.tail);
  lines(expected).forEach((l, i) => {
    if (origSet.has(l) || updTrim.has(l.trim())) return;
    const t = l.trim();
    if (inlinePatterns.some((p) => t.startsWith(p.head) && t.endsWith(p.tail) && t.length > p.head.length + p.tail.length)) return;
    problems.push(`expected line ${i + 1} not in original nor update: ${JSON.stringify(l)}`);
  });
  // Warning only: a non-marker line of the update that is nowhere in expected was probably forgotten.
  const expTrim = new Set(lines(expected).map((l) => l.trim()));
  const warnings = lines(update)
    .filter((l) => l.trim() && !MARKER_RE.test(l) && !expTrim.has(l.trim()))
    .map((l) => `update line not found in expected: ${JSON.stringify(l)}`);
  for (const w of warnings) console.log(`warn ${name}: ${w}`);
  const hasMarkers = lines(update).some((l) => MARKER_RE.test(l));
  if (hasMarkers && update === expected) problems.push('update has markers but is identical to expected');
  if (original === expected) problems.push('expected is identical to original (no edit)');

  if (problems.length) {
    failures++;
    console.log(`FAIL ${name}:\n  - ${problems.join('\n  - ')}`);
  } else {
    console.log(`ok   ${name} (${meta.lang}, ${meta.shape}, ${meta.lines} lines)`);
  }
}
console.log(`\n${dirs.length} cases, ${failures} failing`);
console.log('per language:', JSON.stringify(byLang));
console.log('per shape:', JSON.stringify(byShape));
process.exit(failures ? 1 : 0);
