#!/usr/bin/env node
// Mechanical checks for the held-out apply cases in this directory.
// Usage: node check-cases.mjs [-v]   (-v lists the original lines missing from expected)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const VERBOSE = process.argv.includes('-v');
const FILES = ['original', 'update', 'expected', 'meta.json'];

// A whole-line marker: a comment whose body is an ellipsis, optionally with words
// like "existing code", "rest of the file", "unchanged".
const COMMENT_OPEN = String.raw`(?:\/\/|#|--|;|%|\/\*|<!--|\{\s*\/\*)`;
const MARKER_LINE = new RegExp(String.raw`^${COMMENT_OPEN}\s*(?:\.\.\.|…)`);
const MARKER_WORDS = new RegExp(String.raw`^${COMMENT_OPEN}.*(?:\.\.\.|…).*(?:existing|rest of|unchanged|remaining|same as before)`, 'i');
// Inline markers inside a code line.
const INLINE_MARKER = /\{?\/\*\s*(?:\.\.\.|…)[^*]*\*\/\}?|\/\/\s*(?:\.\.\.|…).*$|(?<=[(\[{,]\s*)\.\.\.(?=\s*[,)\]}])/g;

function isMarkerLine(line) {
  const t = line.trim();
  return MARKER_LINE.test(t) || MARKER_WORDS.test(t);
}

function splitLines(text) {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => l.replace(/\r$/, ''));
}

function lcsMissing(a, b) {
  // returns indices of lines in a that are not part of an LCS with b
  const n = a.length, m = b.length;
  const dp = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
    }
  }
  const missing = [];
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) { i++; j++; }
    else if (dp[i + 1][j] >= dp[i][j + 1]) { missing.push(i); i++; }
    else j++;
  }
  while (i < n) missing.push(i++);
  return { missing, added: m - (n - missing.length) };
}

const dirs = fs.readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_') && !d.name.startsWith('.'))
  .map((d) => d.name)
  .sort();

let failures = 0;
const byLang = {}, byShape = {};
let withInstr = 0, crlfCases = 0;

for (const id of dirs) {
  const dir = path.join(ROOT, id);
  const problems = [];
  const notes = [];
  const present = fs.readdirSync(dir);
  for (const f of FILES) if (!present.includes(f)) problems.push(`missing file ${f}`);
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) problems.push(`extra files: ${extra.join(', ')}`);
  if (problems.length) { failures++; console.log(`FAIL ${id}: ${problems.join('; ')}`); continue; }

  const original = fs.readFileSync(path.join(dir, 'original'), 'utf8');
  const update = fs.readFileSync(path.join(dir, 'update'), 'utf8');
  const expected = fs.readFileSync(path.join(dir, 'expected'), 'utf8');
  let meta;
  try { meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')); }
  catch (e) { problems.push(`meta.json does not parse: ${e.message}`); }

  const oLines = splitLines(original), eLines = splitLines(expected), uLines = splitLines(update);

  if (meta) {
    for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) problems.push(`meta.json lacks ${k}`);
    if (typeof meta.lang !== 'string' || typeof meta.shape !== 'string') problems.push('meta lang/shape must be strings');
    if (!(meta.instruction === null || typeof meta.instruction === 'string')) problems.push('meta instruction must be string or null');
    if (meta.lines !== oLines.length) problems.push(`meta.lines=${meta.lines} but original has ${oLines.length}`);
    if (oLines.length < 40 || oLines.length > 250) problems.push(`original has ${oLines.length} lines (want 40-250)`);
    byLang[meta.lang] = (byLang[meta.lang] ?? 0) + 1;
    byShape[meta.shape] = (byShape[meta.shape] ?? 0) + 1;
    if (meta.instruction) withInstr++;
  }

  // line endings
  const isCrlf = original.includes('\r\n');
  if (isCrlf) {
    crlfCases++;
    for (const [name, text] of [['original', original], ['expected', expected]]) {
      if (/(^|[^\r])\n/.test(text)) problems.push(`${name}: CRLF case has bare LF`);
      if (/\r(?!\n)/.test(text)) problems.push(`${name}: stray CR`);
    }
    notes.push('crlf');
  } else {
    if (expected.includes('\r')) problems.push('expected has CR but original is LF');
    if (original.includes('\r')) problems.push('original has stray CR');
  }
  if (original.endsWith('\n') !== expected.endsWith('\n')) problems.push('trailing newline convention differs between original and expected');
  if (!original.endsWith('\n')) notes.push('no-final-newline');
  if (original === expected) problems.push('expected equals original');
  if (/^\s*```/.test(uLines[0] ?? '')) problems.push('update starts with a markdown fence');

  // expected must not contain markers
  eLines.forEach((l, i) => { if (isMarkerLine(l)) problems.push(`expected line ${i + 1} looks like a marker: ${l.trim()}`); });
  const eInline = eLines.filter((l) => /\/\*\s*(\.\.\.|…)\s*\*\//.test(l));
  if (eInline.length) problems.push(`expected has inline marker: ${eInline[0].trim()}`);

  // every non-marker, non-blank update line must occur in expected
  const eSet = new Set(eLines);
  const eTrimSet = new Set(eLines.map((l) => l.trim()));
  let markers = 0, inline = 0, reindented = 0;
  for (const [i, l] of uLines.entries()) {
    if (!l.trim()) continue;
    if (isMarkerLine(l)) { markers++; continue; }
    if (eSet.has(l)) continue;
    if (eTrimSet.has(l.trim())) { reindented++; continue; }
    const frags = l.split(INLINE_MARKER).map((s) => s.trim()).filter(Boolean);
    if (frags.length && l.match(INLINE_MARKER) && frags.every((f) => expected.includes(f))) { inline++; continue; }
    problems.push(`update line ${i + 1} not in expected: ${l.trim()}`);
  }
  if (markers === 0 && inline === 0) notes.push('no-markers');
  if (inline) notes.push(`inline-markers=${inline}`);
  if (reindented) notes.push(`reindented-lines=${reindented}`);

  const { missing, added } = lcsMissing(oLines, eLines);
  const status = problems.length ? 'FAIL' : 'ok  ';
  if (problems.length) failures++;
  console.log(`${status} ${id.padEnd(36)} orig=${String(oLines.length).padStart(3)} exp=${String(eLines.length).padStart(3)} missing-from-expected=${String(missing.length).padStart(2)} added=${String(added).padStart(2)} markers=${markers}${notes.length ? ' [' + notes.join(', ') + ']' : ''}`);
  for (const p of problems) console.log(`     - ${p}`);
  if (VERBOSE) for (const i of missing) console.log(`     -${String(i + 1).padStart(4)}: ${oLines[i]}`);
}

const fmt = (o) => Object.entries(o).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, v]) => `${k}=${v}`).join(', ');
console.log('');
console.log(`cases: ${dirs.length}, failing: ${failures}, with instruction: ${withInstr}, CRLF: ${crlfCases}`);
console.log(`languages (${Object.keys(byLang).length}): ${fmt(byLang)}`);
console.log(`shapes (${Object.keys(byShape).length}): ${fmt(byShape)}`);
process.exitCode = failures ? 1 : 0;
