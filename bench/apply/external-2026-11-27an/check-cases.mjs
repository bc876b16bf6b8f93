#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [caseDir ...]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER_RE = /(\.\.\.|…|\bunchanged\b|\bexisting\b|\brest of\b)/i;

function lineCount(text) {
  if (text === "") return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

function eolStyle(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length;
  if (lf === 0) return "none";
  if (crlf === lf) return "crlf";
  if (crlf === 0) return "lf";
  return "mixed";
}

function splitLines(text) {
  return text.replace(/^\uFEFF/, "").split(/\r?\n/);
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// Turn an update line with an inline elision marker into a regex that lets the
// marker stand for any text.
function inlinePattern(line) {
  const marker = /\/\*\s*(?:\.\.\.|…)\s*\*\/|--\[\[\s*(?:\.\.\.|…)\s*\]\]|<!--\s*(?:\.\.\.|…)\s*-->|\.\.\.|…/;
  if (!marker.test(line)) return null;
  const pieces = line.split(new RegExp(marker.source, "g"));
  return new RegExp("^" + pieces.map(escapeRe).join(".*") + "$");
}

function checkCase(dir) {
  const problems = [];
  const name = path.basename(dir);
  for (const f of FILES) {
    if (!fs.existsSync(path.join(dir, f))) problems.push(`missing ${f}`);
  }
  const extra = fs.readdirSync(dir).filter((f) => !FILES.includes(f));
  if (extra.length) problems.push(`unexpected files: ${extra.join(", ")}`);
  if (problems.length) return problems;

  const read = (f) => fs.readFileSync(path.join(dir, f), "utf8");
  const original = read("original");
  const update = read("update");
  const expected = read("expected");

  let meta;
  try {
    meta = JSON.parse(read("meta.json"));
  } catch (e) {
    return [`meta.json is not valid JSON: ${e.message}`];
  }
  if (typeof meta.lang !== "string" || !meta.lang) problems.push("meta.lang must be a non-empty string");
  if (typeof meta.shape !== "string" || !meta.shape) problems.push("meta.shape must be a non-empty string");
  if (!(meta.instruction === null || typeof meta.instruction === "string")) {
    problems.push("meta.instruction must be a string or null");
  }
  if (!Number.isInteger(meta.lines)) problems.push("meta.lines must be an integer");
  const n = lineCount(original);
  if (meta.lines !== n) problems.push(`meta.lines is ${meta.lines} but original has ${n} lines`);
  if (n < 30 || n > 400) problems.push(`original has ${n} lines (want 30..400)`);
  if (!/^[a-z]+[0-9]{2}-[a-z0-9-]+$/.test(name)) problems.push(`bad case directory name: ${name}`);

  const styles = { original: eolStyle(original), update: eolStyle(update), expected: eolStyle(expected) };
  for (const [f, s] of Object.entries(styles)) {
    if (s === "mixed") problems.push(`${f} mixes CRLF and LF line endings`);
  }
  const set = new Set(Object.values(styles).filter((s) => s !== "none"));
  if (set.size > 1) problems.push(`line endings differ: ${JSON.stringify(styles)}`);

  const bomO = original.startsWith("\uFEFF");
  const bomE = expected.startsWith("\uFEFF");
  if (bomO !== bomE) problems.push("BOM present in only one of original/expected");

  if (original === expected) problems.push("expected is identical to original");

  const origSet = new Set(splitLines(original).map((l) => l.trim()));
  const updLines = splitLines(update).map((l) => l.trim());
  const updSet = new Set(updLines);
  const patterns = updLines.map(inlinePattern).filter(Boolean);
  for (const [i, raw] of splitLines(expected).entries()) {
    const line = raw.trim();
    if (line === "" || origSet.has(line) || updSet.has(line)) continue;
    if (patterns.some((re) => re.test(line))) continue;
    problems.push(`expected line ${i + 1} is in neither original nor update: ${JSON.stringify(line)}`);
  }

  const hasMarker = updLines.some((l) => MARKER_RE.test(l));
  if (hasMarker && update === expected) problems.push("update has markers but is identical to expected");

  return problems;
}

const args = process.argv.slice(2);
const dirs = (args.length ? args.map((a) => path.resolve(a)) : fs
  .readdirSync(root)
  .map((d) => path.join(root, d))
  .filter((d) => fs.statSync(d).isDirectory()))
  .sort();

let failed = 0;
for (const dir of dirs) {
  const problems = checkCase(dir);
  if (problems.length) {
    failed++;
    console.log(`FAIL ${path.basename(dir)}`);
    for (const p of problems) console.log(`  - ${p}`);
  } else {
    console.log(`ok   ${path.basename(dir)}`);
  }
}
console.log(`\n${dirs.length - failed}/${dirs.length} cases passed`);
process.exit(failed ? 1 : 0);
