#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs [dir]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const FILES = ['original', 'update', 'expected', 'meta.json'];
// shapes where an update with no elision marker at all is a deliberate choice
const MARKERLESS_OK = new Set([
  'full-function-no-markers', 'reindented-snippet', 'bugfix-one-line',
  'missing-closing-braces', 'add-method-to-class', 'same-name-two-classes',
  'add-tests', 'edit-at-end', 'edit-near-start', 'delete-function-instruction',
  'rename-function-and-callers', 'add-error-handling', 'tabs-indent', 'bom', 'crlf-file',
  'no-trailing-newline', 'nested-config-key', 'modify-middle-long-function', 'repeated-anchor-lines',
]);
const KNOWN_SHAPES = new Set([
  'bugfix-one-line', 'modify-middle-long-function', 'anchor-new-marker', 'add-method-to-class',
  'add-import-and-use', 'add-field-and-uses', 'add-route-handler', 'add-tests', 'add-logging',
  'add-error-handling', 'rename-function-and-callers', 'change-signature-and-callers',
  'delete-function-instruction', 'delete-function-anchors', 'multiple-hunks', 'out-of-order-hunks',
  'repeated-anchor-lines', 'reindented-snippet', 'missing-closing-braces', 'full-function-no-markers',
  'nested-config-key', 'inline-markers', 'crlf-file', 'no-trailing-newline', 'tabs-indent', 'bom',
  'edit-near-start', 'edit-at-end', 'same-name-two-classes', 'marker-wording-variety',
]);
const MARKER_WORDS = /(\.\.\.|…|existing|unchanged|rest of|remain|omitted|same as before|as before|elided|other (\w+ )*(stay|are|as))/i;
const COMMENT_START = /^(\/\/|#|\/\*|\*|<!--|--|;|%|\{\/\*|\(\*|\{-|'|rem\b)/i;

function isMarkerLine(t) {
  if (t === '...' || t === '…') return true;
  if (COMMENT_START.test(t) && MARKER_WORDS.test(t)) return true;
  // inline marker inside a line: `[a, /* ... */ b]`, `f(a, ..., b)`, `{ ...existing }`
  if (/\/\*\s*(\.\.\.|…)[^*]*\*\//.test(t)) return true;
  if (/(\/\/|#|--)\s*(\.\.\.|…)/.test(t)) return true;
  if (/(^|[\s,(\[{])(\.\.\.|…)\s*([,)\]}]|$)/.test(t)) return true;
  if (/<!--.*(\.\.\.|…).*-->/.test(t)) return true;
  return false;
}

const problems = [];
const byLang = {}, byShape = {};
let n = 0, over200 = 0, crlf = 0, nonl = 0, bom = 0, tabs = 0, withInstr = 0, markerless = 0;
const dirs = fs.readdirSync(root).filter(d => fs.statSync(path.join(root, d)).isDirectory() && !d.startsWith('.')).sort();
for (const id of dirs) {
  const dir = path.join(root, id);
  const bad = (m) => problems.push(`${id}: ${m}`);
  const missing = FILES.filter(f => !fs.existsSync(path.join(dir, f)));
  if (missing.length) { bad(`missing ${missing.join(', ')}`); continue; }
  n++;
  let meta;
  try { meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')); } catch (e) { bad('meta.json is not JSON'); continue; }
  if (typeof meta.lang !== 'string' || !meta.lang) bad('meta.lang');
  if (typeof meta.shape !== 'string' || !KNOWN_SHAPES.has(meta.shape)) bad(`meta.shape ${meta.shape} is not a known shape`);
  const extra = Object.keys(meta).filter(k => !['lang', 'shape', 'instruction', 'lines'].includes(k));
  if (extra.length) bad(`meta has unexpected keys ${extra.join(', ')}`);
  if (!(meta.instruction === null || (typeof meta.instruction === 'string' && meta.instruction.length > 0))) bad('meta.instruction');
  if (!Number.isInteger(meta.lines)) bad('meta.lines');
  if (!/^[a-z0-9]+[0-9]{2}-[a-z0-9-]+$/.test(id)) bad('id format');
  const orig = fs.readFileSync(path.join(dir, 'original'));
  const exp = fs.readFileSync(path.join(dir, 'expected'));
  const updS = fs.readFileSync(path.join(dir, 'update'), 'utf8');
  const o = orig.toString('utf8'), e = exp.toString('utf8');
  if (orig.equals(exp)) bad('expected equals original');
  if (!updS.trim()) bad('empty update');
  const oLines = o.split('\n').length - (o.endsWith('\n') ? 1 : 0);
  if (oLines !== meta.lines) bad(`meta.lines ${meta.lines} != ${oLines}`);
  if (oLines < 40 || oLines > 500) bad(`original has ${oLines} lines (want 40..500)`);
  if (oLines > 200) over200++;
  // line endings
  const oCRLF = (o.match(/\r\n/g) || []).length, oLF = (o.match(/\n/g) || []).length;
  const eCRLF = (e.match(/\r\n/g) || []).length, eLF = (e.match(/\n/g) || []).length;
  const oIsCRLF = oCRLF > 0 && oCRLF === oLF, eIsCRLF = eCRLF > 0 && eCRLF === eLF;
  if (oCRLF && oCRLF !== oLF) bad('original has mixed line endings');
  if (oIsCRLF !== eIsCRLF || (!oIsCRLF && eCRLF)) bad('expected line endings differ from original');
  if (o.endsWith('\n') !== e.endsWith('\n')) bad('final newline state differs');
  const oBom = o.charCodeAt(0) === 0xfeff, eBom = e.charCodeAt(0) === 0xfeff;
  if (oBom !== eBom) bad('BOM state differs');
  if (oIsCRLF) crlf++;
  if (!o.endsWith('\n')) nonl++;
  if (oBom) bom++;
  if (/^\t/m.test(o)) tabs++;
  if (meta.instruction) withInstr++;
  // update lines must appear in expected (modulo indentation) unless they are markers
  const expSet = new Set(e.replace(/^\ufeff/, '').split(/\r?\n/).map(l => l.trim()));
  let hasMarker = false;
  for (const raw of updS.split(/\r?\n/)) {
    const t = raw.trim();
    if (!t) continue;
    if (expSet.has(t)) { if (isMarkerLine(t) && !o.includes(t)) hasMarker = true; continue; }
    if (isMarkerLine(t)) { hasMarker = true; continue; }
    bad(`update line not in expected: ${JSON.stringify(t)}`);
  }
  if (!hasMarker) {
    markerless++;
    if (!MARKERLESS_OK.has(meta.shape)) bad(`update has no marker but shape ${meta.shape} is not a marker-less shape`);
  }
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}
const fmt = (o) => Object.entries(o).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, v]) => `  ${k}: ${v}`).join('\n');
console.log(`cases: ${n}\nlanguages: ${Object.keys(byLang).length}\n${fmt(byLang)}\nshapes: ${Object.keys(byShape).length}\n${fmt(byShape)}`);
console.log(`over 200 lines: ${over200}, CRLF: ${crlf}, no final newline: ${nonl}, BOM: ${bom}, tab-indented: ${tabs}, with instruction: ${withInstr}, marker-less updates: ${markerless}`);
if (problems.length) { console.log(`\n${problems.length} problem(s):\n` + problems.join('\n')); process.exit(1); }
console.log('\nall checks passed');
