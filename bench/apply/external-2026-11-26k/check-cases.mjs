// Mechanical sanity checks for the apply test cases. Usage: node check-cases.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const MARKERLESS_OK = new Set([
  'full-function-no-markers', 'bugfix-one-line', 'reindented-snippet', 'missing-closing-braces',
  'repeated-anchor', 'add-error-handling', 'add-import-and-use', 'add-field', 'same-name-different-class',
]);
const isMarker = (l) => /\.\.\.|…/.test(l);
const isCommentOnly = (l) => /^\s*(\/\/|#|--|\/\*|<!--|\{\/\*|\(\*)/.test(l);
let failures = 0;
const byLang = {}, byShape = {};
let crlf = 0, noFinalNl = 0, bom = 0, over200 = 0, withInstr = 0, annotations = 0;
const fail = (id, msg) => { failures++; console.log(`FAIL ${id}: ${msg}`); };

const ids = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory() && !d.startsWith('_') && !d.startsWith('.')).sort();
for (const id of ids) {
  const dir = path.join(root, id);
  const files = {};
  let missing = false;
  for (const f of ['original', 'update', 'expected', 'meta.json']) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) { fail(id, `missing ${f}`); missing = true; continue; }
    files[f] = fs.readFileSync(p, 'utf8');
  }
  if (missing) continue;
  let meta;
  try { meta = JSON.parse(files['meta.json']); } catch (e) { fail(id, 'meta.json not JSON'); continue; }
  if (typeof meta.lang !== 'string' || !meta.lang) fail(id, 'meta.lang');
  if (typeof meta.shape !== 'string' || !meta.shape) fail(id, 'meta.shape');
  if (!(meta.instruction === null || (typeof meta.instruction === 'string' && meta.instruction.length > 0))) fail(id, 'meta.instruction');
  if (meta.instruction) withInstr++;
  const { original: o, update: u, expected: e } = files;
  const oLines = o.split('\n').length - (o.endsWith('\n') ? 1 : 0);
  if (meta.lines !== oLines) fail(id, `meta.lines ${meta.lines} != ${oLines}`);
  if (oLines > 200) over200++;
  if (oLines < 40 || oLines > 500) fail(id, `original has ${oLines} lines (want 40..500)`);
  if (e === o) fail(id, 'expected == original');
  // line endings
  const oCR = o.includes('\r\n'), eCR = e.includes('\r\n');
  if (oCR !== eCR) fail(id, 'CRLF state differs');
  if (oCR) {
    crlf++;
    if (/(^|[^\r])\n/.test(e)) fail(id, 'expected mixes LF into CRLF file');
  } else if (e.includes('\r')) fail(id, 'expected has CR but original does not');
  if (o.endsWith('\n') !== e.endsWith('\n')) fail(id, 'final newline state differs');
  if (!o.endsWith('\n')) noFinalNl++;
  const oBom = o.charCodeAt(0) === 0xfeff, eBom = e.charCodeAt(0) === 0xfeff;
  if (oBom !== eBom) fail(id, 'BOM state differs');
  if (oBom) bom++;
  // markers
  const uLines = u.replace(/\r\n/g, '\n').split('\n');
  const hasMarker = uLines.some(isMarker);
  if (!hasMarker && !MARKERLESS_OK.has(meta.shape)) fail(id, `no marker in update and shape ${meta.shape} is not a marker-less shape`);
  // every non-marker update line occurs in expected (whitespace-trimmed, to allow re-indented snippets)
  const eSet = new Set(e.replace(/^\ufeff/, '').replace(/\r\n/g, '\n').split('\n').map((l) => l.trim()));
  for (const l of uLines) {
    const t = l.trim();
    if (!t || eSet.has(t) || isMarker(t)) continue;
    if (isCommentOnly(t)) { annotations++; console.log(`note ${id}: annotation comment not in expected: ${t}`); continue; }
    fail(id, `update line not in expected: ${JSON.stringify(t)}`);
  }
  // expected should contain original lines except deleted/replaced ones: at least sanity that something of original survives
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}
console.log(`\n${ids.length} cases, ${Object.keys(byLang).length} languages, ${Object.keys(byShape).length} shapes`);
console.log(`CRLF: ${crlf}, no final newline: ${noFinalNl}, BOM: ${bom}, >200 lines: ${over200}, with instruction: ${withInstr}, annotation comments: ${annotations}`);
console.log('\nBy language:');
for (const [k, v] of Object.entries(byLang).sort((a, b) => b[1] - a[1])) console.log(`  ${k.padEnd(12)} ${v}`);
console.log('\nBy shape:');
for (const [k, v] of Object.entries(byShape).sort((a, b) => b[1] - a[1])) console.log(`  ${k.padEnd(26)} ${v}`);
if (ids.length < 160) fail('(all)', `only ${ids.length} cases`);
if (failures) { console.log(`\n${failures} failure(s)`); process.exit(1); }
console.log('\nall checks passed');
