#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine held-out cases of one set (file names, meta.json, line
// counts, line endings, BOM, expected's new lines coming from the update). The writers of sets ay-bs
// ran this checker on their own folder; it is kept once here rather than in each set.
// Usage: node bench/apply/check-cases.mjs <set dir>
import fs from 'node:fs';
import path from 'node:path';

const root = process.argv[2];
if (!root) {
  console.error('usage: node bench/apply/check-cases.mjs <set dir>');
  process.exit(2);
}
const REQUIRED = ['original', 'update', 'expected', 'meta.json'];
const MARKER = /^(\/\/|#|\/\*|<!--|--|;|\*)?\s*(\.\.\.|…|\(unchanged\)|.*\b(existing|unchanged|rest of|stays the same|same as before)\b.*)/i;

let problems = 0;
let cases = 0;
const fail = (c, msg) => { problems++; console.log(`FAIL ${c}: ${msg}`); };

function lineCount(buf) {
  if (buf.length === 0) return 0;
  let n = 0;
  for (const b of buf) if (b === 0x0a) n++;
  return buf[buf.length - 1] === 0x0a ? n : n + 1;
}

function eolKind(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  if (crlf) return 'crlf';
  if (lf) return 'lf';
  return 'none';
}

// An update line with an inline elision (`[a, /* ... */, c]`) covers an expected line
// when the pieces around the marker occur in the expected line in order.
const INLINE = /\/\*\s*(\.\.\.|…)\s*\*\/,?\s*|\/\/\s*(\.\.\.|…)|(^|\s)(\.\.\.|…)(?=\s|$)/;
function inlineMarkerMatch(line, update) {
  for (const raw of update.split(/\r?\n/)) {
    const u = raw.trim();
    if (!INLINE.test(u)) continue;
    const pieces = u.split(INLINE).filter((p) => typeof p === 'string' && p.trim() && !/^(\.\.\.|…)$/.test(p.trim()));
    if (pieces.length < 2) continue;
    let at = 0;
    let ok = true;
    for (const p of pieces) {
      const i = line.indexOf(p.trim(), at);
      if (i < 0) { ok = false; break; }
      at = i + p.trim().length;
    }
    if (ok) return true;
  }
  return false;
}

const splitLines = (t) => t.replace(/^\uFEFF/, '').split(/\r?\n/);

for (const name of fs.readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!fs.statSync(dir).isDirectory() || name.startsWith('.')) continue;
  cases++;
  const entries = fs.readdirSync(dir).sort();
  for (const f of REQUIRED) if (!entries.includes(f)) fail(name, `missing ${f}`);
  const extra = entries.filter((e) => !REQUIRED.includes(e));
  if (extra.length) fail(name, `unexpected files: ${extra.join(', ')}`);
  if (!REQUIRED.every((f) => entries.includes(f))) continue;

  const orig = fs.readFileSync(path.join(dir, 'original'));
  const upd = fs.readFileSync(path.join(dir, 'update'));
  const exp = fs.readFileSync(path.join(dir, 'expected'));
  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  } catch (e) {
    fail(name, `meta.json invalid: ${e.message}`);
    continue;
  }
  for (const k of ['lang', 'shape']) if (typeof meta[k] !== 'string' || !meta[k]) fail(name, `meta.${k} missing`);
  if (!('instruction' in meta) || !(meta.instruction === null || typeof meta.instruction === 'string')) fail(name, 'meta.instruction must be string or null');
  const n = lineCount(orig);
  if (meta.lines !== n) fail(name, `meta.lines=${meta.lines} but original has ${n}`);
  if (n < 30 || n > 400) fail(name, `original has ${n} lines (want 30..400)`);

  const o = orig.toString('utf8'), u = upd.toString('utf8'), e = exp.toString('utf8');
  const kinds = [eolKind(o), eolKind(u), eolKind(e)];
  if (kinds.includes('mixed')) fail(name, `mixed line endings: ${kinds}`);
  if (new Set(kinds.filter((k) => k !== 'none')).size > 1) fail(name, `inconsistent line endings: original=${kinds[0]} update=${kinds[1]} expected=${kinds[2]}`);
  if (o.startsWith('\uFEFF') !== e.startsWith('\uFEFF')) fail(name, 'BOM differs between original and expected');
  if (o === e) fail(name, 'expected is identical to original');
  {
    const nonEmpty = splitLines(u).filter((l) => l.trim() !== '');
    if (nonEmpty.length && (/^```/.test(nonEmpty[0]) || /^```\s*$/.test(nonEmpty[nonEmpty.length - 1])) && !/^```/.test(splitLines(e).find((l) => l.trim() !== '') || '')) {
      fail(name, 'update looks wrapped in markdown fences');
    }
  }

  const origSet = new Set(splitLines(o).map((l) => l.trim()));
  const updSet = new Set(splitLines(u).map((l) => l.trim()));
  for (const line of splitLines(e)) {
    const t = line.trim();
    if (t && !origSet.has(t) && !updSet.has(t) && !inlineMarkerMatch(t, u)) fail(name, `new line in expected not found in update: ${JSON.stringify(t)}`);
  }

  const expSet = new Set(splitLines(e).map((l) => l.trim()));
  const hasMarker = splitLines(u).some((l) => {
    const t = l.trim();
    return t && !expSet.has(t) && MARKER.test(t);
  });
  if (hasMarker && u === e) fail(name, 'update has markers but equals expected');
}

console.log(`${cases} case(s) checked, ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
