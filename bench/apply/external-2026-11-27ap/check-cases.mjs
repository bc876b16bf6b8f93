#!/usr/bin/env node
// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs [caseDir ...]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER = /(\.\.\.|…|\b(existing|unchanged|rest of|stays the same)\b)/i;

function lineCount(buf) {
  const s = buf.toString("utf8");
  if (s.length === 0) return 0;
  const n = s.split("\n").length;
  return s.endsWith("\n") ? n - 1 : n;
}

function eolKind(buf) {
  const s = buf.toString("utf8");
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return "mixed";
  if (crlf) return "crlf";
  if (lf) return "lf";
  return "none";
}

function lines(buf) {
  return buf.toString("utf8").replace(/^\uFEFF/, "").split(/\r?\n/);
}

const dirs = process.argv.slice(2).length
  ? process.argv.slice(2)
  : fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();

let failures = 0;
for (const d of dirs) {
  const dir = path.isAbsolute(d) ? d : path.join(root, d);
  const name = path.basename(dir);
  const problems = [];
  const present = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!present.includes(f)) problems.push(`missing ${f}`);
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) problems.push(`unexpected files: ${extra.join(", ")}`);
  if (problems.length) {
    console.log(`FAIL ${name}: ${problems.join("; ")}`);
    failures++;
    continue;
  }
  const original = fs.readFileSync(path.join(dir, "original"));
  const update = fs.readFileSync(path.join(dir, "update"));
  const expected = fs.readFileSync(path.join(dir, "expected"));

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
    if (meta.lines !== lineCount(original)) problems.push(`meta.lines ${meta.lines} != ${lineCount(original)}`);
    const n = lineCount(original);
    if (n < 30 || n > 400) problems.push(`original has ${n} lines (want 30..400)`);
  }

  const kinds = { original: eolKind(original), update: eolKind(update), expected: eolKind(expected) };
  for (const [f, k] of Object.entries(kinds)) if (k === "mixed") problems.push(`${f} has mixed line endings`);
  const set = new Set(Object.values(kinds).filter((k) => k !== "none"));
  if (set.size > 1) problems.push(`line endings differ: ${JSON.stringify(kinds)}`);

  const origSet = new Set(lines(original));
  const updTrim = new Set(lines(update).map((l) => l.trim()));
  // Update lines with an inline marker (e.g. `[a, /* ... */ c]`): the pieces around
  // the marker must appear, in order, in the expected line.
  const INLINE = /\/\*\s*(?:\.\.\.|…)[^*]*\*\/|\.\.\.|…/;
  const inlinePieces = lines(update)
    .filter((l) => INLINE.test(l) && l.replace(INLINE, "").trim().length > 8)
    .map((l) => l.trim().split(INLINE).map((p) => p.trim()).filter(Boolean));
  const coveredInline = (line) =>
    inlinePieces.some((pieces) => {
      let at = 0;
      for (const p of pieces) {
        const i = line.indexOf(p, at);
        if (i < 0) return false;
        at = i + p.length;
      }
      return true;
    });
  for (const l of lines(expected)) {
    if (origSet.has(l)) continue;
    if (!updTrim.has(l.trim()) && !coveredInline(l))
      problems.push(`new expected line not in update: ${JSON.stringify(l)}`);
  }

  const hasMarkers = lines(update).some((l) => MARKER.test(l) && !lines(expected).includes(l));
  if (hasMarkers && update.equals(expected)) problems.push("update identical to expected despite markers");
  if (original.equals(expected)) problems.push("expected identical to original");

  if (problems.length) {
    failures++;
    console.log(`FAIL ${name}`);
    for (const p of problems) console.log(`  - ${p}`);
  } else {
    console.log(`ok   ${name}`);
  }
}
console.log(`\n${dirs.length - failures}/${dirs.length} cases passed`);
process.exit(failures ? 1 : 0);
