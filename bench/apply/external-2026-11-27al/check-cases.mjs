#!/usr/bin/env node
// Mechanical sanity checks for apply-engine test cases.
// Usage: node check-cases.mjs [dir]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER_RE = /(\.\.\.|…|\(unchanged\)|unchanged|existing code|rest of)/i;

let failures = 0;
let count = 0;

function fail(c, msg) {
  failures++;
  console.log(`FAIL ${c}: ${msg}`);
}

function eolStyle(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return "mixed";
  if (crlf) return "crlf";
  if (lf) return "lf";
  return "none";
}

function lineCount(text) {
  if (text.length === 0) return 0;
  const n = (text.match(/\n/g) || []).length;
  return text.endsWith("\n") ? n : n + 1;
}

function splitLines(text) {
  return text.replace(/^\uFEFF/, "").split(/\r?\n/);
}

for (const name of fs.readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!fs.statSync(dir).isDirectory()) continue;
  count++;
  const missing = FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) {
    fail(name, `missing ${missing.join(", ")}`);
    continue;
  }
  const extra = fs.readdirSync(dir).filter((f) => !FILES.includes(f));
  if (extra.length) fail(name, `unexpected files ${extra.join(", ")}`);

  const original = fs.readFileSync(path.join(dir, "original"), "utf8");
  const update = fs.readFileSync(path.join(dir, "update"), "utf8");
  const expected = fs.readFileSync(path.join(dir, "expected"), "utf8");

  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8"));
  } catch (e) {
    fail(name, `meta.json invalid: ${e.message}`);
    continue;
  }
  for (const k of ["lang", "shape", "instruction", "lines"]) {
    if (!(k in meta)) fail(name, `meta.json lacks ${k}`);
  }
  if (typeof meta.lang !== "string" || !meta.lang) fail(name, "lang must be a non-empty string");
  if (typeof meta.shape !== "string" || !meta.shape) fail(name, "shape must be a non-empty string");
  if (meta.instruction !== null && typeof meta.instruction !== "string") fail(name, "instruction must be string or null");
  const n = lineCount(original);
  if (meta.lines !== n) fail(name, `meta.lines=${meta.lines} but original has ${n}`);
  if (n < 30 || n > 400) fail(name, `original has ${n} lines (want 30..400)`);

  const eo = eolStyle(original), eu = eolStyle(update), ee = eolStyle(expected);
  if (eo === "mixed" || eu === "mixed" || ee === "mixed") fail(name, `mixed line endings (${eo}/${eu}/${ee})`);
  if (!(eo === ee && (eu === eo || eu === "none"))) fail(name, `line endings differ: original=${eo} update=${eu} expected=${ee}`);

  if (original.startsWith("\uFEFF") !== expected.startsWith("\uFEFF")) fail(name, "BOM differs between original and expected");

  if (original === expected) fail(name, "expected equals original");

  const origSet = new Set(splitLines(original).map((l) => l.trim()));
  const updSet = new Set(splitLines(update).map((l) => l.trim()));
  for (const line of splitLines(expected)) {
    const t = line.trim();
    if (t === "" || origSet.has(t)) continue;
    if (!updSet.has(t)) fail(name, `expected line not in original nor update: ${JSON.stringify(t)}`);
  }

  const hasMarker = splitLines(update).some((l) => {
    const t = l.trim();
    return /^(\/\/|#|\/\*|<!--|--|;|\*)?\s*(\.\.\.|…)/.test(t) || (/^(\/\/|#|\/\*|<!--|--|;)/.test(t) && MARKER_RE.test(t));
  });
  if (hasMarker && update === expected) fail(name, "update has markers but equals expected");
}

console.log(`${count} cases checked, ${failures} problem(s)`);
process.exit(failures ? 1 : 0);
