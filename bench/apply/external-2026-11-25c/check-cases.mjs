#!/usr/bin/env node
// Mechanical sanity checks for the held-out apply cases in this directory.
// Usage: node check-cases.mjs [-v] [case-id ...]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const verbose = args.includes("-v");
const only = args.filter((a) => !a.startsWith("-"));
const FILES = ["original", "update", "expected", "meta.json"];

const COMMENT_PREFIX = /^\s*(\/\/|#|\/\*|\*|--|<!--|\{\/\*|;|%)/;
const ELLIPSIS = /(\.\.\.|…)/;
const INLINE_MARKER = /(\/\*\s*(\.\.\.|…)[^*]*\*\/|\[\s*(\.\.\.|…)\s*,|\(\s*(\.\.\.|…)\s*,|,\s*(\.\.\.|…)\s*[\])]|<!--\s*(\.\.\.|…))/;

function isMarkerLine(line) {
  return (COMMENT_PREFIX.test(line) && ELLIPSIS.test(line)) || INLINE_MARKER.test(line);
}

function splitLines(text) {
  const lines = text.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function countLines(text) {
  return splitLines(text).length;
}

const dirs = fs
  .readdirSync(ROOT, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith("."))
  .map((d) => d.name)
  .filter((n) => only.length === 0 || only.includes(n))
  .sort();

let failed = 0;
const byLang = {};
const byShape = {};
let withInstruction = 0;
let crlfCases = 0;
let noTrailingNewline = 0;

for (const id of dirs) {
  const dir = path.join(ROOT, id);
  const problems = [];
  const present = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!present.includes(f)) problems.push(`missing file ${f}`);
  for (const f of present) if (!FILES.includes(f)) problems.push(`unexpected file ${f}`);
  if (problems.length) {
    failed++;
    console.log(`FAIL ${id}: ${problems.join("; ")}`);
    continue;
  }
  const original = fs.readFileSync(path.join(dir, "original"), "utf8");
  const update = fs.readFileSync(path.join(dir, "update"), "utf8");
  const expected = fs.readFileSync(path.join(dir, "expected"), "utf8");

  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8"));
  } catch (e) {
    problems.push(`meta.json does not parse: ${e.message}`);
  }
  if (meta) {
    for (const k of ["lang", "shape", "instruction", "lines"]) {
      if (!(k in meta)) problems.push(`meta.json lacks ${k}`);
    }
    if (meta.instruction !== null && typeof meta.instruction !== "string") problems.push("instruction must be string or null");
    const n = countLines(original);
    if (meta.lines !== n) problems.push(`meta.lines=${meta.lines} but original has ${n} lines`);
    if (n < 40 || n > 300) problems.push(`original has ${n} lines (want 40-300)`);
    byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
    byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
    if (meta.instruction) withInstruction++;
  }

  if (original === expected) problems.push("expected is identical to original");

  // CRLF handling
  const origCRLF = original.includes("\r\n");
  if (origCRLF) {
    crlfCases++;
    for (const [name, text] of [["original", original], ["expected", expected]]) {
      if (/(^|[^\r])\n/.test(text)) problems.push(`${name} mixes LF into a CRLF file`);
    }
  } else {
    for (const [name, text] of [["original", original], ["expected", expected]]) {
      if (text.includes("\r")) problems.push(`${name} contains CR in an LF file`);
    }
  }

  // trailing newline convention
  const endsNL = (t) => t.endsWith("\n");
  if (endsNL(original) !== endsNL(expected)) problems.push("trailing-newline convention differs between original and expected");
  if (!endsNL(original)) noTrailingNewline++;

  // every non-marker, non-blank update line appears in expected (trimmed comparison)
  const expLines = splitLines(expected);
  const expTrimmed = new Set(expLines.map((l) => l.trim()));
  for (const line of splitLines(update)) {
    if (line.trim() === "" || isMarkerLine(line)) continue;
    if (!expTrimmed.has(line.trim())) problems.push(`update line not in expected: ${JSON.stringify(line)}`);
  }

  // expected must not contain marker comments that the original did not have
  const origSet = new Set(splitLines(original).map((l) => l.trim()));
  for (const line of expLines) {
    if (isMarkerLine(line) && !origSet.has(line.trim())) problems.push(`expected contains a marker: ${JSON.stringify(line)}`);
  }

  if (problems.length) {
    failed++;
    console.log(`FAIL ${id}`);
    for (const p of problems) console.log(`    ${p}`);
  } else if (verbose) {
    console.log(`ok   ${id}`);
  }

  if (verbose) {
    // original lines missing from expected (multiset difference)
    const counts = new Map();
    for (const l of expLines) counts.set(l, (counts.get(l) || 0) + 1);
    const missing = [];
    for (const l of splitLines(original)) {
      const c = counts.get(l) || 0;
      if (c > 0) counts.set(l, c - 1);
      else missing.push(l);
    }
    if (missing.length) {
      console.log(`     original lines missing from expected (${missing.length}):`);
      for (const l of missing) console.log(`       - ${l}`);
    }
  }
}

const fmt = (o) =>
  Object.entries(o)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");

console.log("");
console.log(`cases: ${dirs.length}, passed: ${dirs.length - failed}, failed: ${failed}`);
console.log(`languages (${Object.keys(byLang).length}): ${fmt(byLang)}`);
console.log(`shapes (${Object.keys(byShape).length}): ${fmt(byShape)}`);
console.log(`with instruction: ${withInstruction}, null instruction: ${dirs.length - withInstruction}`);
console.log(`CRLF cases: ${crlfCases}, no trailing newline: ${noTrailingNewline}`);
process.exit(failed ? 1 : 0);
