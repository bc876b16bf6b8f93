#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [case-dir ...]
// Exit code 1 if any case has a failure; warnings are printed but do not fail.

import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(fileURLToPath(import.meta.url));
const REQUIRED = ['original', 'update', 'expected', 'meta.json'];
const NAME_RE = /^[a-z0-9]+[0-9]{2}-[a-z0-9-]+$/;
const MARKER_RE = /(\.\.\.|…|\bunchanged\b|\bexisting\b|\brest of\b|\bsame as before\b)/i;

function lineEndingStyle(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length - crlf;
  const cr = (text.match(/\r(?!\n)/g) || []).length;
  if (cr > 0) return 'mixed';
  if (crlf && lf) return 'mixed';
  if (crlf) return 'crlf';
  if (lf) return 'lf';
  return 'none';
}

function stripBom(s) {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

function splitLines(text) {
  const t = text.replace(/\r\n/g, '\n');
  const parts = t.split('\n');
  if (parts.length && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

function countLines(text) {
  if (text.length === 0) return 0;
  const n = (text.match(/\n/g) || []).length;
  return text.endsWith('\n') ? n : n + 1;
}

function checkCase(dir) {
  const name = basename(dir);
  const fails = [];
  const warns = [];

  if (!NAME_RE.test(name)) warns.push(`directory name "${name}" does not look like <lang><NN>-<slug>`);

  const entries = readdirSync(dir).sort();
  for (const f of REQUIRED) if (!entries.includes(f)) fails.push(`missing file ${f}`);
  const extra = entries.filter((e) => !REQUIRED.includes(e));
  if (extra.length) fails.push(`unexpected files: ${extra.join(', ')}`);
  if (fails.length) return { name, fails, warns };

  const raw = {};
  for (const f of ['original', 'update', 'expected']) {
    const buf = readFileSync(join(dir, f));
    raw[f] = buf.toString('utf8');
    if (raw[f].includes('\uFFFD')) fails.push(`${f} is not valid UTF-8`);
    if (raw[f].length === 0) fails.push(`${f} is empty`);
  }

  let meta;
  try {
    meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
  } catch (e) {
    fails.push(`meta.json is not valid JSON: ${e.message}`);
    return { name, fails, warns };
  }
  if (typeof meta.lang !== 'string' || !meta.lang) fails.push('meta.lang must be a non-empty string');
  if (typeof meta.shape !== 'string' || !meta.shape) fails.push('meta.shape must be a non-empty string');
  if (!(meta.instruction === null || (typeof meta.instruction === 'string' && meta.instruction.trim())))
    fails.push('meta.instruction must be null or a non-empty string');
  if (!Number.isInteger(meta.lines)) fails.push('meta.lines must be an integer');
  const extraKeys = Object.keys(meta).filter((k) => !['lang', 'shape', 'instruction', 'lines'].includes(k));
  if (extraKeys.length) warns.push(`meta.json has extra keys: ${extraKeys.join(', ')}`);

  const orig = raw.original;
  const exp = raw.expected;
  const upd = raw.update;

  const actualLines = countLines(orig);
  if (Number.isInteger(meta.lines) && meta.lines !== actualLines)
    fails.push(`meta.lines is ${meta.lines} but original has ${actualLines} lines`);
  if (actualLines < 30 || actualLines > 400) fails.push(`original has ${actualLines} lines (want 30..400)`);

  // line endings
  const styles = {
    original: lineEndingStyle(orig),
    expected: lineEndingStyle(exp),
    update: lineEndingStyle(upd),
  };
  for (const [f, s] of Object.entries(styles)) if (s === 'mixed') fails.push(`${f} has mixed line endings`);
  if (styles.original !== styles.expected) fails.push(`line endings differ: original=${styles.original} expected=${styles.expected}`);
  if (styles.update !== 'none' && styles.update !== styles.original)
    fails.push(`line endings differ: original=${styles.original} update=${styles.update}`);

  // BOM
  const bomO = orig.charCodeAt(0) === 0xfeff;
  const bomE = exp.charCodeAt(0) === 0xfeff;
  if (bomO !== bomE) fails.push(`BOM differs between original (${bomO}) and expected (${bomE})`);

  // final newline (warning only: an edit can legitimately add or keep it)
  const nlO = /\n$/.test(orig);
  const nlE = /\n$/.test(exp);
  if (nlO !== nlE) warns.push(`final newline differs: original=${nlO} expected=${nlE}`);

  if (orig === exp) fails.push('expected is identical to original (no edit)');

  // no markdown fences around the update
  const updLines = splitLines(stripBom(upd));
  if (updLines.length && /^```/.test(updLines[0].trim())) fails.push('update starts with a markdown fence');
  if (updLines.length && /^```/.test(updLines[updLines.length - 1].trim()) && updLines.length > 1 &&
      /^```/.test(updLines[0].trim())) fails.push('update is wrapped in markdown fences');

  // every new line of expected should be visible in the update
  const origSet = new Set(splitLines(stripBom(orig)).map((l) => l.trim()));
  const updSet = new Set(updLines.map((l) => l.trim()));
  // update lines with inline elisions ("[a, ..., b]") match an expected line
  // that contains all their literal fragments in order
  const inlinePatterns = updLines
    .map((l) => l.trim())
    .filter((t) => /\S\s*(\.\.\.|…)\s*\S/.test(t))
    .map((t) => t.split(/\.\.\.|…/).map((x) => x.trim()).filter(Boolean));
  const matchesInline = (t) =>
    inlinePatterns.some((frags) => {
      let pos = 0;
      for (const f of frags) {
        const i = t.indexOf(f, pos);
        if (i < 0) return false;
        pos = i + f.length;
      }
      return frags.length > 1;
    });
  const missing = [];
  for (const l of splitLines(stripBom(exp))) {
    const t = l.trim();
    if (!t || origSet.has(t) || updSet.has(t) || matchesInline(t)) continue;
    missing.push(t);
  }
  if (missing.length) {
    const msg = `${missing.length} new line(s) of expected not found in update: ${missing.slice(0, 3).map((m) => JSON.stringify(m)).join(' | ')}`;
    if (meta.instruction) warns.push(msg + ' (instruction may explain)');
    else fails.push(msg);
  }

  // a snippet with markers must not simply be the expected file
  const hasMarker = updLines.some((l) => MARKER_RE.test(l) && !/^\s*\.\.\.[A-Za-z_]/.test(l));
  if (hasMarker && stripBom(upd).replace(/\r\n/g, '\n').replace(/\n$/, '') ===
      stripBom(exp).replace(/\r\n/g, '\n').replace(/\n$/, ''))
    fails.push('update has elision markers but is identical to expected');
  if (!hasMarker && updLines.length >= splitLines(stripBom(exp)).length)
    warns.push('update has no markers and is as long as expected (full-file rewrite?)');

  return { name, fails, warns };
}

const args = process.argv.slice(2);
const dirs = (args.length ? args : readdirSync(ROOT))
  .map((d) => (d.startsWith('/') ? d : join(ROOT, d)))
  .filter((d) => existsSync(d) && statSync(d).isDirectory() && !basename(d).startsWith('.'));

let failed = 0;
let warned = 0;
const langs = {};
const shapes = {};
for (const dir of dirs.sort()) {
  const { name, fails, warns } = checkCase(dir);
  try {
    const m = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8'));
    langs[m.lang] = (langs[m.lang] || 0) + 1;
    shapes[m.shape] = (shapes[m.shape] || 0) + 1;
  } catch {}
  if (fails.length) failed++;
  if (warns.length) warned++;
  for (const f of fails) console.log(`FAIL ${name}: ${f}`);
  for (const w of warns) console.log(`warn ${name}: ${w}`);
}
console.log(`\n${dirs.length} case(s), ${failed} failing, ${warned} with warnings`);
console.log(`languages (${Object.keys(langs).length}): ` +
  Object.entries(langs).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' '));
console.log(`shapes (${Object.keys(shapes).length}): ` +
  Object.entries(shapes).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' '));
process.exit(failed ? 1 : 0);
