#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs   (exit code 1 if any case fails)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
// Shapes where an update without any elision marker is a deliberate, realistic form.
const MARKERLESS_OK = new Set([
  "a full function with no markers",
  "re-indented snippet",
  "snippet missing its closing braces",
  "add a method to a class shown without the class",
  "anchor -> new code -> marker",
  "add error handling",
  "add logging",
  "repeated anchor lines",
  "CRLF files",
  "modify the middle of a long function",
  "delete a function",
]);
const MARKER_RE = /\.\.\.|…/;
const MARKER_WORDS_RE = /^\s*(\/\/|#|--|\/\*|<!--|\(\*|\{\/\*)[^\n]*(\b(unchanged|existing|as before|rest of|same change)\b|in <head>)/i;
const isMarker = (line) => MARKER_RE.test(line) || MARKER_WORDS_RE.test(line);

const stripBom = (s) => (s.charCodeAt(0) === 0xfeff ? s.slice(1) : s);
const eolKind = (s) => {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  return crlf && lf ? "mixed" : crlf ? "crlf" : "lf";
};
const countLines = (s) => {
  s = stripBom(s);
  if (s === "") return 0;
  const n = s.split("\n").length;
  return s.endsWith("\n") ? n - 1 : n;
};

const errors = [];
const byLang = new Map();
const byShape = new Map();
let n = 0, big = 0, crlfCount = 0, noEolCount = 0, bomCount = 0, instrCount = 0, markerless = 0;

const dirs = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();
for (const id of dirs) {
  const dir = path.join(root, id);
  const err = (m) => errors.push(`${id}: ${m}`);
  if (!/^[a-z0-9]+[0-9]{2}-[a-z0-9-]+$/.test(id)) err("id does not look like <lang><NN>-<slug>");
  const missing = FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) { err(`missing ${missing.join(", ")}`); continue; }
  const extra = fs.readdirSync(dir).filter((f) => !FILES.includes(f));
  if (extra.length) err(`unexpected files ${extra.join(", ")}`);
  n++;
  const original = fs.readFileSync(path.join(dir, "original"), "utf8");
  const update = fs.readFileSync(path.join(dir, "update"), "utf8");
  const expected = fs.readFileSync(path.join(dir, "expected"), "utf8");
  let meta;
  try { meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8")); }
  catch (e) { err(`meta.json invalid: ${e.message}`); continue; }
  const keys = Object.keys(meta).sort().join(",");
  if (keys !== "instruction,lang,lines,shape") err(`meta keys are ${keys}`);
  if (typeof meta.lang !== "string" || !meta.lang) err("meta.lang must be a non-empty string");
  if (typeof meta.shape !== "string" || !meta.shape) err("meta.shape must be a non-empty string");
  if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.trim()))) err("meta.instruction must be null or a non-empty string");
  if (meta.instruction) instrCount++;
  if (!Number.isInteger(meta.lines) || meta.lines !== countLines(original)) err(`meta.lines ${meta.lines} != ${countLines(original)}`);
  if (countLines(original) < 40 || countLines(original) > 500) err(`original has ${countLines(original)} lines (want 40..500)`);
  if (countLines(original) > 200) big++;
  if (expected === original) err("expected equals original");
  if (!update.trim()) err("update is empty");

  // line endings, final newline and BOM of expected follow the original
  const ek = eolKind(original), xk = eolKind(expected);
  if (ek === "mixed") err("original has mixed line endings");
  if (ek !== xk) err(`line endings differ: original ${ek}, expected ${xk}`);
  if (ek === "crlf") crlfCount++;
  const endsNl = (s) => s.endsWith("\n");
  if (endsNl(original) !== endsNl(expected)) err("final-newline state differs between original and expected");
  if (!endsNl(original)) noEolCount++;
  const hasBom = (s) => s.charCodeAt(0) === 0xfeff;
  if (hasBom(original) !== hasBom(expected)) err("BOM state differs between original and expected");
  if (hasBom(original)) bomCount++;
  if (hasBom(update)) err("update should not carry a BOM");

  // markers
  const uLines = stripBom(update).replace(/\r\n/g, "\n").split("\n");
  const hasMarker = uLines.some(isMarker);
  if (!hasMarker) {
    markerless++;
    if (!MARKERLESS_OK.has(meta.shape)) err(`update has no elision marker and shape "${meta.shape}" is not a marker-less shape`);
  }

  // every non-marker line of the update occurs in expected (whitespace-trimmed, to allow re-indented snippets)
  const xSet = new Set(stripBom(expected).replace(/\r\n/g, "\n").split("\n").map((l) => l.trim()));
  for (const l of uLines) {
    const t = l.trim();
    if (!t || isMarker(l)) continue;
    if (!xSet.has(t)) err(`update line not in expected: ${JSON.stringify(t).slice(0, 120)}`);
  }

  byLang.set(meta.lang, (byLang.get(meta.lang) || 0) + 1);
  byShape.set(meta.shape, (byShape.get(meta.shape) || 0) + 1);
}

const fmt = (m) => [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, v]) => `  ${String(v).padStart(3)}  ${k}`).join("\n");
console.log(`cases: ${n}  (over 200 lines: ${big}, CRLF: ${crlfCount}, no final newline: ${noEolCount}, BOM: ${bomCount}, with instruction: ${instrCount}, marker-less updates: ${markerless})`);
console.log(`languages (${byLang.size}):\n${fmt(byLang)}`);
console.log(`shapes (${byShape.size}):\n${fmt(byShape)}`);
if (n < 110) errors.push(`only ${n} cases (want >= 110)`);
if (byLang.size < 25) errors.push(`only ${byLang.size} languages (want >= 25)`);
if (errors.length) {
  console.error(`\n${errors.length} problem(s):\n` + errors.map((e) => "  - " + e).join("\n"));
  process.exit(1);
}
console.log("\nall checks passed");
