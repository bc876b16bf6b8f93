#!/usr/bin/env node
// Mechanical sanity checks for the heldout-f apply test cases. No dependencies.
// Usage: node check-cases.mjs [dir]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = process.argv[2] ?? path.dirname(fileURLToPath(import.meta.url));
const SHAPES = new Set([
  "bugfix-one-line", "modify-middle-long-function", "anchor-new-code-marker", "add-method-to-class",
  "add-import-and-use", "add-field-and-uses", "add-route-handler", "add-tests", "add-logging",
  "add-error-handling", "rename-function-and-callers", "change-signature-and-callers",
  "delete-function-by-instruction", "delete-function-by-anchors", "multiple-hunks", "hunks-out-of-order",
  "repeated-anchor-lines", "reindented-snippet", "missing-closing-braces", "full-function-no-markers",
  "region-snippet-no-markers", "nested-config-key", "inline-markers", "crlf-file", "no-trailing-newline",
  "tabs", "bom", "edit-file-start", "edit-file-end", "same-name-two-classes", "marker-wordings",
]);
const MARKERLESS_OK = new Set(["full-function-no-markers", "region-snippet-no-markers"]);

const COMMENT_START = /^(\/\/|#|--|\/\*|\*|<!--|\{\/\*|\(\*|;)/;
const MARKER_WORDS = /(\.\.\.|…|\bexisting\b|\bunchanged\b|\bomitted\b|\bsnip\b|\brest of\b|\bremaining\b|\bsame\b)/i;
function isMarkerLine(line) {
  const t = line.trim();
  if (t === "..." || t === "…") return true;
  if (COMMENT_START.test(t) && MARKER_WORDS.test(t)) return true;
  // inline marker inside a line: /* ... */, /* ...existing... */, {/* ... */}
  if (/\/\*[^*]*(\.\.\.|…|existing|unchanged)[^*]*\*\//i.test(t)) return true;
  if (/<!--[^>]*(\.\.\.|…|existing|unchanged)[^>]*-->/i.test(t)) return true;
  // a bare ellipsis standing in for list items: `import ..., x`, `{..., Invitation}`, `[1, 2, ...]`
  if (/(^|[\s\[{(,])(\.\.\.|…)\s*(,|[\]})]|$)/.test(t)) return true;
  return false;
}

function lineInfo(buf) {
  const s = buf.toString("utf8");
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/(?<!\r)\n/g) || []).length;
  return {
    bom: s.startsWith("\ufeff"),
    eol: crlf > 0 && lf === 0 ? "crlf" : lf > 0 && crlf === 0 ? "lf" : crlf === 0 && lf === 0 ? "none" : "mixed",
    finalNewline: s.endsWith("\n"),
    text: s.replace(/^\ufeff/, ""),
  };
}


// Lines of b that are not part of a longest common subsequence with a (i.e. lines the merge added).
function addedLines(a, b) {
  const n = a.length, m = b.length;
  const dp = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
  const out = [];
  let i = 0, j = 0;
  while (j < m) {
    if (i < n && a[i] === b[j]) { i++; j++; }
    else if (i < n && dp[i + 1][j] >= dp[i][j + 1]) i++;
    else out.push(b[j++]);
  }
  return out;
}

const errors = [];
const inlineMerged = [];
const byLang = {};
const byShape = {};
let cases = 0, big = 0;
const dirs = fs.readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith("_") && !d.name.startsWith("."))
  .map((d) => d.name).sort();

