#!/usr/bin/env node
// Mechanical sanity checks for the apply-engine test cases in this directory.
// Usage: node check-cases.mjs [caseDir...]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ["original", "update", "expected", "meta.json"];
const MARKER_RE = /(\.\.\.|…|\bexisting\b|\bunchanged\b|\bstays the same\b|\brest of\b)/i;

function readText(p) {
  let s = fs.readFileSync(p, "utf8");
  const bom = s.charCodeAt(0) === 0xfeff;
  if (bom) s = s.slice(1);
  return { s, bom };
}

function eol(s) {
  const crlf = (s.match(/\r\n/g) || []).length;
  const lf = (s.match(/\n/g) || []).length - crlf;
  const cr = (s.match(/\r(?!\n)/g) || []).length;
  if (crlf + lf + cr === 0) return "none";
  if (crlf && !lf && !cr) return "crlf";
  if (lf && !crlf && !cr) return "lf";
  return "mixed";
}

function lines(s) {
  const ls = s.split(/\r?\n/);
  if (ls.length && ls[ls.length - 1] === "") ls.pop();
  return ls;
}

function checkCase(dir) {
  const errs = [];
  const name = path.basename(dir);
  if (!/^[a-z]+\d\d-[a-z0-9-]+$/.test(name)) errs.push(`bad directory name ${name}`);
  const present = fs.readdirSync(dir).sort();
  for (const f of FILES) if (!present.includes(f)) errs.push(`missing ${f}`);
  for (const f of present) if (!FILES.includes(f)) errs.push(`unexpected file ${f}`);
  if (errs.length) return errs;

  let meta;
  try {
    meta = JSON.parse(fs.readFileSync(path.join(dir, "meta.json"), "utf8"));
  } catch (e) {
    return [`meta.json invalid: ${e.message}`];
  }
  if (typeof meta.lang !== "string" || !meta.lang) errs.push("meta.lang missing");
  if (typeof meta.shape !== "string" || !meta.shape) errs.push("meta.shape missing");
  if (!(meta.instruction === null || (typeof meta.instruction === "string" && meta.instruction.trim())))
    errs.push("meta.instruction must be a non-empty string or null");
  if (!Number.isInteger(meta.lines)) errs.push("meta.lines must be an integer");

  const o = readText(path.join(dir, "original"));
  const u = readText(path.join(dir, "update"));
  const e = readText(path.join(dir, "expected"));
  const oL = lines(o.s), uL = lines(u.s), eL = lines(e.s);

  if (meta.lines !== oL.length) errs.push(`meta.lines=${meta.lines} but original has ${oL.length} lines`);
  if (oL.length < 30 || oL.length > 400) errs.push(`original has ${oL.length} lines (want 30..400)`);

  const eols = { original: eol(o.s), update: eol(u.s), expected: eol(e.s) };
  const kinds = new Set(Object.values(eols).filter((k) => k !== "none"));
  if ([...kinds].includes("mixed")) errs.push(`mixed line endings: ${JSON.stringify(eols)}`);
  else if (kinds.size > 1) errs.push(`inconsistent line endings: ${JSON.stringify(eols)}`);

  if (o.bom !== e.bom) errs.push("BOM differs between original and expected");
  const oFinal = /\n$/.test(o.s), eFinal = /\n$/.test(e.s);
  if (oFinal !== eFinal) errs.push("final newline differs between original and expected");

  // Every new line of expected must come from the update (after trimming),
  // or be a fragment of an original line (re-flowed inline-elided content).
  const origSet = new Set(oL.map((l) => l.trim()));
  const updSet = new Set(uL.map((l) => l.trim()));
  const origText = oL.join("\n");
  for (const [i, l] of eL.entries()) {
    const t = l.trim();
    if (origSet.has(t) || updSet.has(t)) continue;
    if (t.length >= 8 && origText.includes(t)) continue;
    errs.push(`expected line ${i + 1} is in neither original nor update: ${JSON.stringify(l)}`);
  }

  if (e.s === o.s) errs.push("expected is identical to original");
  const hasMarker = uL.some((l) => MARKER_RE.test(l) && !origSet.has(l.trim()) && !eL.some((x) => x.trim() === l.trim()));
  if (hasMarker && u.s.replace(/\r/g, "") === e.s.replace(/\r/g, "")) errs.push("update has markers but equals expected");
  return errs;
}

const dirs = process.argv.slice(2).length
  ? process.argv.slice(2).map((d) => path.resolve(d))
  : fs.readdirSync(root)
      .map((d) => path.join(root, d))
      .filter((d) => fs.statSync(d).isDirectory())
      .sort();

let bad = 0;
const byLang = {}, stats = { crlf: 0, bom: 0, noFinalNewline: 0, instruction: 0, over150: 0 };
for (const d of dirs) {
  const errs = checkCase(d);
  if (errs.length) {
    bad++;
    console.log(`FAIL ${path.basename(d)}`);
    for (const e of errs) console.log(`  - ${e}`);
    continue;
  }
  const meta = JSON.parse(fs.readFileSync(path.join(d, "meta.json"), "utf8"));
  byLang[meta.lang] = (byLang[meta.lang] || 0) + 1;
  const o = readText(path.join(d, "original"));
  if (eol(o.s) === "crlf") stats.crlf++;
  if (o.bom) stats.bom++;
  if (!/\n$/.test(o.s)) stats.noFinalNewline++;
  if (meta.instruction) stats.instruction++;
  if (meta.lines > 150) stats.over150++;
  console.log(`ok   ${path.basename(d)}`);
}
console.log(`\n${dirs.length - bad}/${dirs.length} cases pass`);
console.log("languages:", JSON.stringify(byLang));
console.log("stats:", JSON.stringify(stats));
process.exit(bad ? 1 : 0);
