// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs   (exit code 1 on any failure)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));

// Cases whose UPDATE deliberately has no elision marker (a whole function,
// a bare snippet of the edited region, or the edited lines only).
const MARKERLESS_SHAPES = new Set([
  'full-function-no-markers',
  'snippet-missing-closing-braces',
  're-indented-snippet',
  'bugfix-one-line',
]);
const MARKERLESS_IDS = new Set([
  'json02-appsettings-bom-crlf',       // just the two edited objects
  'scala02-add-error-handling-long',   // just the edited case clause
  'ts03-add-method-without-class',     // method shown without its class
]);

const MARKER_RE = [
  /\.\.\./,                         // "...", "// ... existing code ...", inline "..."
  /…/,
  /^\s*(\/\/|#|--|;|\/\*|<!--|\(\*|\*)\s*(existing|unchanged|rest\b|remaining|same as before|omitted|other\b|and at the top)/i,
  /^\s*\[\s*\.\.\./,
  /\/\*\s*(existing|unchanged|rest|\.\.\.)[^*]*\*\//i, // inline /* existing types */
];
const isMarker = (line) => MARKER_RE.some((re) => re.test(line));

const SHAPES = new Set([
  'bugfix-one-line', 'modify-middle-of-long-function', 'anchor-new-code-marker',
  'add-method-to-class', 'add-import-and-use', 'add-field-and-uses', 'add-route',
  'add-tests', 'add-logging', 'add-error-handling', 'rename-function-and-callers',
  'change-signature', 'change-signature-and-callers', 'delete-function', 'delete-by-anchors',
  'multiple-hunks', 'hunks-out-of-order', 'repeated-anchor-lines', 're-indented-snippet',
  'snippet-missing-closing-braces', 'full-function-no-markers', 'nested-config-key',
  'inline-markers', 'edits-near-start', 'edits-at-end-of-file', 'edits-near-start-and-end',
  'same-name-two-classes',
]);

function lineInfo(buf) {
  const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length;
  const finalNl = text.endsWith('\n');
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  return { bom, text, crlf, bareLf: lf - crlf, finalNl, lines };
}

const failures = [];
const byLang = {};
const byShape = {};
let over150 = 0;
let crlfCases = 0, bomCases = 0, noEolCases = 0, tabCases = 0, withInstr = 0;
const ids = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();

for (const id of ids) {
  const dir = path.join(root, id);
  const fail = (msg) => failures.push(`${id}: ${msg}`);
  const need = ['original', 'update', 'expected', 'meta.json'];
  const missing = need.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) { fail(`missing ${missing.join(', ')}`); continue; }

  let meta;
  try { meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')); }
  catch (e) { fail(`meta.json invalid: ${e.message}`); continue; }
  if (typeof meta.lang !== 'string' || !meta.lang) fail('meta.lang missing');
  if (typeof meta.shape !== 'string' || !SHAPES.has(meta.shape)) fail(`meta.shape unknown: ${meta.shape}`);
  if (!(meta.instruction === null || (typeof meta.instruction === 'string' && meta.instruction.length > 0)))
    fail('meta.instruction must be null or a non-empty string');
  if (!Number.isInteger(meta.lines)) fail('meta.lines must be an integer');

  const orig = fs.readFileSync(path.join(dir, 'original'));
  const exp = fs.readFileSync(path.join(dir, 'expected'));
  const upd = fs.readFileSync(path.join(dir, 'update'), 'utf8');
  const o = lineInfo(orig), e = lineInfo(exp);

  if (orig.equals(exp)) fail('expected == original');
  if (meta.lines !== o.lines.length) fail(`meta.lines ${meta.lines} != original line count ${o.lines.length}`);
  if (o.lines.length < 40 || o.lines.length > 400) fail(`original has ${o.lines.length} lines (want 40..400)`);

  // line endings, BOM, final newline must match the original
  const oCrlf = o.crlf > 0, eCrlf = e.crlf > 0;
  if (oCrlf !== eCrlf) fail('CRLF state differs between original and expected');
  if (oCrlf && (o.bareLf || e.bareLf)) fail('mixed line endings in a CRLF case');
  if (o.bom !== e.bom) fail('BOM state differs');
  if (o.finalNl !== e.finalNl) fail('final-newline state differs');

  // update lines: only those inside ``` fences count when the answer is fenced
  // (not for markdown, where fences are file content)
  let ulines = upd.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (meta.lang !== 'markdown' && ulines.some((l) => /^```/.test(l))) {
    const inside = [];
    let on = false;
    for (const l of ulines) {
      if (/^```/.test(l)) { on = !on; continue; }
      if (on) inside.push(l);
    }
    ulines = inside;
  }
  const hasMarker = ulines.some(isMarker);
  if (!hasMarker && !MARKERLESS_SHAPES.has(meta.shape) && !MARKERLESS_IDS.has(id))
    fail('update has no elision marker and is not a deliberate marker-less case');

  const expSet = new Set(e.lines.map((l) => l.trim()));
  for (const l of ulines) {
    const t = l.trim();
    if (!t || isMarker(l)) continue;
    if (!expSet.has(t)) fail(`update line not in expected: ${JSON.stringify(t)}`);
  }

  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
  if (o.lines.length > 150) over150++;
  if (oCrlf) crlfCases++;
  if (o.bom) bomCases++;
  if (!o.finalNl) noEolCases++;
  if (o.lines.some((l) => l.startsWith('\t'))) tabCases++;
  if (meta.instruction) withInstr++;
}

console.log(`cases: ${ids.length}`);
console.log(`languages (${Object.keys(byLang).length}):`, JSON.stringify(byLang));
console.log(`shapes (${Object.keys(byShape).length}):`, JSON.stringify(byShape));
console.log(`over 150 lines: ${over150}, CRLF: ${crlfCases}, BOM: ${bomCases}, no final newline: ${noEolCases}, tab-indented: ${tabCases}, with instruction: ${withInstr}`);
if (failures.length) {
  console.log(`\nFAILURES (${failures.length}):`);
  for (const f of failures) console.log('  ' + f);
  process.exit(1);
}
console.log('all checks passed');
