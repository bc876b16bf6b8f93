#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs [caseDir ...]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER = /(\.\.\.|…|\(unchanged\)|unchanged|existing code|rest of)/i;

function eol(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return "mixed";
  if (crlf) return "crlf";
  if (lf) return "lf";
  return "none";
}

function lineCount(text) {
  if (text.length === 0) return 0;
  const n = text.split("\n").length;
  return text.endsWith("\n") ? n - 1 : n;
}

function stripBom(t) {
  return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
}

const dirs = process.argv.length > 2
  ? process.argv.slice(2).map((d) => path.resolve(d))
  : fs.readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(root, e.name))
      .sort();

let failures = 0;
const langs = {};
const shapes = {};
let withInstr = 0, crlfCases = 0, noEol = 0, bom = 0, long = 0;

for (const dir of dirs) {
  const name = path.basename(dir);
  const problems = [];
  const present = fs.readdirSync(dir);
  for (const f of FILES) if (!present.includes(f)) problems.push(`missing ${f}`);
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) problems.push(`unexpected files: ${extra.join(", ")}`);
  if (problems.length) { report(name, problems); continue; }

  const read = (f) => fs.readFileSync(path.join(dir, f), "utf8");
  const original = read("original");
  const update = read("update");
  const expected = read("expected");

  let meta;
  try {
    meta = JSON.parse(read("meta.json"));
  } catch (e) {
    problems.push(`meta.json invalid: ${e.message}`);
  }
  if (meta) {
    for (const k of ["lang", "shape", "instruction", "lines"]) {
      if (!(k in meta)) problems.push(`meta.json lacks ${k}`);
    }
    if (typeof meta.lang !== "string" || !meta.lang) problems.push("meta.lang must be a non-empty string");
    if (typeof meta.shape !== "string" || !meta.shape) problems.push("meta.shape must be a non-empty string");
    if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.trim())))
      problems.push("meta.instruction must be null or a non-empty string");
    const n = lineCount(stripBom(original));
    if (meta.lines !== n) problems.push(`meta.lines=${meta.lines} but original has ${n} lines`);
    if (n < 30 || n > 400) problems.push(`original has ${n} lines (want 30..400)`);
    langs[meta.lang] = (langs[meta.lang] || 0) + 1;
    shapes[meta.shape] = (shapes[meta.shape] || 0) + 1;
    if (meta.instruction) withInstr++;
    if (n > 150) long++;
  }

  const eo = eol(original), eu = eol(update), ee = eol(expected);
  if (eo === "mixed" || eu === "mixed" || ee === "mixed") problems.push(`mixed line endings (o=${eo} u=${eu} e=${ee})`);
  if (new Set([eo, eu, ee].filter((x) => x !== "none")).size > 1) problems.push(`line endings differ (o=${eo} u=${eu} e=${ee})`);
  if (eo === "crlf") crlfCases++;
  if (!original.endsWith("\n")) noEol++;
  if (original.charCodeAt(0) === 0xfeff) bom++;
  if ((original.charCodeAt(0) === 0xfeff) !== (expected.charCodeAt(0) === 0xfeff))
    problems.push("BOM present in only one of original/expected");
  if (original.endsWith("\n") !== expected.endsWith("\n"))
    problems.push("final newline differs between original and expected");
  if (original === expected) problems.push("expected is identical to original");

  const origLines = new Set(stripBom(original).split(/\r?\n/));
  const updTrim = new Set(stripBom(update).split(/\r?\n/).map((l) => l.trim()));
  const missing = [];
  for (const line of stripBom(expected).split(/\r?\n/)) {
    if (origLines.has(line)) continue;
    if (!updTrim.has(line.trim())) missing.push(line);
  }
  // Lines whose new content is given through an inline marker (e.g. `[a, /* ... */ c]`)
  // are accepted when some update line matches them with the marker standing for any text.
  const inlinePatterns = stripBom(update).split(/\r?\n/)
    .filter((l) => /\/\*\s*(\.\.\.|…)\s*\*\/|\.\.\.|…/.test(l))
    .map((l) => new RegExp("^" + l.trim()
      .split(/\/\*\s*(?:\.\.\.|…)\s*\*\/|\.\.\.|…/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*") + "$"));
  for (let i = missing.length - 1; i >= 0; i--) {
    if (inlinePatterns.some((re) => re.test(missing[i].trim()))) missing.splice(i, 1);
  }
  if (missing.length) problems.push(`expected lines in neither original nor update:\n      ${missing.join("\n      ")}`);

  const hasMarker = stripBom(update).split(/\r?\n/).some((l) => MARKER.test(l) && !origLines.has(l) && !stripBom(expected).split(/\r?\n/).includes(l));
  if (hasMarker && update === expected) problems.push("update has markers but equals expected");

  if (problems.length) report(name, problems);
}

function report(name, problems) {
  failures++;
  console.log(`FAIL ${name}`);
  for (const p of problems) console.log(`    - ${p}`);
}

console.log(`\n${dirs.length} cases, ${failures} with problems`);
console.log(`instruction: ${withInstr}, crlf: ${crlfCases}, no final newline: ${noEol}, bom: ${bom}, >150 lines: ${long}`);
console.log("langs:", JSON.stringify(langs));
console.log("shapes:", Object.keys(shapes).length);
process.exit(failures ? 1 : 0);
