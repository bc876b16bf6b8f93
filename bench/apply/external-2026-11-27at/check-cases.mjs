// Mechanical sanity checks for the apply test cases in this directory.
// Usage: node check-cases.mjs   (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(fileURLToPath(import.meta.url));
const FILES = ['original', 'update', 'expected', 'meta.json'];

let problems = 0;
const fail = (c, msg) => { problems++; console.log(`FAIL ${c}: ${msg}`); };

function eolKind(text) {
  const crlf = (text.match(/\r\n/g) || []).length;
  const lf = (text.match(/\n/g) || []).length - crlf;
  if (crlf && lf) return 'mixed';
  if (crlf) return 'crlf';
  if (lf) return 'lf';
  return 'none';
}
const stripBom = (t) => (t.charCodeAt(0) === 0xfeff ? t.slice(1) : t);
const lines = (t) => { const a = stripBom(t).split(/\r?\n/); if (a.length && a[a.length - 1] === '') a.pop(); return a; };
const norm = (s) => s.trim().replace(/\s+/g, ' ');

const cases = fs.readdirSync(root).filter((d) => fs.statSync(path.join(root, d)).isDirectory()).sort();
for (const c of cases) {
  const dir = path.join(root, c);
  const present = fs.readdirSync(dir);
  const missing = FILES.filter((f) => !present.includes(f));
  const extra = present.filter((f) => !FILES.includes(f));
  if (missing.length) { fail(c, `missing ${missing.join(', ')}`); continue; }
  if (extra.length) fail(c, `extra files ${extra.join(', ')}`);
  if (!/^[a-z]+[0-9]{2}-[a-z0-9-]+$/.test(c)) fail(c, 'bad directory name');

  const read = (f) => fs.readFileSync(path.join(dir, f), 'utf8');
  const original = read('original');
  const update = read('update');
  const expected = read('expected');

  let meta;
  try { meta = JSON.parse(read('meta.json')); } catch (e) { fail(c, `meta.json invalid: ${e.message}`); continue; }
  for (const k of ['lang', 'shape', 'instruction', 'lines']) if (!(k in meta)) fail(c, `meta.json lacks ${k}`);
  if (typeof meta.lang !== 'string' || typeof meta.shape !== 'string') fail(c, 'lang/shape must be strings');
  if (meta.instruction !== null && typeof meta.instruction !== 'string') fail(c, 'instruction must be string or null');
  const n = lines(original).length;
  if (meta.lines !== n) fail(c, `meta.lines=${meta.lines} but original has ${n}`);
  if (n < 30 || n > 400) fail(c, `original has ${n} lines (want 30..400)`);

  const kinds = [original, update, expected].map(eolKind);
  if (kinds.includes('mixed')) fail(c, `mixed line endings ${kinds}`);
  const main = kinds.filter((k) => k !== 'none');
  if (new Set(main).size > 1) fail(c, `line endings differ: original=${kinds[0]} update=${kinds[1]} expected=${kinds[2]}`);
  if ((original.charCodeAt(0) === 0xfeff) !== (expected.charCodeAt(0) === 0xfeff)) fail(c, 'BOM differs between original and expected');
  if (original === expected) fail(c, 'expected equals original');

  const origSet = new Set(lines(original).map(norm));
  const updSet = new Set(lines(update).map(norm));
  for (const [i, l] of lines(expected).entries()) {
    if (!origSet.has(norm(l)) && !updSet.has(norm(l))) fail(c, `expected line ${i + 1} is in neither original nor update: ${JSON.stringify(l)}`);
  }
  // A marker line: an elision comment such as `// ... existing code ...`, `# ...`, `<!-- ... -->`,
  // `-- ...`, `/* ... */`, `// …`, or a bare `...`. JS spread (`...rest`) is not a marker.
  const isMarker = (l) =>
    /^\s*(\/\/|#|--|;|\/\*|<!--|\{-)?\s*(\.\.\.|…)(?![\w$])/.test(l) ||
    /^\s*(\/\/|#|--|;|\/\*|<!--)\s*.*(existing|unchanged|rest of)/i.test(l);
  const hasMarker = lines(update).some(isMarker);
  if (hasMarker && update === expected) fail(c, 'update has markers but is identical to expected');
}
console.log(`${cases.length} cases checked, ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
