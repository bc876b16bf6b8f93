#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [case-dir ...]   (defaults to every sub-directory)
// No dependencies. Exits 1 when any case has an error.

import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const BOM = "\uFEFF";

// A whole line that stands for elided code: a comment (or bare text) whose
// content starts with "..." / "…" or says that code is unchanged/existing.
const COMMENT_OPENERS = /^(\/\/+|#+|\/\*+|\{\/\*+|<!--|--|;+|\{\{--|\*)\s*/;
const COMMENT_CLOSERS = /\s*(\*+\/\}?|-->|--\}\})\s*$/;
const MARKER_WORDS = /\b(existing|unchanged|rest of|remaining|same as before|other (imports|routes|fields|tests|cases|methods))\b/i;

function markerLine(line) {
  const t = line.trim();
  if (t === "..." || t === "…") return true;
  const m = COMMENT_OPENERS.exec(t);
  if (!m) return false;
  const body = t.slice(m[0].length).replace(COMMENT_CLOSERS, "").trim();
  if (body.startsWith("...") || body.startsWith("…")) return true;
  return MARKER_WORDS.test(body) && body.length < 80;
}

// Marker embedded inside a line of code, e.g. `[a, /* ... */, c]` or `{ a, // ... }`.
const INLINE_MARKER = /\/\*\s*(\.\.\.|…)[^*]*\*\/|\{\/\*\s*(\.\.\.|…)[^*]*\*\/\}/;

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// The marker (with the commas around it) may stand for any text, including none.
const INLINE_MARKER_GLOBAL = /\s*,?\s*\/\*\s*(?:\.\.\.|…)[^*]*\*\/\s*,?\s*/g;

function inlinePattern(line) {
  const pieces = line.trim().split(INLINE_MARKER_GLOBAL);
  return new RegExp("^" + pieces.map((p) => escapeRe(p.trim())).join(".*") + "$");
}

function eolStyle(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length - crlf;
  const cr = (text.match(/\r(?!\n)/g) || []).length;
  if (crlf + lf + cr === 0) return "none";
  if (crlf && !lf && !cr) return "crlf";
  if (lf && !crlf && !cr) return "lf";
  return "mixed";
}

