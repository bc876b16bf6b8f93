#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
// Shapes whose update may legitimately contain no elision marker at all.
const MARKERLESS_OK = new Set([
  "full function with no markers",
  "bugfix in one line",
  "add a method to a class shown without the class",
  "add a method (shown without surrounding type)",
  "add error handling",
  "add logging",
  "add tests",
  "add a field/struct member and its uses",
  "modify the middle of a long function",
  "re-indented snippet (written at column 0 for nested code)",
  "snippet missing its closing braces",
  "same function name in two classes where only one is edited",
  "inline marker inside a line",
  "config key added in nested TOML",
  "config key added in nested HCL",
  "config key added in nested YAML",
  "config key added in nested JSON",
  "repeated anchor lines",
  "add a route/handler",
  "multiple hunks",
]);

function isMarker(line) {
  const t = line.trim();
  if (t === "") return false;
  if (t.includes("...") || t.includes("\u2026")) return true;
  if (/\[rest unchanged\]/i.test(t)) return true;
  if (/^(\/\/|#|--|;|\/\*|<!--|\{\/\*|\(\*)/.test(t) && /(unchanged|existing)/i.test(t)) return true;
  return false;
}
function lineEnding(s) {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return "mixed";
  return crlf ? "crlf" : "lf";
}

const errors = [];
const byLang = {}, byShape = {};
let n = 0, crlfCount = 0, noFinalNl = 0, over200 = 0;
const dirs = fs.readdirSync(root).filter((d) => !d.startsWith(".") && fs.statSync(path.join(root, d)).isDirectory()).sort();
for (const id of dirs) {
  const dir = path.join(root, id);
  const err = (m) => errors.push(`${id}: ${m}`);
  const missing = FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) { err(`missing ${missing.join(", ")}`); continue; }
  n++;
  const original = fs.readFileSync(path.join(dir, "original"), "utf8");
  const update = fs.readFileSync(path.join(dir, "update"), "utf8");
  const expected = fs.readFileSync(path.join(dir, "expected"), "utf8");
  let meta;
  try { meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8")); }
  catch (e) { err(`meta.json invalid: ${e.message}`); continue; }
  if (typeof meta.lang !== "string" || !meta.lang) err("meta.lang missing");
  if (typeof meta.shape !== "string" || !meta.shape) err("meta.shape missing");
  if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.length))) err("meta.instruction must be string or null");
  const lines = original.split(/\r?\n/).length - (/\r?\n$/.test(original) ? 1 : 0);
  if (meta.lines !== lines) err(`meta.lines ${meta.lines} != ${lines}`);
  if (expected === original) err("expected equals original");
  if (!update.trim()) err("empty update");
  const upLines = update.split(/\r?\n/);
  const hasMarker = upLines.some(isMarker);
  if (!hasMarker && !MARKERLESS_OK.has(meta.shape)) err(`update has no marker but shape "${meta.shape}" is not a marker-less shape`);
  const expTrim = new Set(expected.split(/\r?\n/).map((l) => l.trim()));
  for (const l of upLines) {
    if (!l.trim() || isMarker(l)) continue;
    if (!expTrim.has(l.trim())) err(`update line not in expected: ${JSON.stringify(l)}`);
  }
  const eo = lineEnding(original), ee = lineEnding(expected);
  if (eo !== ee) err(`line endings differ: original ${eo}, expected ${ee}`);
  if (eo === "mixed") err("original has mixed line endings");
  const fo = /\n$/.test(original), fe = /\n$/.test(expected);
  if (fo !== fe) err(`final newline differs: original ${fo}, expected ${fe}`);
  if (eo === "crlf") crlfCount++;
  if (!fo) noFinalNl++;
  if (lines > 200) over200++;
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}
const sortObj = (o) => Object.entries(o).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
console.log(`cases: ${n}  languages: ${Object.keys(byLang).length}  shapes: ${Object.keys(byShape).length}`);
console.log(`crlf: ${crlfCount}  no final newline: ${noFinalNl}  over 200 lines: ${over200}`);
console.log("\nby language:");
for (const [k, v] of sortObj(byLang)) console.log(`  ${String(v).padStart(3)}  ${k}`);
console.log("\nby shape:");
for (const [k, v] of sortObj(byShape)) console.log(`  ${String(v).padStart(3)}  ${k}`);
if (errors.length) {
  console.log(`\n${errors.length} problem(s):`);
  for (const e of errors) console.log("  " + e);
  process.exit(1);
}
console.log("\nall checks passed");
