// Text to match literally inside a RegExp built from names the instruction or the file gives.
export function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `name` as a whole name in a line: not a part of a longer identifier nor of a hyphenated name
 * (`dotenv-rails` holds no `dotenv`). One pattern for every reader of an instruction's names
 * (definition heads, the update's mentions, one-line units), so they agree on what a name is.
 */
export function wholeName(name: string): RegExp {
  return new RegExp(`(^|[^\\w$-])${escapeRe(name)}(?![\\w$-])`);
}