for (const id of dirs) {
  const dir = path.join(root, id);
  const err = (m) => errors.push(`${id}: ${m}`);
  const files = {};
  let ok = true;
  for (const f of ["original", "update", "expected", "meta.json"]) {
    const p = path.join(dir, f);
    if (!fs.existsSync(p)) { err(`missing ${f}`); ok = false; continue; }
    files[f] = fs.readFileSync(p);
  }
  if (!ok) continue;
  cases++;
  if (!/^[a-z0-9]+[0-9]{2}-[a-z0-9-]+$/.test(id)) err("id should look like go07-some-name");

  let meta;
  try { meta = JSON.parse(files["meta.json"].toString("utf8")); } catch (e) { err(`meta.json: ${e.message}`); continue; }
  const keys = Object.keys(meta).sort().join(",");
  if (keys !== "instruction,lang,lines,shape") err(`meta keys: ${keys}`);
  if (typeof meta.lang !== "string" || !meta.lang) err("meta.lang");
  if (!SHAPES.has(meta.shape)) err(`unknown shape ${meta.shape}`);
  if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.length > 0))) err("meta.instruction");

  const o = lineInfo(files.original), x = lineInfo(files.expected), u = lineInfo(files.update);
  const nLines = o.text.split(/\r?\n/).length - (o.finalNewline ? 1 : 0);
  if (meta.lines !== nLines) err(`meta.lines ${meta.lines} != ${nLines}`);
  if (nLines < 40 || nLines > 500) err(`original has ${nLines} lines (want 40..500)`);
  if (nLines > 200) big++;
  if (files.original.equals(files.expected)) err("expected == original");
  if (o.eol !== x.eol) err(`line endings differ: original ${o.eol}, expected ${x.eol}`);
  if (o.eol === "mixed") err("original has mixed line endings");
  if (o.finalNewline !== x.finalNewline) err("final-newline state differs");
  if (o.bom !== x.bom) err("BOM state differs");
  if (meta.shape === "crlf-file" && o.eol !== "crlf") err("crlf-file shape but original is not CRLF");
  if (meta.shape === "no-trailing-newline" && o.finalNewline) err("no-trailing-newline shape but original ends with newline");
  if (meta.shape === "bom" && !o.bom) err("bom shape but no BOM");
  if (meta.shape === "tabs" && !/^\t/m.test(o.text)) err("tabs shape but no tab indentation");

  const uLines = u.text.split(/\r?\n/);
  const hasMarker = uLines.some(isMarkerLine);
  if (!hasMarker && !MARKERLESS_OK.has(meta.shape)) err("update has no marker and shape is not a marker-less shape");
  if (hasMarker && MARKERLESS_OK.has(meta.shape)) err(`shape ${meta.shape} but update contains a marker`);

  const expSet = new Set(x.text.split(/\r?\n/).map((l) => l.trim()));
  for (const l of uLines) {
    if (!l.trim() || isMarkerLine(l)) continue;
    if (!expSet.has(l.trim())) err(`update line not in expected: ${JSON.stringify(l.trim()).slice(0, 120)}`);
  }
  // Every line the merge added must come from the update (lines rebuilt from an inline marker excepted).
  const uSet = new Set(uLines.map((l) => l.trim()));
  const hasInlineMarker = uLines.some((l) => isMarkerLine(l) && !COMMENT_START.test(l.trim()) && l.trim() !== "..." && l.trim() !== "…");
  for (const l of addedLines(o.text.split(/\r?\n/), x.text.split(/\r?\n/))) {
    if (!l.trim() || uSet.has(l.trim())) continue;
    if (hasInlineMarker) inlineMerged.push(`${id}: ${l.trim().slice(0, 100)}`);
    else err(`expected adds a line the update does not show: ${JSON.stringify(l.trim()).slice(0, 120)}`);
  }
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}

const sortObj = (o) => Object.entries(o).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
console.log(`cases: ${cases}   originals over 200 lines: ${big}`);
console.log(`languages (${Object.keys(byLang).length}):`);
for (const [k, v] of sortObj(byLang)) console.log(`  ${k.padEnd(12)} ${v}`);
console.log(`shapes (${Object.keys(byShape).length}):`);
for (const [k, v] of sortObj(byShape)) console.log(`  ${k.padEnd(32)} ${v}`);
if (inlineMerged.length) {
  console.log(`\nlines rebuilt from inline markers (informational, ${inlineMerged.length}):`);
  for (const l of inlineMerged) console.log("  " + l);
}
if (cases < 140) errors.push(`only ${cases} cases (want >= 140)`);
if (Object.keys(byLang).length < 25) errors.push(`only ${Object.keys(byLang).length} languages (want >= 25)`);
if (errors.length) {
  console.error(`\n${errors.length} problem(s):`);
  for (const e of errors) console.error("  " + e);
  process.exit(1);
}
console.log("\nall checks passed");