function splitLines(text) {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  const lines = body.split(/\r\n|\n/);
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function checkCase(dir) {
  const errors = [];
  const warnings = [];
  const name = dir.split("/").pop();

  const present = readdirSync(dir);
  for (const f of FILES) if (!present.includes(f)) errors.push(`missing file ${f}`);
  const extra = present.filter((f) => !FILES.includes(f));
  if (extra.length) errors.push(`unexpected files: ${extra.join(", ")}`);
  if (errors.length) return { name, errors, warnings };

  const read = (f) => readFileSync(join(dir, f), "utf8");
  const original = read("original");
  const update = read("update");
  const expected = read("expected");

  // meta.json
  let meta;
  try {
    meta = JSON.parse(read("meta.json"));
  } catch (e) {
    errors.push(`meta.json is not valid JSON: ${e.message}`);
    return { name, errors, warnings };
  }
  const keys = Object.keys(meta).sort().join(",");
  if (keys !== "instruction,lang,lines,shape") errors.push(`meta.json keys are ${keys}`);
  if (typeof meta.lang !== "string" || !meta.lang) errors.push("meta.lang must be a non-empty string");
  if (typeof meta.shape !== "string" || !meta.shape) errors.push("meta.shape must be a non-empty string");
  if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.trim())))
    errors.push("meta.instruction must be null or a non-empty string");
  const origLines = splitLines(original);
  if (meta.lines !== origLines.length) errors.push(`meta.lines=${meta.lines} but original has ${origLines.length} lines`);
  if (origLines.length < 30 || origLines.length > 400) errors.push(`original has ${origLines.length} lines (want 30..400)`);

  // line endings
  const styles = { original: eolStyle(original), expected: eolStyle(expected), update: eolStyle(update) };
  for (const [f, s] of Object.entries(styles)) if (s === "mixed") errors.push(`${f} has mixed line endings`);
  if (styles.original !== styles.expected) errors.push(`line endings differ: original=${styles.original} expected=${styles.expected}`);
  if (styles.update !== "none" && styles.update !== styles.original)
    errors.push(`line endings differ: original=${styles.original} update=${styles.update}`);
  if (original.startsWith(BOM) !== expected.startsWith(BOM)) errors.push("BOM present in only one of original/expected");
  const finalNl = (t) => /\n$/.test(t);
  if (finalNl(original) !== finalNl(expected)) warnings.push("final newline differs between original and expected");

  // update sanity
  if (/^```/m.test(update)) errors.push("update contains a markdown fence");
  if (update.trim() === "") errors.push("update is empty");
  if (original === expected) errors.push("expected is identical to original");

  const updLines = splitLines(update);
  const hasMarkers = updLines.some(markerLine) || updLines.some((l) => INLINE_MARKER.test(l));
  if (hasMarkers && update.replace(/^\uFEFF/, "") === expected.replace(/^\uFEFF/, ""))
    errors.push("update has markers but is identical to expected");

  // every new line of expected must come from the update
  const origSet = new Set(origLines.map((l) => l.trim()));
  const updSet = new Set(updLines.map((l) => l.trim()));
  const inlinePatterns = updLines.filter((l) => INLINE_MARKER.test(l)).map(inlinePattern);
  const expLines = splitLines(expected);
  expLines.forEach((line, i) => {
    const t = line.trim();
    if (origSet.has(t) || updSet.has(t)) return;
    if (inlinePatterns.some((re) => re.test(t))) return;
    errors.push(`expected line ${i + 1} is neither in original nor in update: ${JSON.stringify(line)}`);
  });

  // the update's non-marker lines should mostly exist in expected (catches typos in expected)
  const expSet = new Set(expLines.map((l) => l.trim()));
  updLines.forEach((line, i) => {
    const t = line.trim();
    if (!t || markerLine(line) || INLINE_MARKER.test(line)) return;
    if (!expSet.has(t)) warnings.push(`update line ${i + 1} not found in expected: ${JSON.stringify(line)}`);
  });

  return { name, errors, warnings, meta, lines: origLines.length, styles, bom: original.startsWith(BOM), finalNl: finalNl(original), hasMarkers };
}

const args = process.argv.slice(2);
const dirs = (args.length ? args : readdirSync(ROOT))
  .map((d) => (d.startsWith("/") ? d : join(ROOT, d)))
  .filter((d) => existsSync(d) && statSync(d).isDirectory())
  .sort();

let failed = 0;
const results = dirs.map(checkCase);
for (const r of results) {
  if (r.errors.length) failed++;
  if (r.errors.length || r.warnings.length) {
    console.log(`${r.errors.length ? "FAIL" : "warn"} ${r.name}`);
    for (const e of r.errors) console.log(`   error: ${e}`);
    for (const w of r.warnings) console.log(`   warning: ${w}`);
  }
}

// summary
const ok = results.filter((r) => r.meta);
const count = (f) => ok.reduce((m, r) => ((m[f(r)] = (m[f(r)] || 0) + 1), m), {});
console.log(`\n${results.length} cases, ${failed} failing`);
console.log("by lang:", JSON.stringify(count((r) => r.meta.lang)));
console.log(
  `instructions: ${ok.filter((r) => r.meta.instruction).length}, CRLF: ${ok.filter((r) => r.styles.original === "crlf").length}, ` +
    `BOM: ${ok.filter((r) => r.bom).length}, no final newline: ${ok.filter((r) => !r.finalNl).length}, ` +
    `>150 lines: ${ok.filter((r) => r.lines > 150).length}, without markers: ${ok.filter((r) => !r.hasMarkers).length}`,
);
process.exit(failed ? 1 : 0);
