#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [dir]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER = /(\.\.\.|…|existing code|unchanged|rest of|stays the same)/i;
let problems = 0;
let cases = 0;

function fail(name, msg) {
  problems++;
  console.log(`FAIL ${name}: ${msg}`);
}

function countLines(text) {
  if (text.length === 0) return 0;
  const n = (text.match(/\n/g) || []).length;
  return text.endsWith("\n") ? n : n + 1;
}

function eolStyle(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return "mixed";
  if (crlf) return "crlf";
  if (lf) return "lf";
  return "none";
}

function stripBom(t) {
  return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
}

for (const name of fs.readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!fs.statSync(dir).isDirectory()) continue;
  cases++;
  const missing = FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) {
    fail(name, `missing ${missing.join(", ")}`);
    continue;
  }
  const extra = fs.readdirSync(dir).filter((f) => !FILES.includes(f));
  if (extra.length) fail(name, `extra files: ${extra.join(", ")}`);

  const read = (f) => fs.readFileSync(path.join(dir, f), "utf8");
  const original = read("original");
  const update = read("update");
  const expected = read("expected");

  let meta;
  try {
    meta = JSON.parse(read("meta.json"));
  } catch (e) {
    fail(name, `meta.json invalid: ${e.message}`);
    continue;
  }
  for (const key of ["lang", "shape", "instruction", "lines"]) {
    if (!(key in meta)) fail(name, `meta.json lacks ${key}`);
  }
  if (typeof meta.lang !== "string" || !meta.lang) fail(name, "lang must be a non-empty string");
  if (typeof meta.shape !== "string" || !meta.shape) fail(name, "shape must be a non-empty string");
  if (meta.instruction !== null && typeof meta.instruction !== "string") fail(name, "instruction must be string or null");
  const n = countLines(original);
  if (meta.lines !== n) fail(name, `meta.lines=${meta.lines} but original has ${n} lines`);
  if (n < 30 || n > 400) fail(name, `original has ${n} lines (want 30..400)`);

  const styles = new Set([original, update, expected].map(eolStyle).filter((s) => s !== "none"));
  if (styles.has("mixed")) fail(name, "mixed line endings inside a file");
  if (styles.size > 1) fail(name, `line endings differ between files: ${[...styles].join(", ")}`);

  if (original === expected) fail(name, "expected is identical to original");

  const splitLines = (t) => stripBom(t).split(/\r?\n/);
  const origSet = new Set(splitLines(original).map((l) => l.trim()));
  const updSet = new Set(splitLines(update).map((l) => l.trim()));
  for (const line of splitLines(expected)) {
    const t = line.trim();
    if (t === "" || origSet.has(t)) continue;
    if (!updSet.has(t)) fail(name, `expected line not in original nor update: ${JSON.stringify(t)}`);
  }

  const hasMarker = splitLines(update).some((l) => {
    const t = l.trim();
    return MARKER.test(t) && /^(\/\/|#|--|;|\/\*|<!--|\{\/\*|\(\*)/.test(t) || t === "...";
  });
  if (hasMarker && stripBom(update) === stripBom(expected)) fail(name, "update has markers but equals expected");
  if (stripBom(update).trim() === "") fail(name, "update is empty");
}

console.log(`${cases} cases checked, ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
