#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [caseDir ...]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER = /(\.\.\.|…|existing code|unchanged|rest of (the )?(file|class|module))/i;

function eol(buf) {
  const s = buf.toString("utf8");
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return "mixed";
  if (crlf) return "crlf";
  if (lf) return "lf";
  return "none";
}

function lines(s) {
  const t = s.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const parts = t.split("\n");
  if (t.endsWith("\n")) parts.pop();
  return parts;
}

let failures = 0;
let count = 0;
const dirs = process.argv.slice(2).length
  ? process.argv.slice(2).map((d) => path.resolve(d))
  : fs.readdirSync(root).map((d) => path.join(root, d)).filter((d) => fs.statSync(d).isDirectory()).sort();

for (const dir of dirs) {
  const name = path.basename(dir);
  const problems = [];
  count++;
  const present = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!present.includes(f)) problems.push(`missing ${f}`);
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) problems.push(`unexpected files: ${extra.join(", ")}`);
  if (problems.length) { report(name, problems); continue; }

  const buf = Object.fromEntries(["original", "update", "expected"].map((f) => [f, fs.readFileSync(path.join(dir, f))]));
  const txt = Object.fromEntries(Object.entries(buf).map(([k, v]) => [k, v.toString("utf8")]));

  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8"));
  } catch (e) {
    problems.push(`meta.json invalid: ${e.message}`);
  }
  if (meta) {
    if (typeof meta.lang !== "string" || !meta.lang) problems.push("meta.lang missing");
    if (typeof meta.shape !== "string" || !meta.shape) problems.push("meta.shape missing");
    if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.length)))
      problems.push("meta.instruction must be a non-empty string or null");
    const n = lines(txt.original).length;
    if (meta.lines !== n) problems.push(`meta.lines=${meta.lines} but original has ${n}`);
    if (n < 30 || n > 400) problems.push(`original has ${n} lines (want 30..400)`);
  }

  const endings = Object.fromEntries(Object.entries(buf).map(([k, v]) => [k, eol(v)]));
  for (const [k, v] of Object.entries(endings)) if (v === "mixed") problems.push(`${k} has mixed line endings`);
  const kinds = new Set(Object.values(endings).filter((v) => v !== "none"));
  if (kinds.size > 1) problems.push(`line endings differ: ${JSON.stringify(endings)}`);
  const bom = (b) => b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
  if (bom(buf.original) !== bom(buf.expected)) problems.push("BOM differs between original and expected");

  const origSet = new Set(lines(txt.original));
  const updTrim = new Set(lines(txt.update).map((l) => l.trim()));
  for (const l of lines(txt.expected)) {
    if (origSet.has(l)) continue;
    if (!updTrim.has(l.trim())) problems.push(`new expected line not in update: ${JSON.stringify(l)}`);
  }

  const hasMarker = lines(txt.update).some((l) => MARKER.test(l));
  if (hasMarker && txt.update === txt.expected) problems.push("update has markers but equals expected");
  if (txt.original === txt.expected) problems.push("expected equals original");

  report(name, problems);
}

function report(name, problems) {
  if (problems.length) {
    failures++;
    console.log(`FAIL ${name}`);
    for (const p of problems) console.log(`  - ${p}`);
  } else {
    console.log(`ok   ${name}`);
  }
}

console.log(`\n${count} cases, ${failures} failing`);
process.exit(failures ? 1 : 0);
