// Two lines of one shape whose every literal differs are two items of a list, not one item edited:
// `<li><a href="/subscribe">Subscribe</a></li>` → `<li><a href="/api-status">API</a></li>`,
// `"lodash": "^4.17.21",` → `"zod": "^3.22.4",`. Written next to an anchor with a marker after it,
// such a line is a new item; reading it as an edit of the original's next item loses that item.
// Literals: quoted strings and markup text between tags; everything else is the line's shape.
const LITERAL = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`|>[^<>]+</g;

function split(norm: string): { shape: string; literals: string[] } {
  const literals: string[] = [];
  const shape = norm.replace(LITERAL, (m) => {
    literals.push(m);
    return m[0] === '>' ? '>\u0000<' : '\u0000';
  });
  return { shape, literals };
}

/** `a` and `b` have the same shape, at least two literals, and not one literal in common. */
export function anotherSibling(a: string, b: string): boolean {
  if (a === b) return false;
  const sa = split(a);
  if (sa.literals.length < 2) return false;
  const sb = split(b);
  if (sa.shape !== sb.shape) return false;
  for (let k = 0; k < sa.literals.length; k++) if (sa.literals[k] === sb.literals[k]) return false;
  return true;
}

const ELEMENT = /^<([\w.:-]+)\b/;
const ELEMENT_NAME = /\b(?:[\w:-]*id|name|key|for)\s*=\s*["'{]([^"'}]*)["'}]/;

/**
 * Two elements of other tags and other names (`<ProgressBar android:id="@+id/spinner" />` beside
 * `<ImageView android:id="@+id/logo" />`): a new element, never the old one renamed in place.
 */
export function anotherElement(a: string, b: string): boolean {
  const ta = ELEMENT.exec(a)?.[1];
  const tb = ELEMENT.exec(b)?.[1];
  if (!ta || !tb || ta === tb) return false;
  const na = ELEMENT_NAME.exec(a)?.[1];
  const nb = ELEMENT_NAME.exec(b)?.[1];
  return na !== undefined && nb !== undefined && na !== nb;
}
