// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs   (exit code 1 on any failure)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const MARKERLESS = new Set([
  "full-function-no-markers",
  "one-line-bugfix",
  "add-method-no-class",
  "missing-closing-braces",
  "reindented-snippet",
]);
const MARKER_RE = /(\.\.\.|…|\b(existing|unchanged|rest of|remaining|omitted)\b)/i;
const COMMENT_START = /^(\/\/|#|--|\/\*|<!--|\{\/\*|\(\*|;|\.\.\.|…)/;

const failures = [];
const byLang = {};
const byShape = {};
let n = 0;
let big = 0;

function lineEndings(s) {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return "mixed";
  if (crlf) return "crlf";
  return "lf";
}
function isMarkerLine(line) {
  const t = line.trim();
  if (!t) return true;
  return MARKER_RE.test(t) && COMMENT_START.test(t);
}

for (const id of fs.readdirSync(root).sort()) {
  const dir = path.join(root, id);
  if (!fs.statSync(dir).isDirectory()) continue;
  n++;
  const fail = (msg) => failures.push(`${id}: ${msg}`);
  const files = {};
  for (const f of ["original", "update", "expected", "meta.json"]) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) { fail(`missing ${f}`); continue; }
    files[f] = fs.readFileSync(p, "utf8");
  }
  if (Object.keys(files).length < 4) continue;
  let meta;
  try { meta = JSON.parse(files["meta.json"]); } catch (e) { fail("meta.json invalid JSON"); continue; }
  if (typeof meta.lang !== "string" || !meta.lang) fail("meta.lang missing");
  if (typeof meta.shape !== "string" || !meta.shape) fail("meta.shape missing");
  if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.length > 0))) fail("meta.instruction must be null or non-empty string");
  const { original, update, expected } = files;
  const origLines = original.split("\n").length - (original.endsWith("\n") ? 1 : 0);
  if (meta.lines !== origLines) fail(`meta.lines ${meta.lines} != ${origLines}`);
  if (origLines < 40 || origLines > 500) fail(`original has ${origLines} lines (want 40..500)`);
  if (origLines > 200) big++;
  if (expected === original) fail("expected equals original");
  const hasMarker = update.split(/\r?\n/).some((l) => isMarkerLine(l) && l.trim() !== "");
  if (!hasMarker && !MARKERLESS.has(meta.shape) && !meta.instruction) {
    // A deliberate marker-less update (whole function / whole region) must appear verbatim,
    // as one contiguous block, in expected.
    const norm = (s) => s.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n").split("\n").map((l) => l.replace(/\s+$/, "")).join("\n");
    const block = norm(update).replace(/^\n+|\n+$/g, "");
    if (!norm(expected).includes(block)) fail(`marker-less update (shape ${meta.shape}) is not a contiguous block of expected`);
  }
  const expLines = new Set(expected.replace(/^\uFEFF/, "").split(/\r?\n/).map((l) => l.replace(/\s+$/, "")));
  const expTrimmed = new Set([...expLines].map((l) => l.trim()));
  for (const raw of update.split(/\r?\n/)) {
    const l = raw.replace(/\s+$/, "");
    if (isMarkerLine(l)) continue;
    if (!expLines.has(l) && !expTrimmed.has(l.trim())) fail(`update line not in expected: ${JSON.stringify(l)}`);
  }
  const le = lineEndings(original);
  if (le === "mixed") fail("original has mixed line endings");
  if (lineEndings(expected) !== le) fail(`expected line endings ${lineEndings(expected)} != original ${le}`);
  if (original.endsWith("\n") !== expected.endsWith("\n")) fail("final-newline state differs between original and expected");
  if (original.startsWith("\uFEFF") !== expected.startsWith("\uFEFF")) fail("BOM state differs");
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}

const fmt = (o) => Object.entries(o).sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${k}: ${v}`).join("\n");
console.log(`cases: ${n} (original > 200 lines: ${big})`);
console.log(`languages (${Object.keys(byLang).length}):\n${fmt(byLang)}`);
console.log(`shapes (${Object.keys(byShape).length}):\n${fmt(byShape)}`);
if (n < 120) failures.push(`only ${n} cases (want >= 120)`);
if (Object.keys(byLang).length < 25) failures.push(`only ${Object.keys(byLang).length} languages (want >= 25)`);
if (failures.length) {
  console.error(`\nFAIL (${failures.length}):\n` + failures.join("\n"));
  process.exit(1);
}
console.log("\nOK");
