// SQL objects as definitions without a grammar (no prebuilt WASM SQL grammar loads here): each
// `CREATE [OR REPLACE] TABLE|VIEW|FUNCTION|PROCEDURE|TRIGGER|INDEX|TYPE|SEQUENCE name …` statement
// to its closing `;`, skipping quoted text, comments, dollar-quoted bodies and BEGIN … END blocks.
import type { Definition } from './definitions.js';

const CREATE = /^\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:TEMP|TEMPORARY|UNIQUE|MATERIALIZED|UNLOGGED)\s+)*(TABLE|VIEW|FUNCTION|PROCEDURE|TRIGGER|INDEX|TYPE|SEQUENCE)\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w$."`[\]]+)/i;

/** Statement boundaries: [start offset, end offset after `;`, closed by its own `;`]. */
function statements(text: string): Array<[number, number, boolean]> {
  const out: Array<[number, number, boolean]> = [];
  let start = 0;
  let depth = 0; // BEGIN … END nesting outside dollar quotes
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '-' && text[i + 1] === '-') { const e = text.indexOf('\n', i); i = e < 0 ? text.length : e; continue; }
    if (c === '/' && text[i + 1] === '*') { const e = text.indexOf('*/', i + 2); i = e < 0 ? text.length : e + 1; continue; }
    if (c === "'" || c === '"' || c === '`') { const e = text.indexOf(c, i + 1); i = e < 0 ? text.length : e; continue; }
    if (c === '$') {
      const m = /^\$[A-Za-z_]*\$/.exec(text.slice(i, i + 40));
      if (m) { const e = text.indexOf(m[0], i + m[0].length); i = e < 0 ? text.length : e + m[0].length - 1; continue; }
    }
    if (/[A-Za-z]/.test(c) && (i === 0 || !/\w/.test(text[i - 1]!))) {
      const w = /^[A-Za-z_]+/.exec(text.slice(i, i + 12))![0].toUpperCase();
      if (w === 'BEGIN' || w === 'CASE') depth++;
      else if (w === 'END' && depth > 0) depth--;
      i += w.length - 1;
      continue;
    }
    if (c === ';' && depth === 0) { out.push([start, i + 1, true]); start = i + 1; }
  }
  // A statement the text ends inside (an open `$$` body or BEGIN block, no `;`) is not complete,
  // even when a `;` inside it ends the text (a snippet cut off by a marker).
  if (text.slice(start).trim() !== '') out.push([start, text.length, false]);
  return out;
}

export function sqlDefinitions(text: string): Definition[] {
  const defs: Definition[] = [];
  const rowAt = (off: number): number => { let r = 0; for (let i = 0; i < off; i++) if (text.charCodeAt(i) === 10) r++; return r; };
  for (const [a, b, closed] of statements(text)) {
    // Leading blank lines and comments belong to no statement.
    let s = a;
    for (;;) {
      const rest = text.slice(s, b);
      const m = /^(?:\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)/.exec(rest);
      if (!m || m[0].length === 0) break;
      s += m[0].length;
    }
    const m = CREATE.exec(text.slice(s, b));
    if (!m) continue;
    const lineStart = text.lastIndexOf('\n', s - 1) + 1;
    const nl = text.indexOf('\n', b);
    const after = text.slice(b, nl < 0 ? text.length : nl);
    const header = text.slice(lineStart, text.indexOf('\n', s) < 0 ? text.length : text.indexOf('\n', s)).trim().replace(/\s+/g, ' ');
    defs.push({
      kind: 'sql',
      name: `${m[1]!.toUpperCase()} ${m[2]!.replace(/[`"[\]]/g, '').toLowerCase()}`,
      start: rowAt(s),
      end: rowAt(b - 1),
      parent: -1,
      wholeLines: text.slice(lineStart, s).trim() === '' && /^\s*(?:--.*)?$/.test(after),
      header,
      // Without a parser, completeness is the statement's own `;`.
      clean: closed,
    });
  }
  return defs;
}
