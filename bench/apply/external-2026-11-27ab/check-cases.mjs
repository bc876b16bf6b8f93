#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [caseDir...]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ['original', 'update', 'expected', 'meta.json'];
const MARKER_RE = /(\.\.\.|…|\(unchanged\)|unchanged|rest of|existing code|stays the same)/i;
const INLINE_MARKER_RE = /\/\*\s*(?:\.\.\.|…)[^*]*\*\/|<!--\s*(?:\.\.\.|…)[^>]*-->|(?:\.\.\.|…)/g;

function lineEnding(buf) {
  const s = buf.toString('utf8');
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  if (crlf) return 'crlf';
  if (lf) return 'lf';
  return 'none';
}

function splitLines(s) {
  const lines = s.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function countLines(buf) {
  const s = buf.toString('utf8');
  if (!s.length) return 0;
  const n = (s.match(/\n/g) || []).length;
  return s.endsWith('\n') ? n : n + 1;
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// An update line containing an inline marker matches an expected line if the
// marker stands for some (possibly empty) run of characters.
function wildcardMatches(updLine, expLine) {
  if (!INLINE_MARKER_RE.test(updLine)) return false;
  INLINE_MARKER_RE.lastIndex = 0;
  const parts = updLine.split(INLINE_MARKER_RE).map((p) => escapeRe(p.trim()));
  const re = new RegExp('^' + parts.join('.*') + '$');
  return re.test(expLine.trim());
}

function checkCase(dir) {
  const errs = [];
  const name = path.basename(dir);
  for (const f of FILES) {
    if (!fs.existsSync(path.join(dir, f))) errs.push(`missing ${f}`);
  }
  const extra = fs.readdirSync(dir).filter((f) => !FILES.includes(f));
  if (extra.length) errs.push(`unexpected files: ${extra.join(', ')}`);
  if (errs.length) return errs;

  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  } catch (e) {
    return [`meta.json invalid: ${e.message}`];
  }
  for (const k of ['lang', 'shape', 'instruction', 'lines']) {
    if (!(k in meta)) errs.push(`meta.json lacks ${k}`);
  }
  if (typeof meta.lang !== 'string' || !meta.lang) errs.push('meta.lang must be a non-empty string');
  if (typeof meta.shape !== 'string' || !meta.shape) errs.push('meta.shape must be a non-empty string');
  if (meta.instruction !== null && typeof meta.instruction !== 'string') errs.push('meta.instruction must be string or null');

  const orig = fs.readFileSync(path.join(dir, 'original'));
  const upd = fs.readFileSync(path.join(dir, 'update'));
  const exp = fs.readFileSync(path.join(dir, 'expected'));

  const n = countLines(orig);
  if (meta.lines !== n) errs.push(`meta.lines=${meta.lines} but original has ${n} lines`);
  if (n < 30 || n > 400) errs.push(`original has ${n} lines (want 30..400)`);

  const eo = lineEnding(orig), eu = lineEnding(upd), ee = lineEnding(exp);
  if (eo === 'mixed' || eu === 'mixed' || ee === 'mixed') errs.push(`mixed line endings (${eo}/${eu}/${ee})`);
  if (new Set([eo, eu, ee].filter((x) => x !== 'none')).size > 1) errs.push(`line endings differ: original=${eo} update=${eu} expected=${ee}`);

  const bomO = orig[0] === 0xef && orig[1] === 0xbb && orig[2] === 0xbf;
  const bomE = exp[0] === 0xef && exp[1] === 0xbb && exp[2] === 0xbf;
  if (bomO !== bomE) errs.push('BOM present in only one of original/expected');

  if (orig.equals(exp)) errs.push('expected is identical to original');

  const origLines = splitLines(orig.toString('utf8'));
  const updLines = splitLines(upd.toString('utf8'));
  const expLines = splitLines(exp.toString('utf8'));
  const origSet = new Set(origLines);
  const updTrimmed = new Set(updLines.map((l) => l.trim()));
  for (const [i, line] of expLines.entries()) {
    if (origSet.has(line)) continue;
    if (updTrimmed.has(line.trim())) continue;
    if (updLines.some((u) => wildcardMatches(u, line))) continue;
    errs.push(`expected line ${i + 1} is neither in original nor in update: ${JSON.stringify(line)}`);
  }

  const hasMarkers = updLines.some((l) => MARKER_RE.test(l));
  if (hasMarkers && upd.equals(exp)) errs.push('update has markers but is identical to expected');

  // final-newline sanity: expected should keep original's final-newline state
  const endsNl = (b) => b.length > 0 && b[b.length - 1] === 0x0a;
  if (endsNl(orig) !== endsNl(exp)) errs.push('final newline state differs between original and expected');

  return errs;
}

const args = process.argv.slice(2);
const dirs = (args.length ? args : fs.readdirSync(root))
  .map((d) => path.resolve(root, d))
  .filter((d) => fs.statSync(d).isDirectory())
  .sort();

let bad = 0;
const langs = {}, shapes = {};
let withInstr = 0, crlf = 0, noEol = 0, bom = 0, long = 0;
for (const dir of dirs) {
  const errs = checkCase(dir);
  if (errs.length) {
    bad++;
    console.log(`FAIL ${path.basename(dir)}`);
    for (const e of errs) console.log(`  - ${e}`);
    continue;
  }
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  const orig = fs.readFileSync(path.join(dir, 'original'));
  langs[meta.lang] = (langs[meta.lang] || 0) + 1;
  shapes[meta.shape] = (shapes[meta.shape] || 0) + 1;
  if (meta.instruction) withInstr++;
  if (lineEnding(orig) === 'crlf') crlf++;
  if (orig[orig.length - 1] !== 0x0a) noEol++;
  if (orig[0] === 0xef) bom++;
  if (meta.lines > 150) long++;
  console.log(`ok   ${path.basename(dir)}`);
}
console.log(`\n${dirs.length} cases, ${bad} failing`);
console.log(`instruction: ${withInstr}, crlf: ${crlf}, no final newline: ${noEol}, bom: ${bom}, >150 lines: ${long}`);
console.log('languages:', JSON.stringify(langs));
process.exit(bad ? 1 : 0);
