#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs [dir]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
// Shapes where an update without any elision marker is deliberate: a whole
// function / small region rewritten, or a snippet that simply stops.
const MARKERLESS_SHAPES = new Set([
  "full-function-no-markers",
  "bugfix-one-line",
  "add-method-no-class",
  "snippet-missing-closing-braces",
  "delete-function-anchors",
  "reindented-snippet",
  "add-error-handling",
  "tabs",
]);
const SHAPES = new Set([
  "bugfix-one-line", "modify-middle-long-function", "anchor-new-code-marker",
  "add-method-no-class", "add-method-class-header", "add-import-and-use",
  "add-field-and-uses", "add-route", "add-tests", "add-logging", "add-error-handling",
  "rename-function-callers", "change-signature-callers", "delete-function-instruction",
  "delete-function-anchors", "multiple-hunks", "hunks-out-of-order", "repeated-anchor-lines",
  "reindented-snippet", "snippet-missing-closing-braces", "full-function-no-markers",
  "nested-config-key", "inline-markers", "crlf-file", "no-trailing-newline", "tabs", "bom",
  "edit-near-start", "edit-at-end", "same-name-two-classes", "varied-marker-wording",
]);

// A marker line elides code: it contains an ellipsis, or is a comment that says
// the code is unchanged / existing / omitted.
const ELLIPSIS = /\.\.\.|…/;
const COMMENT = /^\s*(\/\/|#|--|\/\*|\*|<!--|\{\/\*|;|%|\(\*)/;
const WORDS = /\b(existing|unchanged|rest of|remaining|omitted|same as before|same change)\b/i;
function isMarker(line) {
  if (ELLIPSIS.test(line)) return true;
  if (COMMENT.test(line) && WORDS.test(line)) return true;
  return false;
}

function eolKind(buf) {
  const s = buf.toString("utf8");
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return "mixed";
  return crlf ? "crlf" : "lf";
}

let failures = 0;
const byLang = {}, byShape = {};
let total = 0, over200 = 0, crlfCount = 0, noFinalNl = 0, bomCount = 0;
const dirs = fs.readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith(".") && !d.name.startsWith("_"))
  .map((d) => d.name).sort();

for (const id of dirs) {
  const dir = path.join(root, id);
  const errs = [];
  const need = ["original", "update", "expected", "meta.json"];
  const missing = need.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) {
    console.log(`FAIL ${id}: missing ${missing.join(", ")}`);
    failures++;
    continue;
  }
  total++;
  const orig = fs.readFileSync(path.join(dir, "original"));
  const upd = fs.readFileSync(path.join(dir, "update"));
  const exp = fs.readFileSync(path.join(dir, "expected"));
  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8"));
  } catch (e) {
    errs.push("meta.json is not valid JSON");
  }
  if (meta) {
    if (typeof meta.lang !== "string" || !meta.lang) errs.push("meta.lang missing");
    if (typeof meta.shape !== "string" || !SHAPES.has(meta.shape)) errs.push(`unknown shape ${meta.shape}`);
    if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.length)))
      errs.push("meta.instruction must be null or a non-empty string");
    const origText = orig.toString("utf8");
    const nLines = origText.split("\n").length - (origText.endsWith("\n") ? 1 : 0);
    if (meta.lines !== nLines) errs.push(`meta.lines ${meta.lines} != ${nLines}`);
    if (nLines < 40 || nLines > 500) errs.push(`original has ${nLines} lines (want 40..500)`);
    if (nLines > 200) over200++;
    byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
    byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
  }
  if (Buffer.compare(orig, exp) === 0) errs.push("expected == original");
  // line endings / final newline / BOM of expected must match the original
  const eo = eolKind(orig), ee = eolKind(exp);
  if (eo !== ee) errs.push(`line endings differ: original ${eo}, expected ${ee}`);
  if (eo === "crlf") crlfCount++;
  const finalO = orig.length && orig[orig.length - 1] === 0x0a;
  const finalE = exp.length && exp[exp.length - 1] === 0x0a;
  if (finalO !== finalE) errs.push("final-newline state differs");
  if (!finalO) noFinalNl++;
  const bomO = orig.slice(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
  const bomE = exp.slice(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]));
  if (bomO !== bomE) errs.push("BOM state differs");
  if (bomO) bomCount++;
  // update: markers, and every non-marker line appears in expected (trimmed)
  const updLines = upd.toString("utf8").replace(/^\uFEFF/, "").split(/\r?\n/);
  const hasMarker = updLines.some(isMarker);
  if (!hasMarker && meta && !MARKERLESS_SHAPES.has(meta.shape))
    errs.push(`update has no marker and shape ${meta.shape} is not a marker-less shape`);
  const expSet = new Set(exp.toString("utf8").replace(/^\uFEFF/, "").split(/\r?\n/).map((l) => l.trim()));
  for (const l of updLines) {
    if (!l.trim() || isMarker(l)) continue;
    if (!expSet.has(l.trim())) errs.push(`update line not in expected: ${JSON.stringify(l)}`);
  }
  if (errs.length) {
    failures++;
    console.log(`FAIL ${id}:\n  - ${errs.join("\n  - ")}`);
  }
}

const fmt = (o) => Object.entries(o).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(" ");
console.log(`\ncases: ${total}  languages: ${Object.keys(byLang).length}  shapes: ${Object.keys(byShape).length}`);
console.log(`>200 lines: ${over200}  crlf: ${crlfCount}  no final newline: ${noFinalNl}  bom: ${bomCount}`);
console.log(`by language: ${fmt(byLang)}`);
console.log(`by shape: ${fmt(byShape)}`);
if (total < 100) { console.log("FAIL: fewer than 100 cases"); failures++; }
if (Object.keys(byLang).length < 25) { console.log("FAIL: fewer than 25 languages"); failures++; }
if (failures) { console.log(`\n${failures} failure(s)`); process.exit(1); }
console.log("\nall checks passed");
