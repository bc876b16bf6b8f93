#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine held-out cases.
// Usage: node check-cases.mjs [dir]   (defaults to the directory of this script)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = process.argv[2] ?? path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER_RE = /(\.\.\.|…|\(unchanged\)|unchanged|rest of|stays the same)/i;

function stripBom(s) {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

function eolKind(s) {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  const cr = (s.match(/\r(?!\n)/g) || []).length;
  if (cr) return "mixed";
  if (crlf && lf) return "mixed";
  if (crlf) return "crlf";
  if (lf) return "lf";
  return "none";
}

function lineCount(s) {
  if (s.length === 0) return 0;
  const n = (s.match(/\n/g) || []).length;
  return s.endsWith("\n") ? n : n + 1;
}

function splitLines(s) {
  return stripBom(s).replace(/\r\n/g, "\n").split("\n");
}

// A line of the update that contains an inline marker, e.g.
//   plugins: [react(), /* ... */ legacy()],
// matches an expected line that starts with the text before the marker and
// ends with the text after it.
function inlineMarkerPatterns(updateLines) {
  const pats = [];
  const inline = /(\/\*\s*\.\.\.[^*]*\*\/|\{\s*\/\*[^*]*\*\/\s*\}|<!--\s*\.\.\.[^>]*-->|\.\.\.|…)/;
  for (const raw of updateLines) {
    const line = raw.trim();
    const m = line.match(inline);
    if (!m) continue;
    const before = line.slice(0, m.index).trim();
    const after = line.slice(m.index + m[0].length).trim();
    if (before === "" && after === "") continue;
    pats.push({ before, after });
  }
  return pats;
}

let failures = 0;
let cases = 0;
const dirs = fs
  .readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith("."))
  .map((d) => d.name)
  .sort();

for (const name of dirs) {
  const dir = path.join(root, name);
  const problems = [];
  cases++;

  const present = fs.readdirSync(dir).sort();
  for (const f of FILES) {
    if (!present.includes(f)) problems.push(`missing ${f}`);
  }
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) problems.push(`unexpected files: ${extra.join(", ")}`);
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
    problems.push(`meta.json is not valid JSON: ${e.message}`);
  }
  if (meta) {
    if (typeof meta.lang !== "string" || !meta.lang) problems.push("meta.lang missing");
    if (typeof meta.shape !== "string" || !meta.shape) problems.push("meta.shape missing");
    if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.trim())))
      problems.push("meta.instruction must be a non-empty string or null");
    if (!Number.isInteger(meta.lines)) problems.push("meta.lines must be an integer");
    else if (meta.lines !== lineCount(original))
      problems.push(`meta.lines=${meta.lines} but original has ${lineCount(original)} lines`);
    const allowed = new Set(["lang", "shape", "instruction", "lines"]);
    for (const k of Object.keys(meta)) if (!allowed.has(k)) problems.push(`meta has unknown key ${k}`);
  }

  const lc = lineCount(original);
  if (lc < 30 || lc > 400) problems.push(`original has ${lc} lines (want 30..400)`);

  const kinds = { original: eolKind(original), update: eolKind(update), expected: eolKind(expected) };
  for (const [f, k] of Object.entries(kinds)) if (k === "mixed") problems.push(`${f} has mixed line endings`);
  const real = new Set(Object.values(kinds).filter((k) => k !== "none"));
  if (real.size > 1) problems.push(`line endings differ: ${JSON.stringify(kinds)}`);

  if (original === expected) problems.push("expected is identical to original");

  const origSet = new Set(splitLines(original).map((l) => l.trim()));
  const updLines = splitLines(update);
  const updSet = new Set(updLines.map((l) => l.trim()));
  const pats = inlineMarkerPatterns(updLines);
  for (const [i, line] of splitLines(expected).entries()) {
    const t = line.trim();
    if (t === "" || origSet.has(t) || updSet.has(t)) continue;
    if (pats.some((p) => t.startsWith(p.before) && t.endsWith(p.after) && t.length >= p.before.length + p.after.length)) continue;
    problems.push(`expected line ${i + 1} is in neither original nor update: ${JSON.stringify(t)}`);
  }

  const hasMarkers = updLines.some((l) => MARKER_RE.test(l));
  if (hasMarkers && stripBom(update) === stripBom(expected)) problems.push("update has markers but equals expected");

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

console.log(`\n${cases} cases, ${failures} failing`);
process.exit(failures ? 1 : 0);
