// Bracket counting over lines, for the merge's block structure: net brackets a line opens, and the
// line that closes the block a line opens. One counter for the raw text, one that skips quoted text
// and `//` comments (a `'{'` in a string is not a block).

/** The closing bracket of each opening one. */
export const CLOSING_BRACKET: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };

/** A (normalized, trimmed) line that starts by closing a bracket: `}`, `})`, `]`, `) {`. */
export function startsWithCloser(t: string): boolean {
  return CLOSER_FIRST.test(t);
}
const CLOSER_FIRST = /^[)}\]]/;

/** Net brackets a line opens (strings not skipped: code lines rarely hold unbalanced ones in quotes). */
export function bracketDelta(t: string): number {
  let d = 0;
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k);
    if (c === 123 || c === 40 || c === 91) d++;
    else if (c === 125 || c === 41 || c === 93) d--;
  }
  return d;
}

/**
 * Net curly braces of a line, quotes not read: blocks only. `)` ends a shell case pattern and a
 * regex's quote would open a string for a quote-aware count; braces inside strings (`"{}"`) pair up.
 */
export function braceDelta(t: string): number {
  let d = 0;
  for (let k = 0; k < t.length; k++) {
    const c = t.charCodeAt(k);
    if (c === 123) d++;
    else if (c === 125) d--;
  }
  return d;
}

/** A Rust lifetime (`<'_>`, `&'a str`, `'static>`): an apostrophe that opens no quoted text. */
const RUST_LIFETIME = /^(?:[<&]'[A-Za-z_]\w*(?![\w'])|.'[A-Za-z_]\w*>)/;

/**
 * Calls `visit` with each bracket of a line that stands outside quoted text and before a `//`
 * comment, in order; `visit` returning false stops the scan.
 */
export function forEachCodeBracket(t: string, visit: (c: string) => boolean | void): void {
  let quote = '';
  for (let k = 0; k < t.length; k++) {
    const c = t[k]!;
    if (quote) {
      if (c === '\\') k++;
      else if (c === quote) quote = '';
      continue;
    }
    if (c === "'" && k > 0 && RUST_LIFETIME.test(t.slice(k - 1, k + 64))) continue;
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (c === '{' || c === '(' || c === '[' || c === '}' || c === ')' || c === ']') {
      if (visit(c) === false) return;
    } else if (c === '/' && t[k + 1] === '/') return;
  }
}

/** Net brackets a line opens outside quoted text and before a `//` comment. */
export function codeBracketDelta(t: string): number {
  let d = 0;
  forEachCodeBracket(t, (c) => {
    d += c === '{' || c === '(' || c === '[' ? 1 : -1;
  });
  return d;
}

/** The line that closes the block line h opens (brackets back to h's level), or -1. */
export function closesAt(text: readonly string[], h: number, delta: (t: string) => number = bracketDelta): number {
  let depth = delta(text[h]!);
  if (depth <= 0) return -1;
  for (let j = h + 1; j < text.length; j++) {
    depth += delta(text[j]!);
    if (depth <= 0) return j;
  }
  return -1;
}

/** The line (at or after lo) whose block line c closes (brackets back to c's level), or -1. */
export function openedAt(text: readonly string[], c: number, lo: number, delta: (t: string) => number = bracketDelta): number {
  let depth = delta(text[c]!);
  if (depth >= 0) return -1;
  for (let j = c - 1; j >= lo; j--) {
    depth += delta(text[j]!);
    if (depth >= 0) return j;
  }
  return -1;
}
