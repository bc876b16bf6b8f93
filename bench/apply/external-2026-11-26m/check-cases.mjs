// Mechanical sanity checks for the apply test cases. Usage: node check-cases.mjs [dir]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = process.argv[2] || path.dirname(fileURLToPath(import.meta.url));
const MARKERLESS_SHAPES = new Set(["full-function-no-markers"]);
const isMarker = (l) => /\.\.\.|…/.test(l) && (/^\s*(\/\/|#|--|\/\*|<!--|\{\/\*|\(\*|;)/.test(l) || /(\/\*|<!--)\s*(\.\.\.|…)/.test(l) || /^\s*(\.\.\.|…)\s*$/.test(l) || /\s(\.\.\.|…)\s/.test(l) || /[\[\(\{,]\s*(\.\.\.|…)|(\.\.\.|…)\s*[,\]\)\}]/.test(l));
const lineCount = (t) => (t === "" ? 0 : t.split("\n").length - (t.endsWith("\n") ? 1 : 0));
const eolKind = (t) => { const crlf = (t.match(/\r\n/g) || []).length; const lf = (t.match(/\n/g) || []).length; return crlf === 0 ? "lf" : crlf === lf ? "crlf" : "mixed"; };

let failures = 0, n = 0;
const byLang = {}, byShape = {};
const fail = (id, msg) => { failures++; console.log(`FAIL ${id}: ${msg}`); };
for (const id of fs.readdirSync(root).sort()) {
  const dir = path.join(root, id);
  if (!fs.statSync(dir).isDirectory() || id.startsWith(".")) continue;
  n++;
  const files = ["original", "update", "expected", "meta.json"];
  const missing = files.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) { fail(id, `missing ${missing.join(",")}`); continue; }
  const [orig, upd, exp] = files.slice(0, 3).map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
  let meta;
  try { meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8")); } catch (e) { fail(id, "meta.json invalid JSON"); continue; }
  if (typeof meta.lang !== "string" || !meta.lang) fail(id, "meta.lang");
  if (typeof meta.shape !== "string" || !meta.shape) fail(id, "meta.shape");
  if (!(meta.instruction === null || typeof meta.instruction === "string")) fail(id, "meta.instruction");
  if (!Number.isInteger(meta.lines) || meta.lines !== lineCount(orig)) fail(id, `meta.lines ${meta.lines} != ${lineCount(orig)}`);
  if (meta.lines < 40 || meta.lines > 500) fail(id, `original has ${meta.lines} lines (want 40..500)`);
  if (orig === exp) fail(id, "expected == original");
  const ul = upd.replace(/\r\n/g, "\n").split("\n");
  const hasMarker = ul.some(isMarker);
  if (!hasMarker && !MARKERLESS_SHAPES.has(meta.shape) && !MARKERLESS_SHAPES.has(meta.base_shape) && !meta.markerless) fail(id, "update has no marker and shape is not marker-less");
  const expSet = new Set(exp.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n").split("\n").map((l) => l.trim()));
  for (const l of ul) {
    if (!l.trim() || isMarker(l)) continue;
    if (!expSet.has(l.trim())) fail(id, `update line not in expected: ${JSON.stringify(l)}`);
  }
  if (eolKind(orig) !== eolKind(exp)) fail(id, `line endings differ: ${eolKind(orig)} vs ${eolKind(exp)}`);
  if (eolKind(exp) === "mixed") fail(id, "expected has mixed line endings");
  if (orig.endsWith("\n") !== exp.endsWith("\n")) fail(id, "final-newline state differs");
  if (orig.startsWith("\uFEFF") !== exp.startsWith("\uFEFF")) fail(id, "BOM state differs");
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}
const sortObj = (o) => Object.entries(o).sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${k}: ${v}`).join("\n");
console.log(`cases: ${n}\nlanguages (${Object.keys(byLang).length}):\n${sortObj(byLang)}\nshapes (${Object.keys(byShape).length}):\n${sortObj(byShape)}`);
if (n < 160) { failures++; console.log("FAIL: fewer than 160 cases"); }
if (Object.keys(byLang).length < 25) { failures++; console.log("FAIL: fewer than 25 languages"); }
console.log(failures ? `${failures} failure(s)` : "all checks passed");
process.exit(failures ? 1 : 0);
