#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine held-out cases.
// Usage: node check-cases.mjs [dir]   (defaults to the directory of this script)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ?? path.dirname(fileURLToPath(import.meta.url));
const REQUIRED = ['original', 'update', 'expected', 'meta.json'];
const MARKER_RE = /(\.\.\.|…|\(unchanged\)|stays the same|unchanged)/;
const INLINE_MARKER_RE = /\/\*\s*(\.\.\.|…)[^*]*\*\//g;

let failures = 0;
let warnings = 0;
const fail = (c, msg) => { failures++; console.log(`FAIL ${c}: ${msg}`); };
const warn = (c, msg) => { warnings++; console.log(`warn ${c}: ${msg}`); };

function lineCount(buf) {
  const s = buf.toString('utf8');
  if (s.length === 0) return 0;
  const n = (s.match(/\n/g) || []).length;
  return s.endsWith('\n') ? n : n + 1;
}

function eolStyle(s) {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length;
  if (lf === 0) return 'none';
  if (crlf === lf) return 'crlf';
  if (crlf === 0) return 'lf';
  return 'mixed';
}

function lines(s) {
  return s.replace(/^\uFEFF/, '').split(/\r?\n/);
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const dirs = fs.readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('.'))
  .map((d) => d.name)
  .sort();

const perLang = {};
const perShape = {};
let withInstruction = 0;

for (const name of dirs) {
  const dir = path.join(root, name);
  const present = fs.readdirSync(dir);
  const missing = REQUIRED.filter((f) => !present.includes(f));
  const extra = present.filter((f) => !REQUIRED.includes(f));
  if (missing.length) { fail(name, `missing ${missing.join(', ')}`); continue; }
  if (extra.length) fail(name, `unexpected files ${extra.join(', ')}`);

  if (!/^[a-z]+\d\d-[a-z0-9-]+$/.test(name)) fail(name, 'directory name is not <lang><NN>-<slug>');

  const raw = Object.fromEntries(['original', 'update', 'expected'].map((f) => [f, fs.readFileSync(path.join(dir, f))]));
  const text = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.toString('utf8')]));

  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  } catch (e) {
    fail(name, `meta.json is not valid JSON: ${e.message}`);
    continue;
  }
  for (const k of ['lang', 'shape']) {
    if (typeof meta[k] !== 'string' || !meta[k]) fail(name, `meta.${k} must be a non-empty string`);
  }
  if (!(meta.instruction === null || (typeof meta.instruction === 'string' && meta.instruction.length > 0))) {
    fail(name, 'meta.instruction must be null or a non-empty string');
  }
  if (!Number.isInteger(meta.lines)) fail(name, 'meta.lines must be an integer');
  const n = lineCount(raw.original);
  if (meta.lines !== n) fail(name, `meta.lines=${meta.lines} but original has ${n} lines`);
  if (n < 30 || n > 400) fail(name, `original has ${n} lines (want 30..400)`);

  perLang[meta.lang] = (perLang[meta.lang] || 0) + 1;
  perShape[meta.shape] = (perShape[meta.shape] || 0) + 1;
  if (meta.instruction) withInstruction++;

  // Line endings must agree between the three files.
  const styles = Object.fromEntries(Object.entries(text).map(([k, v]) => [k, eolStyle(v)]));
  for (const [k, st] of Object.entries(styles)) {
    if (st === 'mixed') fail(name, `${k} has mixed line endings`);
  }
  const set = new Set(Object.values(styles).filter((s) => s !== 'none'));
  if (set.size > 1) fail(name, `line endings differ: ${JSON.stringify(styles)}`);

  // BOM must agree between original and expected.
  const bom = (b) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  if (bom(raw.original) !== bom(raw.expected)) fail(name, 'BOM differs between original and expected');

  // Final newline: if the edit does not touch the end, original and expected should agree.
  const endsNl = (s) => s.endsWith('\n');
  if (endsNl(text.original) !== endsNl(text.expected)) warn(name, 'final newline differs between original and expected');

  if (/^```/m.test(text.update)) fail(name, 'update contains a markdown fence');
  if (text.original === text.expected) fail(name, 'expected is identical to original');

  // Every line added by the edit must be visible in the update.
  const origSet = new Set(lines(text.original).map((l) => l.trim()));
  const updLines = lines(text.update).map((l) => l.trim());
  const updSet = new Set(updLines);
  const inlinePatterns = updLines
    .filter((l) => INLINE_MARKER_RE.test(l))
    .map((l) => {
      INLINE_MARKER_RE.lastIndex = 0;
      const parts = l.split(INLINE_MARKER_RE).filter((_, i) => i % 2 === 0);
      return new RegExp('^' + parts.map((p) => escapeRe(p.trim())).join('.*') + '$');
    });
  INLINE_MARKER_RE.lastIndex = 0;
  for (const l of lines(text.expected)) {
    const t = l.trim();
    if (origSet.has(t) || updSet.has(t)) continue;
    if (inlinePatterns.some((re) => re.test(t))) continue;
    fail(name, `expected line not in original nor update: ${JSON.stringify(t)}`);
  }

  const hasMarkers = updLines.some((l) => MARKER_RE.test(l));
  if (hasMarkers && text.update === text.expected) fail(name, 'update has markers but equals expected');
  if (text.update === text.expected) warn(name, 'update equals expected (full-file update)');
}

console.log('');
console.log(`${dirs.length} cases, ${failures} failure(s), ${warnings} warning(s); ${withInstruction} with instruction`);
console.log('per language:', JSON.stringify(perLang));
process.exit(failures ? 1 : 0);
