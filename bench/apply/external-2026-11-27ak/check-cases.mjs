#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [caseDir...]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER_RE = /(\.\.\.|…)|\b(existing code|unchanged|rest of)\b/i;
// inline marker inside a line of code, e.g. `[a, /* ... */, c]`
const INLINE_MARKER_RE = /\/\*\s*(\.\.\.|…)\s*\*\/|#\s*\.\.\.\s*$/;

function lineEndingKind(buf) {
  const s = buf.toString("utf8");
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return "mixed";
  if (crlf) return "crlf";
  if (lf) return "lf";
  return "none";
}

function splitLines(s) {
  if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
  const lines = s.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function checkCase(dir) {
  const errors = [];
  const warnings = [];
  const name = path.basename(dir);
  if (!/^[a-z]+\d\d-[a-z0-9-]+$/.test(name)) errors.push(`bad directory name ${name}`);

  const entries = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!entries.includes(f)) errors.push(`missing ${f}`);
  const extra = entries.filter((e) => !FILES.includes(e));
  if (extra.length) errors.push(`unexpected files: ${extra.join(", ")}`);
  if (errors.length) return { errors, warnings };

  const raw = Object.fromEntries(FILES.map((f) => [f, fs.readFileSync(path.join(dir, f))]));

  let meta;
  try {
    meta = JSON.parse(raw["meta.json"].toString("utf8"));
  } catch (e) {
    errors.push(`meta.json is not valid JSON: ${e.message}`);
    return { errors, warnings };
  }
  for (const k of ["lang", "shape", "instruction", "lines"]) {
    if (!(k in meta)) errors.push(`meta.json lacks "${k}"`);
  }
  if (typeof meta.lang !== "string" || !meta.lang) errors.push("meta.lang must be a non-empty string");
  if (typeof meta.shape !== "string" || !meta.shape) errors.push("meta.shape must be a non-empty string");
  if (meta.instruction !== null && typeof meta.instruction !== "string") errors.push("meta.instruction must be string or null");
  if (typeof meta.instruction === "string" && !meta.instruction.trim()) errors.push("meta.instruction is an empty string (use null)");

  const text = Object.fromEntries(["original", "update", "expected"].map((f) => [f, raw[f].toString("utf8")]));
  for (const f of ["original", "update", "expected"]) {
    if (raw[f].includes(0xfffd) || text[f].includes("\ufffd")) errors.push(`${f} is not valid UTF-8`);
  }

  const origLines = splitLines(text.original);
  if (meta.lines !== origLines.length) errors.push(`meta.lines=${meta.lines} but original has ${origLines.length} lines`);
  if (origLines.length < 30 || origLines.length > 400) errors.push(`original has ${origLines.length} lines (want 30..400)`);

  const kinds = Object.fromEntries(["original", "update", "expected"].map((f) => [f, lineEndingKind(raw[f])]));
  for (const f of ["original", "update", "expected"]) if (kinds[f] === "mixed") errors.push(`${f} has mixed line endings`);
  if (kinds.original !== kinds.expected) errors.push(`line endings differ: original=${kinds.original} expected=${kinds.expected}`);
  if (kinds.update !== "none" && kinds.update !== kinds.original) errors.push(`line endings differ: original=${kinds.original} update=${kinds.update}`);

  const bomO = text.original.startsWith("\ufeff");
  const bomE = text.expected.startsWith("\ufeff");
  if (bomO !== bomE) errors.push(`BOM differs between original (${bomO}) and expected (${bomE})`);
  const eolO = /\n$/.test(text.original);
  const eolE = /\n$/.test(text.expected);
  if (eolO !== eolE) warnings.push(`final newline differs: original=${eolO} expected=${eolE}`);

  if (text.original === text.expected) errors.push("expected is identical to original");

  // every line of expected that is not in original must appear in update (trimmed)
  const origSet = new Set(origLines);
  const updLines = splitLines(text.update);
  const updTrimmed = new Set(updLines.map((l) => l.trim()));
  const hasInlineMarker = updLines.some((l) => INLINE_MARKER_RE.test(l) && l.trim().length > l.trim().replace(INLINE_MARKER_RE, "").length && l.replace(INLINE_MARKER_RE, "").trim().length > 0);
  for (const [i, l] of splitLines(text.expected).entries()) {
    if (origSet.has(l)) continue;
    if (updTrimmed.has(l.trim())) continue;
    const msg = `expected line ${i + 1} is new but not in update: ${JSON.stringify(l)}`;
    if (hasInlineMarker) warnings.push(msg + " (update has an inline marker)");
    else errors.push(msg);
  }

  const hasMarker = updLines.some((l) => MARKER_RE.test(l));
  if (hasMarker && text.update === text.expected) errors.push("update has markers but is identical to expected");
  if (splitLines(text.update).length >= splitLines(text.expected).length && text.update.replace(/\r/g, "") === text.expected.replace(/\r/g, "")) {
    errors.push("update equals expected: the case tests nothing");
  }
  if (/^```/m.test(text.update)) errors.push("update contains markdown fences");

  return { errors, warnings, meta, origLines: origLines.length, kinds, bom: bomO, finalNewline: eolO };
}

const args = process.argv.slice(2);
const dirs = (args.length ? args : fs.readdirSync(root))
  .map((d) => path.resolve(root, d))
  .filter((d) => fs.statSync(d).isDirectory() && !path.basename(d).startsWith("."))
  .sort();

let failed = 0;
const byLang = {};
const stats = { crlf: 0, bom: 0, noFinalNewline: 0, over150: 0, withInstruction: 0, tabs: 0 };
for (const dir of dirs) {
  const r = checkCase(dir);
  const name = path.basename(dir);
  if (r.errors.length) {
    failed++;
    console.log(`FAIL ${name}`);
    for (const e of r.errors) console.log(`  - ${e}`);
  } else {
    console.log(`ok   ${name}`);
  }
  for (const w of r.warnings) console.log(`  ! ${w}`);
  if (r.meta) {
    byLang[r.meta.lang] = (byLang[r.meta.lang] || 0) + 1;
    if (r.kinds.original === "crlf") stats.crlf++;
    if (r.bom) stats.bom++;
    if (!r.finalNewline) stats.noFinalNewline++;
    if (r.origLines > 150) stats.over150++;
    if (r.meta.instruction) stats.withInstruction++;
    if (/^\t/m.test(fs.readFileSync(path.join(dir, "original"), "utf8"))) stats.tabs++;
  }
}
console.log(`\n${dirs.length} cases, ${failed} failing`);
console.log("languages:", JSON.stringify(byLang));
console.log("stats:", JSON.stringify(stats));
process.exit(failed ? 1 : 0);
