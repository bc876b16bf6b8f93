#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine held-out cases.
// Usage: node check-cases.mjs [dir]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER = /(\.\.\.|…|\bunchanged\b|\bstays the same\b|\brest of\b)/i;

function splitLines(text) {
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const lines = text.split("\n");
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => l.replace(/\r$/, ""));
}

function countLines(text) {
  if (text === "") return 0;
  const n = (text.match(/\n/g) || []).length;
  return text.endsWith("\n") ? n : n + 1;
}

function eolStyle(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length;
  if (lf === 0) return "none";
  if (crlf === lf) return "crlf";
  if (crlf === 0) return "lf";
  return "mixed";
}

let failures = 0;
let count = 0;
const dirs = fs
  .readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

for (const name of dirs) {
  const dir = path.join(root, name);
  const problems = [];
  count++;
  const present = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!present.includes(f)) problems.push(`missing ${f}`);
  for (const f of present) if (!FILES.includes(f)) problems.push(`unexpected file ${f}`);
  if (!/^[a-z]+\d\d-[a-z0-9-]+$/.test(name)) problems.push("directory name not <lang><NN>-<slug>");
  if (problems.length) {
    report(name, problems);
    continue;
  }
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
    if (typeof meta.lang !== "string" || !meta.lang) problems.push("meta.lang missing");
    if (typeof meta.shape !== "string" || !meta.shape) problems.push("meta.shape missing");
    if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.trim())))
      problems.push("meta.instruction must be null or a non-empty string");
    if (meta.lines !== countLines(original))
      problems.push(`meta.lines=${meta.lines} but original has ${countLines(original)} lines`);
  }
  const n = countLines(original);
  if (n < 30 || n > 400) problems.push(`original has ${n} lines (want 30..400)`);

  const styles = { original: eolStyle(original), update: eolStyle(update), expected: eolStyle(expected) };
  for (const [f, s] of Object.entries(styles)) if (s === "mixed") problems.push(`${f} has mixed line endings`);
  if (styles.original !== styles.expected) problems.push(`line endings differ: original=${styles.original} expected=${styles.expected}`);
  if (styles.update !== "none" && styles.update !== styles.original)
    problems.push(`line endings differ: original=${styles.original} update=${styles.update}`);
  if (original.startsWith("\uFEFF") !== expected.startsWith("\uFEFF")) problems.push("BOM differs between original and expected");
  if (original === expected) problems.push("expected is identical to original");

  const origSet = new Set(splitLines(original).map((l) => l.trim()));
  const updSet = new Set(splitLines(update).map((l) => l.trim()));
  // Update lines that carry an inline marker (e.g. `[a, /* ... */, c]`) match any text in its place.
  const INLINE = /\/\*\s*(?:\.\.\.|…)[^*]*\*\/,?\s*|(?:\.\.\.|…)/;
  const esc = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const inlinePatterns = splitLines(update)
    .map((l) => l.trim())
    .filter((l) => INLINE.test(l) && l.split(INLINE).join("").trim().length > 8)
    .map((l) => new RegExp("^" + l.split(new RegExp(INLINE.source, "g")).map(esc).join(".*") + "$"));
  for (const line of splitLines(expected)) {
    const t = line.trim();
    if (origSet.has(t) || updSet.has(t)) continue;
    if (inlinePatterns.some((re) => re.test(t))) continue;
    problems.push(`new line not in update: ${JSON.stringify(line)}`);
  }

  const expSet = new Set(splitLines(expected).map((l) => l.trim()));
  const markerLines = splitLines(update).filter((l) => MARKER.test(l) && !expSet.has(l.trim()));
  if (markerLines.length && update.replace(/^\uFEFF/, "") === expected.replace(/^\uFEFF/, ""))
    problems.push("update has markers but is identical to expected");

  if (problems.length) report(name, problems);
}

function report(name, problems) {
  failures++;
  console.log(`FAIL ${name}`);
  for (const p of problems) console.log(`  - ${p}`);
}

console.log(`${count} cases checked, ${failures} with problems`);
process.exit(failures ? 1 : 0);
