// Mechanical sanity checks for the heldout-n apply test cases. Usage: node check-cases.mjs
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
const root = path.dirname(fileURLToPath(import.meta.url));
const MARKERLESS = new Set(["full-function-no-markers", "full-block-no-markers"]);
const markerRe = /(\.\.\.|…|existing|unchanged|rest of)/i;
const eol = (s) => (s.includes("\r\n") ? "crlf" : "lf");
let errors = 0, n = 0;
const byLang = {}, byShape = {};
const fail = (id, msg) => { errors++; console.error(`FAIL ${id}: ${msg}`); };
for (const id of fs.readdirSync(root).sort()) {
  const dir = path.join(root, id);
  if (!fs.statSync(dir).isDirectory()) continue;
  n++;
  const files = ["original", "update", "expected", "meta.json"];
  const missing = files.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) { fail(id, "missing " + missing.join(",")); continue; }
  let meta;
  try { meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8")); } catch (e) { fail(id, "bad meta.json"); continue; }
  if (typeof meta.lang !== "string" || typeof meta.shape !== "string" || !(meta.instruction === null || typeof meta.instruction === "string") || !Number.isInteger(meta.lines)) fail(id, "meta fields");
  const orig = fs.readFileSync(path.join(dir, "original"), "utf8");
  const upd = fs.readFileSync(path.join(dir, "update"), "utf8");
  const exp = fs.readFileSync(path.join(dir, "expected"), "utf8");
  if (orig === exp) fail(id, "expected == original");
  const nl = orig.replace(/^\uFEFF/, "").split("\n").length - (orig.endsWith("\n") ? 1 : 0);
  if (nl !== meta.lines) fail(id, `meta.lines ${meta.lines} != ${nl}`);
  if (nl < 40 || nl > 500) fail(id, `original has ${nl} lines (want 40..500)`);
  if (eol(orig) !== eol(exp)) fail(id, "line endings differ");
  if (orig.endsWith("\n") !== exp.endsWith("\n")) fail(id, "final newline state differs");
  if (orig.startsWith("\uFEFF") !== exp.startsWith("\uFEFF")) fail(id, "BOM state differs");
  if (eol(orig) === "lf" && exp.includes("\r")) fail(id, "stray CR in expected");
  const expLines = new Set(exp.replace(/^\uFEFF/, "").split(/\r?\n/).map((l) => l.trim()));
  const updLines = upd.replace(/^\uFEFF/, "").split(/\r?\n/);
  let markers = 0;
  for (const l of updLines) {
    const t = l.trim();
    if (!t) continue;
    if (expLines.has(t)) continue;
    if (markerRe.test(t)) { markers++; continue; }
    fail(id, "update line not in expected: " + JSON.stringify(l));
  }
  if (!markers && !MARKERLESS.has(meta.shape) && !updLines.some((l) => markerRe.test(l) && !expLines.has(l.trim()))) fail(id, "update has no marker and shape is not marker-less");
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  byShape[meta.shape] = (byShape[meta.shape] || 0) + 1;
}
console.log(`cases: ${n}`);
console.log(`languages (${Object.keys(byLang).length}):`, JSON.stringify(byLang));
console.log(`shapes (${Object.keys(byShape).length}):`, JSON.stringify(byShape));
if (errors) { console.error(`${errors} problem(s)`); process.exit(1); }
console.log("all checks passed");
