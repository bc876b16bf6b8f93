#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs   (exit code 1 when any case fails)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
// Shapes where a model commonly answers with plain code and no elision marker.
const MARKERLESS_OK = new Set([
  "a full function with no markers",
  "bugfix in one line",
  "change a signature and callers",
  "snippet missing its closing braces",
  "add a method to a class shown without the class (or with the class header and markers)",
  "repeated anchor lines",
  "delete a function (by instruction, or by anchors)",
  "add tests",
  "same function name in two classes where only one is edited",
]);

// Cases whose update is deliberately a plain region of code with no marker
// (a model answering with just the rewritten function or switch arm).
const MARKERLESS_CASES = new Set([
  "go01-add-error-handling",
  "ts05-long-function-middle",
]);

// A line that is only an elision marker, in any comment syntax.
const MARKER_LINE = /^\s*(?:\/\/|#|--|;|\/\*|\{\/\*|<!--|\*)?\s*(?:\(|\[)?\s*(?:\.\.\.|…)[^\n]*$|^\s*(?:\/\/|#|--|\/\*|\{\/\*|<!--)\s*(?:\.\.\.|…|\()?.*(?:existing|unchanged|rest of|as before|same as|no changes|remaining|other imports|other usings|fields and constructor)[^\n]*$/i;
// Inline markers inside a line: /* ... */, ..., …
const INLINE_MARKER = /\/\*\s*(?:\.\.\.|…)[^*]*\*\/\s*,?|(?<![.\w"'])(?:\.\.\.|…)(?![.\w"'])\s*,?/g;

function lineEndings(buf) {
  const s = buf.toString("utf8");
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  return crlf && lf ? "mixed" : crlf ? "crlf" : lf ? "lf" : "none";
}

const dirs = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();
const byLang = {}, byShape = {};
let failures = 0, warnings = 0;
const fail = (id, msg) => { failures++; console.log(`FAIL ${id}: ${msg}`); };
const warn = (id, msg) => { warnings++; console.log(`warn ${id}: ${msg}`); };

for (const id of dirs) {
  const dir = path.join(root, id);
  const missing = FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) { fail(id, `missing ${missing.join(", ")}`); continue; }
  let meta;
  try { meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8")); }
  catch (e) { fail(id, `meta.json invalid: ${e.message}`); continue; }
  if (typeof meta.lang !== "string" || !meta.lang) fail(id, "meta.lang missing");
  if (typeof meta.shape !== "string" || !meta.shape) fail(id, "meta.shape missing");
  if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.length))) fail(id, "meta.instruction must be null or a non-empty string");
  if (!Number.isInteger(meta.lines)) fail(id, "meta.lines must be an integer");

  const oBuf = fs.readFileSync(path.join(dir, "original"));
  const eBuf = fs.readFileSync(path.join(dir, "expected"));
  const uText = fs.readFileSync(path.join(dir, "update"), "utf8");
  const o = oBuf.toString("utf8"), e = eBuf.toString("utf8");
  if (oBuf.equals(eBuf)) fail(id, "expected equals original");
  const oLines = o.split(/\r?\n/); if (o.endsWith("\n")) oLines.pop();
  if (meta.lines !== oLines.length) fail(id, `meta.lines ${meta.lines} != original ${oLines.length}`);
  if (oLines.length < 40 || oLines.length > 400) warn(id, `original has ${oLines.length} lines`);
  if (lineEndings(oBuf) !== lineEndings(eBuf)) fail(id, `line endings differ: original ${lineEndings(oBuf)}, expected ${lineEndings(eBuf)}`);
  if (o.endsWith("\n") !== e.endsWith("\n")) fail(id, "final-newline state differs");
  const bom = (b) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  if (bom(oBuf) !== bom(eBuf)) fail(id, "BOM state differs");

  const uLines = uText.replace(/^\uFEFF/, "").split(/\r?\n/);
  const hasMarker = uLines.some((l) => MARKER_LINE.test(l)) || uLines.some((l) => (l.match(INLINE_MARKER) || []).length > 0);
  if (!hasMarker && !MARKERLESS_OK.has(meta.shape) && !MARKERLESS_CASES.has(id)) fail(id, "update has no marker and shape is not a marker-less shape");

  const eTrimmed = new Set(e.replace(/^\uFEFF/, "").split(/\r?\n/).map((l) => l.trim()));
  const eFlat = e.replace(/\s+/g, " ");
  for (const line of uLines) {
    const t = line.trim();
    if (!t || MARKER_LINE.test(line)) continue;
    if (eTrimmed.has(t)) continue;
    // Inline markers: every fragment around the marker must occur in expected.
    const parts = t.split(INLINE_MARKER).map((p) => p.trim().replace(/^,|,$/g, "").trim()).filter(Boolean);
    if (parts.length > 1 || parts[0] !== t) {
      const bad = parts.filter((p) => !eFlat.includes(p));
      if (!bad.length) continue;
    }
    fail(id, `update line not in expected: ${JSON.stringify(t)}`);
  }
  // Every expected line must come from the original or the update (no invented lines).
  const known = new Set([...o.split(/\r?\n/), ...uLines].map((l) => l.trim()));
  const inlineUpd = uLines
    .filter((l) => (l.match(INLINE_MARKER) || []).length)
    .map((l) => l.trim().split(INLINE_MARKER).map((p) => p.trim().replace(/^,|,$/g, "").trim()).filter(Boolean));
  for (const l of e.replace(/^\uFEFF/, "").split(/\r?\n/)) {
    if (known.has(l.trim())) continue;
    if (inlineUpd.some((parts) => parts.every((p) => l.includes(p)))) continue;
    if (!known.has(l.trim())) fail(id, `expected line from neither original nor update: ${JSON.stringify(l.trim())}`);
  }
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}

console.log(`\n${dirs.length} cases, ${failures} failures, ${warnings} warnings`);
console.log("\nBy language:");
for (const [k, v] of Object.entries(byLang).sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(3)}  ${k}`);
console.log("\nBy shape:");
for (const [k, v] of Object.entries(byShape).sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(3)}  ${k}`);
process.exit(failures ? 1 : 0);
