#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [caseDir...]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER_RE = /(\.\.\.|…|\(unchanged\)|unchanged|existing code|rest of (the )?(file|class|module))/i;

function lineCount(text) {
  if (text.length === 0) return 0;
  const parts = text.split(/\r\n|\n/);
  return text.endsWith("\n") ? parts.length - 1 : parts.length;
}

function eolKind(text) {
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

let failures = 0;
let checked = 0;
const dirs = process.argv.slice(2).length
  ? process.argv.slice(2)
  : fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();

for (const d of dirs) {
  const dir = path.isAbsolute(d) ? d : path.join(root, d);
  const name = path.basename(dir);
  const problems = [];
  checked++;

  const present = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!present.includes(f)) problems.push(`missing ${f}`);
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) problems.push(`unexpected files: ${extra.join(", ")}`);
  if (problems.length) {
    report(name, problems);
    continue;
  }

  const original = fs.readFileSync(path.join(dir, "original"), "utf8");
  const update = fs.readFileSync(path.join(dir, "update"), "utf8");
  const expected = fs.readFileSync(path.join(dir, "expected"), "utf8");

  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8"));
  } catch (e) {
    report(name, [`meta.json invalid: ${e.message}`]);
    continue;
  }
  for (const k of ["lang", "shape", "instruction", "lines"]) {
    if (!(k in meta)) problems.push(`meta.json lacks ${k}`);
  }
  if (typeof meta.lang !== "string" || !meta.lang) problems.push("meta.lang must be a non-empty string");
  if (typeof meta.shape !== "string" || !meta.shape) problems.push("meta.shape must be a non-empty string");
  if (meta.instruction !== null && typeof meta.instruction !== "string") problems.push("meta.instruction must be string or null");
  const n = lineCount(original);
  if (meta.lines !== n) problems.push(`meta.lines=${meta.lines} but original has ${n} lines`);
  if (n < 30 || n > 400) problems.push(`original has ${n} lines (want 30..400)`);

  const eo = eolKind(original), eu = eolKind(update), ee = eolKind(expected);
  if (eo === "mixed" || eu === "mixed" || ee === "mixed") problems.push(`mixed line endings (o=${eo} u=${eu} e=${ee})`);
  const kinds = new Set([eo, eu, ee].filter((k) => k !== "none"));
  if (kinds.size > 1) problems.push(`inconsistent line endings (o=${eo} u=${eu} e=${ee})`);

  if (original === expected) problems.push("expected is identical to original");

  const origLines = new Set(stripBom(original).split(/\r?\n/));
  const updTrimmedList = stripBom(update).split(/\r?\n/).map((l) => l.trim());
  const updTrimmed = new Set(updTrimmedList);
  // Lines carrying an inline marker (e.g. `[a, /* ... */ c]`) match any expansion of the marker.
  const INLINE_MARKER = /\/\*\s*(\.\.\.|…)[^*]*\*\/,?|\{\s*\/\*\s*(\.\.\.|…)\s*\*\/\s*\}/g;
  const inlinePatterns = updTrimmedList
    .filter((l) => new RegExp(INLINE_MARKER.source).test(l) && l.replace(INLINE_MARKER, "").trim().length > 0)
    .map((l) => {
      const parts = l.split(INLINE_MARKER).filter((x, i) => i % 3 === 0);
      return new RegExp("^" + parts.map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$");
    });
  const expLines = stripBom(expected).split(/\r?\n/);
  expLines.forEach((line, i) => {
    if (origLines.has(line)) return;
    if (updTrimmed.has(line.trim())) return;
    if (inlinePatterns.some((re) => re.test(line.trim()))) return;
    problems.push(`expected line ${i + 1} is new but not in update: ${JSON.stringify(line)}`);
  });

  const hasMarker = stripBom(update).split(/\r?\n/).some((l) => MARKER_RE.test(l));
  if (hasMarker && update === expected) problems.push("update has markers but is identical to expected");
  if (!hasMarker && update === expected && original !== expected) {
    // a full-file rewrite is allowed, just note it
  }

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

console.log(`\n${checked} cases checked, ${failures} failing`);
process.exit(failures ? 1 : 0);
